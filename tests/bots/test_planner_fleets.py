"""The planner with fleets (lamorisse-1954): it places fleets where its attack crosses the sea (an island's only
way out), attacks across the sea with them, weighs each battle with its real dice rule, and plays whole games."""

from __future__ import annotations

from fractions import Fraction

from conquista.bots import PlannerBot
from conquista.bots.planner_odds import fleet_odds_for
from conquista.bots.simulate import game_seed
from conquista.rules.actions import Blitz, EndPhase, Place
from conquista.rules.events import Phase
from conquista.rules.rulesets import load_ruleset
from tests.bots.test_planner import play_checked
from tests.rules.helpers import MAP, position, tid

RULES = "lamorisse-1954"


def test_planner_places_fleets_and_attacks_across_the_sea_in_whole_games() -> None:
    fleets_placed = sea_blitzes = 0
    for players, i in ((2, 0), (3, 1), (4, 2)):
        game = play_checked(RULES, ["planner"] * players, game_seed(21, i))
        assert game.winner is not None
        fleets_placed += sum(a.count for a in game.log if isinstance(a, Place) and a.fleet)
        sea_blitzes += sum(1 for a in game.log if isinstance(a, Blitz) and MAP.is_sea_link(a.source, a.target))
    assert fleets_placed > 50 and sea_blitzes > 20


def test_an_island_takes_fleets_and_sails_out() -> None:
    # Seat 0 holds Great Britain alone, with armies only: every link of an island crosses the sea, so its armies can
    # never attack; the planner takes its reinforcements as fleets and attacks with them.
    game = position(RULES, 2, owners={"great_britain": 0}, armies={"great_britain": 2}, phase=Phase.REINFORCE,
                    state={"pool": 8})
    bot = PlannerBot()
    placed = bot.choose(game)
    assert isinstance(placed, Place) and placed.fleet and placed.territory == tid("great_britain")
    while not isinstance(action := bot.choose(game), Blitz):
        assert game.is_legal(action)
        game.apply(action)
    assert game.fleets[tid("great_britain")] == 8
    assert action.source == tid("great_britain") and MAP.is_sea_link(action.source, action.target)
    assert game.is_legal(action)


def test_armies_do_not_attack_across_the_sea() -> None:
    # Iceland (3 armies, no fleet) faces only sea links: nothing to attack with; the planner ends the phase.
    game = position(RULES, 2, owners={"iceland": 0, "alaska": 0}, armies={"iceland": 3})
    assert isinstance(PlannerBot().choose(game), EndPhase)


def test_the_planner_odds_are_each_battles_own() -> None:
    odds = fleet_odds_for(load_ruleset(RULES))
    # One die each, ties re-rolled; a fleet's die counts 2 less against an army: it wins 6 of the 32 rolls that
    # decide, 3/16; an army against a fleet wins 26 of 32, 13/16; a fleet against a fleet 1/2.
    assert odds.blitz(2, 2, 1, 0, True)[0] == float(Fraction(3, 16))
    assert odds.blitz(2, 2, 1, 1, False)[0] == float(Fraction(13, 16))
    assert odds.blitz(2, 2, 1, 1, True)[0] == 0.5
    # Only the units of the link's kind fight: 5 units of which 2 fleets take an army across the sea if a fleet wins
    # before both fleets are lost: 3/16 + 13/16 * 3/16 = 87/256, as with 3 units of which all could fight.
    assert abs(odds.blitz(5, 2, 1, 0, True)[0] - 87 / 256) < 1e-12
    assert odds.rate[True, False] == 6 / 26 and odds.rate[False, False] == 1.0
