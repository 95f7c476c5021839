"""lamorisse-1954's fleets and its one move per unit (RULES.md §4, docs/rules.md "lamorisse-1954"): worked
scenarios for placing a fleet, the sea link a fleet crosses and the land link an army crosses, the fleet's handicap
both ways of its [interpretation] parameter, the armies that defend first, the move-in and the moves of a turn."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conquista.bots.greedy import GreedyBot
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.errors import IllegalActionError
from conquista.rules.actions import Attack, Blitz, EndPhase, Fortify, Occupy, Place, Roll
from conquista.rules.engine import CHANCE, Game
from conquista.rules.events import ArmiesPlaced, BattleRolled, Phase
from conquista.rules.gamelog import dump_lines, parse_log_lines
from conquista.rules.rulesets import load_ruleset
from conquista.rules.serialize import DecodeError, decode_action, encode_action
from tests.rules.helpers import MAP, position, tid

RULES = "lamorisse-1954"
ALASKA, KAMCHATKA, ALBERTA, NW = tid("alaska"), tid("kamchatka"), tid("alberta"), tid("northwest_territory")
ONTARIO, GREENLAND, QUEBEC = tid("ontario"), tid("greenland"), tid("quebec")


def units(armies: dict[str, int], fleets: dict[str, int], phase: Phase = Phase.ATTACK,
          owners: dict[str, int] | None = None, **overrides: Any) -> Game:
    """Red (seat 0) holds the territories of `armies` (units in all) and `owners`; `fleets` says how many of those
    units are fleets. Blue holds the rest with 1 army each."""
    fleet_list = [0] * MAP.size
    for name, count in fleets.items():
        fleet_list[tid(name)] = count
    held = {name: 0 for name in armies} | (owners or {})
    return position(RULES, 2, owners=held, armies=armies, phase=phase,
                    state={"undealt": [], "draws_due": 0, "fleets": fleet_list, **overrides.pop("state", {})},
                    **overrides)


def test_a_fleet_is_placed_instead_of_an_army_where_a_sea_link_is() -> None:
    game = units({"alaska": 1, "alberta": 1}, {}, phase=Phase.REINFORCE, state={"pool": 3})
    events = game.apply(Place(ALASKA, 2, True))
    assert events == [ArmiesPlaced(0, ALASKA, 2, True)]
    assert (game.armies[ALASKA], game.fleets[ALASKA], game.pool) == (3, 2, 1)
    with pytest.raises(IllegalActionError, match="alberta has no sea link: a fleet lies only where it can sail"):
        game.apply(Place(ALBERTA, 1, True))
    game.apply(Place(ALBERTA, 1))
    assert (game.armies[ALBERTA], game.fleets[ALBERTA]) == (2, 0)


def test_a_ruleset_without_fleets_refuses_one() -> None:
    game = position("classic", 2, owners={"alaska": 0}, phase=Phase.REINFORCE, state={"pool": 3})
    with pytest.raises(IllegalActionError, match="classic has no fleets"):
        game.apply(Place(ALASKA, 1, True))
    assert not any(isinstance(a, Place) and a.fleet for a in game.legal_actions())


def test_fleet_placements_are_listed_only_where_a_sea_link_is() -> None:
    game = units({"alaska": 1, "alberta": 1}, {}, phase=Phase.REINFORCE, state={"pool": 2})
    fleets = {(a.territory, a.count) for a in game.legal_actions() if isinstance(a, Place) and a.fleet}
    assert fleets == {(ALASKA, 1), (ALASKA, 2)}


def test_an_attack_across_the_sea_needs_a_fleet_and_over_land_an_army() -> None:
    game = units({"alaska": 3}, {})
    with pytest.raises(IllegalActionError, match="alaska has no fleet to cross the sea to kamchatka"):
        game.apply(Attack(ALASKA, KAMCHATKA, 1))
    assert not game.attack_allowed(ALASKA, KAMCHATKA) and game.attack_allowed(ALASKA, ALBERTA)
    game = units({"alaska": 3}, {"alaska": 3})
    with pytest.raises(IllegalActionError, match="alaska has no army to attack alberta over land"):
        game.apply(Attack(ALASKA, ALBERTA, 1))
    game.apply(Attack(ALASKA, KAMCHATKA, 1))
    assert game.phase is Phase.ROLL


@pytest.mark.parametrize(("fleet_die", "army_die", "fleet_loses", "army_loses"), [
    (6, 5, 1, 0),   # the patent's example: a fleet's 6 is beaten by an army's 5
    (6, 4, 0, 0),   # 6 - 2 = 4: a tie, rolled again
    (6, 3, 0, 1),
    (3, 1, 0, 0),
])
def test_a_fleet_attacking_an_army_counts_two_less(fleet_die: int, army_die: int, fleet_loses: int,
                                                   army_loses: int) -> None:
    game = units({"alaska": 3, "kamchatka": 2}, {"alaska": 2}, owners={"kamchatka": 1})
    game.apply(Attack(ALASKA, KAMCHATKA, 1))
    events = game.apply(Roll((fleet_die,), (army_die,)))
    assert events[0] == BattleRolled(ALASKA, KAMCHATKA, (fleet_die,), (army_die,), fleet_loses, army_loses,
                                     True, False)
    assert game.fleets[ALASKA] == 2 - fleet_loses and game.armies[ALASKA] == 3 - fleet_loses


def test_fleet_against_fleet_has_no_handicap() -> None:
    game = units({"alaska": 3}, {"alaska": 2, "kamchatka": 1})
    game.apply(Attack(ALASKA, KAMCHATKA, 1))
    game.apply(Roll((3,), (2,)))
    assert game.owner[KAMCHATKA] == 0 and game.fleets[KAMCHATKA] == 1  # the fleet that won moved in


@pytest.mark.parametrize(("handicap", "result"), [("every_battle", "void"), ("attacking_fleet", "fleet wins")])
def test_a_defending_fleet_counts_two_less_unless_only_attacking_fleets_do(handicap: str, result: str) -> None:
    # Alberta (land) attacks Alaska, held by blue with one fleet and nothing else: the fleet defends.
    game = units({"alberta": 3}, {"alaska": 1}, owners={"alaska": 1}, fleet_handicap=handicap)
    game.apply(Attack(ALBERTA, ALASKA, 1))
    events = game.apply(Roll((4,), (6,)))
    rolled = events[0]
    assert isinstance(rolled, BattleRolled) and (rolled.attack_fleet, rolled.defend_fleet) == (False, True)
    losses = (rolled.attacker_losses, rolled.defender_losses)
    assert losses == ((0, 0) if result == "void" else (1, 0))


def test_a_territory_defends_with_its_armies_before_its_fleets() -> None:
    # Blue's Kamchatka: 1 army and 1 fleet. Red's fleet attacks: the army defends first (the fleet's die counts
    # less), then the fleet (no handicap between two fleets).
    game = units({"alaska": 4, "kamchatka": 2}, {"alaska": 3, "kamchatka": 1}, owners={"kamchatka": 1})
    game.apply(Blitz(ALASKA, KAMCHATKA, 1))
    first = game.apply(Roll((6,), (3,)))[0]
    assert isinstance(first, BattleRolled) and not first.defend_fleet and first.defender_losses == 1
    assert (game.armies[KAMCHATKA], game.fleets[KAMCHATKA]) == (1, 1)
    second = game.apply(Roll((3,), (2,)))[0]
    assert isinstance(second, BattleRolled) and second.defend_fleet and second.defender_losses == 1
    assert game.phase is Phase.OCCUPY and game.owner[KAMCHATKA] == 0


def test_a_blitz_across_the_sea_stops_when_the_fleets_are_gone() -> None:
    game = units({"alaska": 4}, {"alaska": 1})  # one fleet and three armies
    game.apply(Blitz(ALASKA, KAMCHATKA, 1))
    game.apply(Roll((1,), (6,)))
    assert game.phase is Phase.ATTACK and game.battle is None and game.armies[ALASKA] == 3


def test_the_move_in_across_the_sea_takes_only_fleets() -> None:
    game = units({"alaska": 5}, {"alaska": 3})
    game.apply(Attack(ALASKA, KAMCHATKA, 1))
    game.apply(Roll((6,), (1,)))
    assert game.fleets[KAMCHATKA] == 1 and game.occupy_range() == (1, 3)  # two more fleets may follow
    with pytest.raises(IllegalActionError, match="move 1 to 3 armies into kamchatka"):
        game.apply(Occupy(4))
    game.apply(Occupy(3))
    assert (game.armies[ALASKA], game.fleets[ALASKA], game.armies[KAMCHATKA], game.fleets[KAMCHATKA]) == (2, 0, 3, 3)


def test_units_that_moved_in_attack_onward_but_do_not_move_again() -> None:
    # Red's Alaska (4 armies) takes Alberta over land; the armies that moved in attack Ontario onward, and in the
    # fortify phase they stay where they are.
    game = units({"alaska": 4}, {})
    game.apply(Attack(ALASKA, ALBERTA, 1))
    game.apply(Roll((6,), (1,)))
    game.apply(Occupy(3))
    assert list(game.turn_state.arrived) == [(ALBERTA, 3, 0)]
    game.apply(Attack(ALBERTA, ONTARIO, 1))  # onward, with the units that just moved in
    game.apply(Roll((6,), (1,)))
    game.apply(Occupy(1))
    assert list(game.turn_state.arrived) == [(ALBERTA, 2, 0), (ONTARIO, 1, 0)]
    game.apply(EndPhase())
    assert game.phase is Phase.FORTIFY
    assert game.movable(ALBERTA, ALASKA) == 0 and not game.fortify_allowed(ALBERTA, ALASKA)
    with pytest.raises(IllegalActionError, match=r"no armies may move from alberta to alaska \("
                       r"armies cross the land link, units that moved in this turn stay"):
        game.apply(Fortify(ALBERTA, ALASKA, 1))


def test_moves_of_the_fortify_phase_are_one_territory_each_and_many() -> None:
    game = units({"alaska": 4, "alberta": 1, "northwest_territory": 3}, {"alaska": 1}, phase=Phase.FORTIFY)
    assert game.movable(ALASKA, ALBERTA) == 3  # the three armies; the fleet cannot march
    game.apply(Fortify(ALASKA, ALBERTA, 2))
    assert game.phase is Phase.FORTIFY  # any number of moves
    assert game.movable(ALBERTA, NW) == 1  # the army that was there, not the two that arrived
    with pytest.raises(IllegalActionError, match=r"move 1 to 1 armies from alberta to northwest_territory \("
                       r"armies cross the land link, units that moved in this turn stay, one unit stays behind"):
        game.apply(Fortify(ALBERTA, NW, 2))
    game.apply(Fortify(ALBERTA, NW, 1))
    assert game.movable(NW, ALASKA) == 3  # NW's own three armies: the one that arrived stays behind
    game.apply(Fortify(NW, ALASKA, 3))
    assert (game.armies[ALASKA], game.fleets[ALASKA], game.armies[NW]) == (5, 1, 1)


def test_units_that_arrived_by_a_move_stay_however_the_moves_are_split() -> None:
    # Three armies march Alberta → Ontario; Ontario's own two armies may go on, one move at a time or at once (one
    # that arrived stays behind), never the three that arrived.
    game = units({"alberta": 4, "ontario": 2, "quebec": 1}, {}, phase=Phase.FORTIFY)
    game.apply(Fortify(ALBERTA, ONTARIO, 3))
    assert game.movable(ONTARIO, QUEBEC) == 2
    game.apply(Fortify(ONTARIO, QUEBEC, 1))
    game.apply(Fortify(ONTARIO, QUEBEC, 1))
    assert game.movable(ONTARIO, QUEBEC) == 0 and list(game.turn_state.arrived) == [(ONTARIO, 3, 0), (QUEBEC, 2, 0)]
    with pytest.raises(IllegalActionError, match="no armies may move from ontario to quebec"):
        game.apply(Fortify(ONTARIO, QUEBEC, 1))


def test_fleets_move_over_sea_links_only() -> None:
    game = units({"northwest_territory": 3, "greenland": 1, "alaska": 1}, {"northwest_territory": 1},
                 phase=Phase.FORTIFY)
    assert game.movable(NW, GREENLAND) == 1 and game.movable(NW, ALASKA) == 2  # the fleet by sea, armies by land
    game.apply(Fortify(NW, GREENLAND, 1))
    assert (game.fleets[NW], game.fleets[GREENLAND], game.armies[GREENLAND]) == (0, 1, 2)


def test_without_the_one_move_rule_units_that_moved_in_may_move_again() -> None:
    game = units({"alaska": 4}, {}, one_move_per_unit=False)
    game.apply(Attack(ALASKA, ALBERTA, 1))
    game.apply(Roll((6,), (1,)))
    game.apply(Occupy(3))
    game.apply(EndPhase())
    assert game.turn_state.arrived == () and game.movable(ALBERTA, ALASKA) == 2


def test_fleets_survive_undo_the_log_and_a_snapshot() -> None:
    game = units({"alaska": 3}, {"alaska": 2})
    before = (game.digest(), game.snapshot())
    game.apply(Attack(ALASKA, KAMCHATKA, 1))
    game.apply(Roll((6,), (1,)))
    game.apply(Occupy(2))
    moved = game.snapshot()
    assert moved["fleets"][KAMCHATKA] == 2 and moved["turn_state"]["arrived"] == ((KAMCHATKA, 0, 2),)
    for _ in range(3):
        game.undo()
    assert (game.digest(), game.snapshot()) == before
    older = {k: v for k, v in moved.items() if k != "fleets"}  # a snapshot made before fleets: none
    assert Game.from_snapshot(older, game.rules, MAP).fleets == [0] * MAP.size


def test_a_fleet_placement_reads_back_from_its_log_line() -> None:
    line = encode_action(Place(ALASKA, 2, True), MAP)
    assert line == {"type": "place", "territory": "alaska", "count": 2, "fleet": True}
    assert decode_action(line, MAP) == Place(ALASKA, 2, True)
    assert encode_action(Place(ALASKA, 2), MAP) == {"type": "place", "territory": "alaska", "count": 2}
    with pytest.raises(DecodeError, match="'fleet' must be true or false, got 'yes'"):
        decode_action({**line, "fleet": "yes"}, MAP)


def test_a_game_with_fleets_replays_from_its_json_log() -> None:
    rng = random.Random(3)
    game = new_game(load_ruleset(RULES), MAP, 3, rng)
    dice, bot = SeededDice(rng=rng), GreedyBot()
    while not any(isinstance(a, Place) and a.fleet for a in game.log) or game.turn < 10:
        game.apply(chance_action(game, dice) if game.to_move is CHANCE else bot.choose(game))
    _, replayed = parse_log_lines(dump_lines(game), "<memory>")
    assert replayed.digest() == game.digest() and replayed.fleets == game.fleets
