"""The referee's interaction model, with time stepped by the test (no sleeping)."""

from __future__ import annotations

import pytest

from conquista.dice.sources import SeededDice
from conquista.rules.actions import Attack, Occupy, Place
from conquista.rules.events import Phase
from conquista.rules.odds import conquest_chance
from conquista.rules.state import Battle
from conquista.table.colours import ILLEGAL, OFF, SELECT, player_rgb
from conquista.table.effects import ActionApplied, ActionUndone
from conquista.table.gestures import Button, GestureRecogniser, Hold, LongPress, Press, Tap, Turn
from conquista.table.referee import Referee
from conquista.table.ring import TRADE_LEDS, arcs
from conquista_sim.dice import FixedDice
from tests.rules.helpers import MAP, dealt, position, tid


def referee_at(game, dice=None, **kwargs):  # type: ignore[no-untyped-def]
    return Referee(game, dice or SeededDice(1), **kwargs)


def colour_of(ref: Referee, seat: int) -> tuple[int, int, int]:
    return player_rgb(ref.game.rules.colours[seat])


def test_reinforce_tap_encoder_and_cancel() -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0}, phase=Phase.REINFORCE, state={"pool": 5})
    ref = referee_at(game)
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Turn(2), 1.1)
    # Applied actions leave as effects, with their index in the log (the journal's row).
    n = len(ref.game.log)
    assert [(e.action, e.seq) for e in ref.take_effects() if isinstance(e, ActionApplied)] == [
        (Place(tid("alaska"), 1), n - 2), (Place(tid("alaska"), 2), n - 1)]
    assert ref.game.armies[tid("alaska")] == 4 and ref.game.pool == 2
    ref.handle(Press(Button.CANCEL), 1.2)
    assert ref.game.armies[tid("alaska")] == 2 and ref.game.pool == 4
    assert ref.take_effects() == [ActionUndone(Place(tid("alaska"), 2), n - 1)]
    ref.handle(Press(Button.NEXT), 1.3)
    assert ref.game.phase is Phase.REINFORCE and "armies are still to place" in ref.message


def test_trade_offered_and_confirmed_with_roll() -> None:
    jollies = [MAP.size, MAP.size + 1, tid("peru")]  # two jollies: not a set in italian
    ref = referee_at(position("italian", owners={"alaska": 0}, phase=Phase.REINFORCE, hands={0: jollies}))
    ref.handle(Press(Button.ROLL), 1.0)
    assert "no set" in ref.message
    cannons = [t.index for t in MAP.territories if t.card == "cannon"][:3]
    ref.reset(position("italian", owners={"alaska": 0}, phase=Phase.REINFORCE, hands={0: cannons}), 1.5)
    assert "ROLL" in ref.status().pending
    ref.handle(Press(Button.ROLL), 2.0)
    assert ref.game.pool == 4 and ref.game.hands[0] == []


def test_attack_selection_roll_dice_panel_and_loss_blinks() -> None:
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 6, "kamchatka": 4})
    ref = referee_at(game, FixedDice(1, 6))
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    assert (ref.source, ref.target) == (tid("alaska"), tid("kamchatka"))
    chance = ref.status().chance
    assert chance == pytest.approx(conquest_chance(game.rules, 6, 4))
    ring = ref.scene(1.2).ring                   # the ring counts the dice chosen: three arcs, all lit
    assert [ring[arc[0]] for arc in arcs(ref.ring_size, 3)] == [colour_of(ref, 0)] * 3
    ref.handle(Press(Button.ROLL), 2.0)
    assert ref.game.armies[tid("alaska")] == 4 and ref.last_roll == ((1, 1, 1), (6, 6))
    scene = ref.scene(2.01)
    assert scene.territories[tid("alaska")] == OFF  # first blink of two
    assert scene.attack_dice == (1, 1, 1)
    assert scene.defence_dice == (6, 6, None)  # two defence dice only
    assert ref.scene(2.3).territories[tid("alaska")] != OFF   # between blinks
    assert ref.scene(2.45).territories[tid("alaska")] == OFF  # second blink
    assert ref.scene(2.9).territories[tid("alaska")] == colour_of(ref, 0) or ref.source >= 0


def test_blitz_conquest_and_occupation_with_encoder() -> None:
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 8, "kamchatka": 3})
    ref = referee_at(game, FixedDice(6, 1))
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.handle(Hold(Button.ROLL), 2.0)
    assert ref.game.phase is Phase.OCCUPY and ref.count == 3
    ref.handle(Turn(10), 2.5)
    assert ref.count == 7
    ref.handle(Press(Button.ROLL), 3.0)
    assert ref.game.armies[tid("kamchatka")] == 7 and ref.game.phase is Phase.ATTACK


def test_long_press_on_target_blitzes() -> None:
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 8, "kamchatka": 3})
    ref = referee_at(game, FixedDice(6, 1))
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(LongPress(tid("kamchatka")), 2.0)
    assert ref.game.owner[tid("kamchatka")] == 0


@pytest.mark.parametrize("phase", [Phase.REINFORCE, Phase.ATTACK, Phase.FORTIFY, Phase.OCCUPY])
def test_illegal_taps_flash_red_and_change_nothing(phase: Phase) -> None:
    state: dict[str, object] = {"pool": 3} if phase is Phase.REINFORCE else {}
    if phase is Phase.OCCUPY:
        state["battle"] = Battle(tid("alaska"), tid("alberta"), 1, 1, occupy_min=1)._asdict()
    game = position("italian", owners={"alaska": 0, "alberta": 0}, armies={"alaska": 3}, phase=phase, state=state)
    ref = referee_at(game)
    before = ref.game.digest()
    bad = tid("brazil")  # an enemy territory far from everything the player holds
    if phase is Phase.ATTACK:
        ref.handle(Tap(tid("alaska")), 0.5)
    ref.handle(Tap(bad), 1.0)
    assert ref.game.digest() == before
    assert ref.scene(1.1).territories[bad] == ILLEGAL
    assert ref.scene(2.0).territories[bad] == colour_of(ref, 1)
    assert ref.message


def test_fortify_by_taps_and_encoder() -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0}, armies={"alaska": 6}, phase=Phase.FORTIFY)
    ref = referee_at(game)
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("alberta")), 1.1)
    assert ref.count == 5
    ref.handle(Turn(-3), 1.2)
    ref.handle(Press(Button.ROLL), 1.3)
    assert ref.game.armies[tid("alberta")] == 3 and ref.game.current == 1


def test_physical_dice_entered_with_the_encoder() -> None:
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 3, "kamchatka": 1})
    ref = referee_at(game, physical_dice=True)
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.handle(Press(Button.ROLL), 1.2)
    assert ref.entry is not None and "enter die 1 of 3" in ref.status().pending
    for value in (6, 2):  # two attack dice
        ref.handle(Turn(value - 1), 1.3)
        ref.handle(Press(Button.ROLL), 1.4)
    ref.handle(Turn(3), 1.5)  # defence die: 4
    ref.handle(Press(Button.ROLL), 1.6)
    assert ref.last_roll == ((6, 2), (4,)) and ref.game.owner[tid("kamchatka")] == 0
    # Two armies had to move in (the dice rolled), and two could: the table moved them itself.
    roll, occupy = ref.game.log[-2:]
    assert getattr(roll, "source", "") == "physical" and occupy == Occupy(2)


def test_chosen_defence_times_out_to_the_maximum() -> None:
    game = position("french-1976", players=3, owners={"alaska": 0}, armies={"alaska": 5, "kamchatka": 4},
                    automatic_defence=False)
    ref = referee_at(game, defend_timeout_s=10.0)
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.handle(Press(Button.ROLL), 2.0)
    assert ref.game.phase is Phase.DEFEND
    ref.tick(11.0)
    assert ref.game.phase is Phase.DEFEND
    ref.tick(12.1)
    assert ref.game.phase is not Phase.DEFEND and len(ref.last_roll[1]) == 2


def test_secrets_never_reach_the_lights() -> None:
    game = position("italian", owners={"alaska": 0}, phase=Phase.REINFORCE)
    before = referee_at(game).scene(3.0)
    other = position("italian", owners={"alaska": 0}, phase=Phase.REINFORCE, hands={0: [1, 2]},
                     state={"missions": [14, 13]})
    assert other.hands[0] == [1, 2] and other.missions == (14, 13) and game.missions != (14, 13)
    assert referee_at(other).scene(3.0) == before
    # A set ready to trade is signalled on the ring (issue 12; the pending words say it too), nothing more.
    with_set = position("italian", owners={"alaska": 0}, phase=Phase.REINFORCE, hands={0: [1, 2, 3]})
    assert with_set.valid_trades()
    after = referee_at(with_set).scene(3.0)
    assert (after.territories, after.attack_dice, after.defence_dice) == \
        (before.territories, before.attack_dice, before.defence_dice)
    assert after.ring[:-TRADE_LEDS] == before.ring[:-TRADE_LEDS] and after.ring[-TRADE_LEDS:] == (SELECT,) * 3


def test_setup_by_taps_until_the_first_turn() -> None:
    ref = referee_at(dealt("french-1976", 3))
    while ref.game.phase is Phase.SETUP:
        seat = ref.game.current
        mine = ref.game.owner.index(seat)
        ref.handle(Tap(mine), 1.0)
        ref.handle(Turn(ref.game.pool), 1.1)
    assert ref.game.phase is Phase.REINFORCE and ref.game.turn == 1
    assert isinstance(ref.game.log[-1], Place)


def test_gesture_recogniser_thresholds() -> None:
    rec = GestureRecogniser(min_tap_s=0.02, long_press_s=0.8)
    rec.territory_down(5, 1.0)
    assert rec.territory_up(5, 1.01) is None          # a bounce, not a tap
    rec.territory_down(5, 2.0)
    assert rec.territory_up(5, 2.2) == Tap(5)
    rec.territory_down(5, 3.0)
    assert rec.territory_up(5, 3.9) == LongPress(5)
    assert rec.territory_up(7, 4.0) is None           # release without a press
    rec.button_down(Button.ROLL, 5.0)
    assert rec.button_up(Button.ROLL, 6.0) == Hold(Button.ROLL)


def _after_an_elimination() -> Referee:
    """Seat 0 has just taken the last territory of seat 2, and with it a set of cards: the elimination trade."""
    cannons = [t for t in MAP.territories if t.card == "cannon" and t.id not in ("alaska", "kamchatka")][:3]
    # Seat 0 owns the first card's territory: the Italian rules add 2 armies to the trade for it.
    cannon_cards = [t.index for t in cannons]
    game = position("italian", players=3, owners={"alaska": 0, cannons[0].id: 0, "kamchatka": 2},
                    armies={"alaska": 9}, hands={2: cannon_cards})
    cannons = cannon_cards
    ref = referee_at(game, FixedDice(6, 1))
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.handle(Hold(Button.ROLL), 2.0)
    ref.handle(Press(Button.ROLL), 3.0)  # the move-in
    assert ref.game.phase is Phase.ELIMINATION_TRADE and sorted(ref.game.hands[0]) == sorted(cannons)
    return ref


def test_a_held_roll_never_trades_cards() -> None:
    # Regression: holding ROLL (a blitz) in the elimination trade spent the cards.
    ref = _after_an_elimination()
    hand = list(ref.game.hands[0])
    ref.handle(Hold(Button.ROLL), 4.0)
    assert ref.game.hands[0] == hand and ref.game.pool == 0
    assert ref.game.phase is Phase.ELIMINATION_TRADE and "press ROLL briefly to trade" in ref.message
    ref.handle(Press(Button.ROLL), 5.0)
    assert ref.game.hands[0] == [] and ref.game.pool > 0


def test_the_trade_line_shows_the_territory_bonus() -> None:
    # Regression: "trades three cannons for 4 armies" while the pool grew by 6 (Italian: +2 for a card of one's own).
    ref = _after_an_elimination()
    ref.handle(Press(Button.ROLL), 4.0)
    bonus = ref.game.rules.territory_bonus * sum(ref.game.owner[c] == 0 for c in ref.game.discard[-3:])
    assert bonus > 0
    value = ref.game.pool - bonus
    assert f"for {value} + {bonus} territory bonus = {ref.game.pool} armies" in ref.log[-1]


def test_after_the_move_in_nothing_is_selected_and_a_tap_selects() -> None:
    # Regression: the attack source stayed selected after a conquest, so the next tap on it deselected it silently.
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 8, "kamchatka": 3})
    ref = referee_at(game, FixedDice(6, 1))
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.handle(Hold(Button.ROLL), 2.0)
    assert ref.game.phase is Phase.OCCUPY
    ref.handle(Press(Button.ROLL), 3.0)
    assert ref.game.phase is Phase.ATTACK and (ref.source, ref.target) == (-1, -1)
    assert ref.scene(3.1).territories[tid("alaska")] == colour_of(ref, 0)  # not pulsing
    ref.handle(Tap(tid("alaska")), 4.0)
    assert ref.source == tid("alaska") and ref.target == -1
    ref.handle(Tap(tid("alaska")), 5.0)
    assert ref.source == -1 and "deselected" in ref.message
    ref.handle(Tap(tid("kamchatka")), 6.0)  # the conquered territory, with armies moved in: the next source
    assert ref.source == tid("kamchatka")


def test_a_roll_without_conquest_keeps_the_selection_for_the_next_roll() -> None:
    game = position("classic", owners={"alaska": 0}, armies={"alaska": 8, "kamchatka": 9})
    ref = referee_at(game, FixedDice(1, 6))
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.handle(Press(Button.ROLL), 2.0)
    assert (ref.source, ref.target) == (tid("alaska"), tid("kamchatka"))


def test_a_refused_attack_tap_reads_the_engines_reason() -> None:
    # The referee does not work out why an attack is refused: it shows the engine's check, in names.
    game = position("italian", 3, owners={"alaska": 0, "kamchatka": 2}, armies={"alaska": 4}, round_=1)
    ref = referee_at(game)
    shown = []
    for target in ("brazil", "kamchatka"):
        ref.handle(Tap(tid("alaska")), 0.5)
        ref.handle(Tap(tid(target)), 1.0)
        words = game.check(Attack(tid("alaska"), tid(target), 1))
        assert words is not None and ref.message == ref.readable(words) and ref.target < 0
        shown.append(ref.message)
        ref.handle(Press(Button.CANCEL), 1.1)
    assert shown == ["Brazil is not adjacent to Alaska",
                     "Kamchatka is its owner's last territory: nobody may be eliminated before round 5"]
