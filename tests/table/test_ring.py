"""The status ring counts what matters now, signals a set to trade, and the dice panel sorts each side's dice."""

from __future__ import annotations

import dataclasses

from conquista.dice.sources import SeededDice
from conquista.rules.actions import Roll
from conquista.rules.events import Phase
from conquista.rules.state import Battle
from conquista.table.colours import OFF, SELECT, player_rgb, scale
from conquista.table.gestures import Button, Press, Tap, Turn
from conquista.table.referee import Referee
from conquista.table.ring import (
    COUNT_DIM,
    TRADE_LEDS,
    arc_ring,
    arcs,
    count_ring,
    dice_ring,
    phase_ring,
    with_time_left,
    with_trade_signal,
)
from conquista_sim.dice import FixedDice
from tests.rules.helpers import position, tid

N = 24
RED = player_rgb("red")


def lit(ring: tuple[tuple[int, int, int], ...], colour: tuple[int, int, int] = RED) -> int:
    return sum(1 for c in ring if c == colour)


def test_arcs_cover_the_ring_and_leave_a_gap_between() -> None:
    assert [list(a) for a in arcs(12, 3)] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    ring = arc_ring(12, [RED, RED, OFF])
    assert ring[:4] == (RED, RED, RED, OFF) and lit(ring) == 6
    assert arc_ring(2, [RED, RED]) == (RED, RED)           # one-LED arcs keep their LED


def test_count_dice_phase_and_time_left_rings() -> None:
    assert lit(count_ring(N, RED, 5)) == 5 and count_ring(N, RED, 5)[5] == scale(RED, COUNT_DIM)
    assert lit(count_ring(N, RED, 99)) == N
    dice = dice_ring(N, RED, 2, 2)
    assert lit(dice) == 14 and set(dice[16:]) == {OFF}      # a third die cannot be chosen: its arc is dark
    assert dice_ring(N, RED, 1, 3)[16] == scale(RED, COUNT_DIM)
    assert lit(phase_ring(N, RED, 1)) == 8 and phase_ring(N, RED, 1)[8] == RED
    assert with_time_left(count_ring(N, RED, N), 0.25) == (RED,) * 6 + (OFF,) * 18
    assert with_time_left(count_ring(N, RED, N), 1.5) == (RED,) * N


def test_trade_signal_blinks_the_last_leds() -> None:
    base = count_ring(N, RED, 3)
    assert with_trade_signal(base, 0.1)[-TRADE_LEDS:] == (SELECT,) * TRADE_LEDS
    assert with_trade_signal(base, 0.6)[-TRADE_LEDS:] == (OFF,) * TRADE_LEDS
    assert with_trade_signal(base, 0.1)[:-TRADE_LEDS] == base[:-TRADE_LEDS]


def test_ring_counts_armies_to_place_and_follows_each_tap() -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0}, phase=Phase.REINFORCE, state={"pool": 5})
    ref = Referee(game, SeededDice(1), ring_size=N)
    assert lit(ref.scene(0.1).ring) == 5
    ref.handle(Tap(tid("alaska")), 1.0)
    assert lit(ref.scene(1.1).ring) == 4
    ref.handle(Turn(4), 1.2)
    assert ref.game.pool == 0 and lit(ref.scene(1.3).ring) == 8   # none left: the reinforce third, bright


def test_ring_counts_dice_chosen_and_armies_to_move_in() -> None:
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 8, "kamchatka": 1})
    ref = Referee(game, FixedDice(6, 1), ring_size=N)
    ref.handle(Tap(tid("alaska")), 1.0)
    assert lit(ref.scene(1.05).ring) == 8                    # attack phase, nothing chosen yet: its third
    ref.handle(Tap(tid("kamchatka")), 1.1)
    assert lit(ref.scene(1.2).ring) == 21                    # three dice: three arcs of 7 lit LEDs
    ref.handle(Turn(-2), 1.3)
    assert lit(ref.scene(1.4).ring) == 7
    ref.handle(Press(Button.ROLL), 2.0)
    assert ref.game.phase is Phase.OCCUPY
    assert lit(ref.scene(2.1).ring) == ref.count == 1
    ref.handle(Turn(3), 2.2)
    assert lit(ref.scene(2.3).ring) == 4


def test_defender_ring_counts_defence_dice_in_the_defenders_colour() -> None:
    battle = Battle(tid("alaska"), tid("kamchatka"), 3, 0)._asdict()
    game = position("french-1976", players=3, owners={"alaska": 0}, armies={"alaska": 5, "kamchatka": 4},
                    phase=Phase.DEFEND, state={"battle": battle}, automatic_defence=False)
    ref = Referee(game, SeededDice(1), ring_size=N)
    defender = player_rgb(game.rules.colours[1])
    assert lit(ref.scene(0.1).ring, defender) == 7 * ref.defence


def test_dice_panel_sorts_each_side_high_to_low() -> None:
    game = position("classic", owners={"alaska": 0}, armies={"alaska": 8, "kamchatka": 5})
    ref = Referee(game, SeededDice(1))
    ref.state = dataclasses.replace(ref.state, last_roll=((2, 6, 4), (3, 5)))   # a position set up
    assert ref.dice_values() == ((6, 4, 2), (5, 3, None))
    scene = ref.scene(0.0)
    assert (scene.attack_dice, scene.defence_dice) == ((6, 4, 2), (5, 3, None))


def test_a_resumed_roll_shows_sorted_too() -> None:
    game = position("classic", owners={"alaska": 0}, armies={"alaska": 8, "kamchatka": 5})
    game.log.append(Roll((1, 5, 3), (2, 6)))
    ref = Referee(game, SeededDice(1))
    ref.reset(game, 0.0, play=False)
    assert ref.dice_values() == ((5, 3, 1), (6, 2, None))
