"""Fleets at the table (lamorisse-1954): a long press places a fleet, fortify counts what may move, the words say
fleets, the chance to conquer counts a fleet's die as the engine does."""

from __future__ import annotations

import math
import re
from functools import cache
from typing import Any

import pytest

from conquista.dice.sources import SeededDice
from conquista.rules.actions import Fortify, Place
from conquista.rules.battle import VOID_ROLL, resolver_for
from conquista.rules.engine import Game
from conquista.rules.events import BattleRolled, Phase
from conquista.rules.fleet_battle import battle_rule
from conquista.table import unit_kinds as units
from conquista.table.gestures import Button, LongPress, Press, Tap, Turn
from conquista.table.logview import describe_event
from conquista.table.referee import Referee
from conquista.web.views import seat_view
from tests.rules.helpers import MAP, position, tid

LAMORISSE = "lamorisse-1954"


def fleets_of(counts: dict[str, int]) -> list[int]:
    out = [0] * MAP.size
    for name, n in counts.items():
        out[tid(name)] = n
    return out


def game_with(phase: Phase, armies: dict[str, int], fleets: dict[str, int] | None = None,
              owners: dict[str, int] | None = None, **state: Any) -> Game:
    """Red (seat 0) holds Alaska, Kamchatka, Alberta and Ukraine unless told otherwise; blue the rest."""
    owned = owners if owners is not None else {"alaska": 0, "kamchatka": 0, "alberta": 0, "ukraine": 0}
    return position(LAMORISSE, players=2, owners=owned, armies=armies, phase=phase,
                    state={"fleets": fleets_of(fleets or {}), **state})


def referee_for(game: Game) -> Referee:
    return Referee(game, SeededDice(1))


def test_a_long_press_places_a_fleet_and_a_tap_an_army() -> None:
    ref = referee_for(game_with(Phase.REINFORCE, {"alaska": 2}, pool=4))
    assert "tap: an army, long press: a fleet" in ref.status().pending
    ref.handle(LongPress(tid("alaska")), 1.0)
    ref.handle(Turn(1), 1.1)                          # the encoder places more of the kind placed last
    game = ref.game
    assert (game.armies[tid("alaska")], game.fleets[tid("alaska")], game.pool) == (4, 2, 2)
    assert ref.log[-1] == "red places 2 fleets on Alaska"
    ref.handle(Tap(tid("alaska")), 1.2)
    assert (game.armies[tid("alaska")], game.fleets[tid("alaska")], game.pool) == (5, 2, 1)
    assert ref.log[-2:] == ["red places 2 fleets on Alaska", "red places 1 army on Alaska"]
    ref.handle(Press(Button.CANCEL), 1.3)            # CANCEL takes back the army, then the fleets
    ref.handle(Press(Button.CANCEL), 1.4)
    assert (game.armies[tid("alaska")], game.fleets[tid("alaska")], game.pool) == (3, 1, 3)
    assert ref.log[-1] == "undo: place 1 fleet on Alaska"


def test_a_fleet_is_refused_where_there_is_no_sea_link() -> None:
    ref = referee_for(game_with(Phase.REINFORCE, {}, pool=2))
    before = ref.game.snapshot()
    ref.handle(LongPress(tid("ukraine")), 1.0)
    assert ref.message == "Ukraine has no sea link: a fleet needs one"
    assert ref.effects[-1].kind == "illegal" and ref.effects[-1].territory == tid("ukraine")
    assert ref.game.snapshot() == before


def test_without_fleets_a_long_press_places_an_army() -> None:
    game = position("italian", players=3, owners={"alaska": 0}, phase=Phase.REINFORCE, state={"pool": 2})
    ref = referee_for(game)
    assert "long press" not in ref.status().pending
    ref.handle(LongPress(tid("alaska")), 1.0)
    assert game.armies[tid("alaska")] == 2 and game.pool == 1 and not any(game.fleets)
    assert isinstance(game.log[-1], Place) and game.log[-1] == Place(tid("alaska"), 1)
    assert ref.log[-1] == "red places 1 army on Alaska"


def test_fortify_counts_the_units_of_the_links_kind() -> None:
    # Alaska: 5 units, 2 of them fleets. Over land (Alberta) 3 armies may go, all but... one unit stays: 3; over
    # the sea (Kamchatka) both fleets.
    ref = referee_for(game_with(Phase.FORTIFY, {"alaska": 5}, {"alaska": 2}))
    game = ref.game
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("alberta")), 1.1)
    assert ref.count == 3 == game.movable(tid("alaska"), tid("alberta"))
    assert ref.status().pending == "move 3 armies (at most 3) from Alaska to Alberta: ROLL"
    ref.handle(Turn(5), 1.2)
    assert ref.count == 3                             # the encoder stops at what may move
    ref.handle(Press(Button.CANCEL), 1.3)
    ref.handle(Tap(tid("alaska")), 1.4)
    ref.handle(Tap(tid("kamchatka")), 1.5)
    assert ref.count == 2 and ref.status().pending.startswith("move 2 fleets (at most 2) from Alaska to Kamchatka")
    assert seat_view(ref.view(), 0)["move"] == {"count": 2, "max": 2, "units": "fleets"}   # the player's phone too
    ref.handle(Turn(-1), 1.6)
    ref.handle(Press(Button.ROLL), 1.7)
    assert game.log[-1] == Fortify(tid("alaska"), tid("kamchatka"), 1)
    assert (game.armies[tid("kamchatka")], game.fleets[tid("kamchatka")]) == (2, 1)
    assert ref.log[-1] == "1 fleet sails from Alaska to Kamchatka"
    # The fleet that sailed in moves no more this turn, and Kamchatka's own unit stays behind.
    ref.handle(Tap(tid("kamchatka")), 1.8)
    assert ref.source < 0 and ref.effects[-1].kind == "illegal"
    assert ref.message == "no unit may move from Kamchatka to a territory of yours next to it " \
                          "(units that moved in this turn stay)"


def test_a_tap_on_a_neighbour_nothing_may_reach_says_why() -> None:
    # Alaska holds 3 armies and no fleet: nothing sails to Kamchatka.
    ref = referee_for(game_with(Phase.FORTIFY, {"alaska": 3}))
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    assert ref.target < 0 and ref.effects[-1].kind == "illegal"
    assert ref.message.startswith("no fleets may move from Alaska to Kamchatka (fleets cross the sea link")


def test_an_attack_over_the_sea_needs_a_fleet() -> None:
    game = game_with(Phase.ATTACK, {"kamchatka": 4}, owners={"kamchatka": 0})
    ref = referee_for(game)
    ref.handle(Tap(tid("kamchatka")), 1.0)
    ref.handle(Tap(tid("alaska")), 1.1)
    assert ref.target < 0
    assert ref.message == "Kamchatka has no fleet to cross the sea to Alaska: only fleets attack over sea"
    ref.handle(Tap(tid("yakutsk")), 1.2)              # over land its armies attack
    assert ref.target == tid("yakutsk")
    assert ref.status().pending.startswith("Kamchatka → Yakutsk: ROLL rolls 1 die")


def test_a_fleet_battle_in_words_and_a_conquest_by_sea() -> None:
    game = game_with(Phase.ATTACK, {"kamchatka": 4, "alaska": 1}, {"kamchatka": 3},
                     owners={"kamchatka": 0})
    ref = referee_for(game)
    ref.handle(Tap(tid("kamchatka")), 1.0)
    ref.handle(Tap(tid("alaska")), 1.1)
    assert ref.status().pending.startswith("Kamchatka → Alaska by sea, with fleets: ROLL rolls 1 die")
    ref.handle(Press(Button.ROLL), 1.2)
    while game.phase is Phase.ATTACK and game.owner[tid("alaska")] != 0 and game.fleets[tid("kamchatka")]:
        ref.handle(Press(Button.ROLL), 1.3)
    battles = [line for line in ref.log if "attacks" in line]
    assert battles and all(line.startswith("red's fleet in Kamchatka attacks Alaska: ") for line in battles)
    assert all(re.search(r": \d \(−2\) vs \d → ", line) for line in battles)   # the fleet's die counts 2 less
    assert game.phase is Phase.OCCUPY             # these dice take it: one fleet lost, then the army beaten
    assert ref.status().pending == "move 1 fleet into Alaska, from 1 to 2: ROLL confirms"
    ref.handle(Press(Button.ROLL), 1.4)
    assert ref.log[-1] == "1 fleet sails from Kamchatka to Alaska"
    assert (game.armies[tid("alaska")], game.fleets[tid("alaska")]) == (1, 1)


def test_the_log_names_a_defending_fleet() -> None:
    game = game_with(Phase.ATTACK, {})
    event = BattleRolled(tid("yakutsk"), tid("kamchatka"), (6,), (2,), 0, 1, False, True)
    assert describe_event(game, event) == "  Yakutsk attacks the fleet in Kamchatka: 6 vs 2 (−2) → attacker −0, " \
                                          "defender −1"
    both = BattleRolled(tid("alaska"), tid("kamchatka"), (3,), (4,), 1, 0, True, True)
    assert describe_event(game, both) == "  red's fleet in Alaska attacks the fleet in Kamchatka: 3 vs 4 → " \
                                         "attacker −1, defender −0"


@cache
def _win(attack_fleet: bool, defend_fleet: bool) -> float:
    """The attacker's chance to win one roll that is not void, from the engine's own resolver."""
    game = game_with(Phase.ATTACK, {})
    resolve = resolver_for(battle_rule(game.rules, attack_fleet, defend_fleet))
    outcomes = [resolve((a,), (d,)) for a in range(1, 7) for d in range(1, 7)]
    decided = [o for o in outcomes if o != VOID_ROLL]
    return sum(1 for o in decided if o == (0, 1)) / len(decided)


def _chance(sea: bool, attacking: int, armies: int, fleets: int) -> float:
    """Conquest by a chain of rolls: `attacking` units of the link's kind (the one left behind not counted)
    against `armies` then `fleets`."""
    if not armies and not fleets:
        return 1.0
    if not attacking:
        return 0.0
    p = _win(sea, not armies)
    lost = (armies - 1, fleets) if armies else (0, fleets - 1)
    return p * _chance(sea, attacking, *lost) + (1 - p) * _chance(sea, attacking - 1, armies, fleets)


@pytest.mark.parametrize(("source", "target", "units_", "fleets", "defence", "defence_fleets"), [
    ("kamchatka", "alaska", 6, 4, 3, 0),       # fleets against armies: each fleet's die counts 2 less
    ("kamchatka", "alaska", 6, 4, 3, 3),       # fleets against fleets: even
    ("kamchatka", "alaska", 7, 3, 4, 2),       # armies first, then fleets
    ("kamchatka", "mongolia", 7, 3, 4, 2),     # over land: the armies attack, the fleets stay home
])
def test_the_chance_to_conquer_counts_a_fleets_die(source: str, target: str, units_: int, fleets: int,
                                                    defence: int, defence_fleets: int) -> None:
    game = game_with(Phase.ATTACK, {source: units_, target: defence}, {source: fleets, target: defence_fleets},
                     owners={source: 0})
    s, t = tid(source), tid(target)
    sea = game.sails(s, t)
    attacking = min(units_ - 1, fleets if sea else units_ - fleets)
    expected = _chance(sea, attacking, defence - defence_fleets, defence_fleets)
    assert math.isclose(units.conquest_chance(game, s, t), expected, rel_tol=1e-9)
    ref = referee_for(game)
    ref.handle(Tap(s), 1.0)
    ref.handle(Tap(t), 1.1)
    assert ref.conquest_chance() == units.conquest_chance(game, s, t)

