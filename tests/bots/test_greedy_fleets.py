"""The greedy bot with fleets (lamorisse-1954): a landing across the sea is made only with the fleets to hold the
coast against the enemy stacks next to it, every fleet goes ashore, and reinforcements build up for such a
landing. Before, a landing of a few fleets was taken back at once by the armies next door, and two players on
either side of a sea traded the same coasts for hundreds of turns (issue 22's whole-game target)."""

from __future__ import annotations

from conquista.bots import GreedyBot
from conquista.dice.chance import chance_action
from conquista.dice.sources import SeededDice
from conquista.rules.actions import Blitz, EndPhase, Occupy, Place
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from tests.rules.helpers import position, tid

RULES = "lamorisse-1954"


def _coast(northwest_armies: int, alaska_fleets: int = 0, phase: Phase = Phase.ATTACK, pool: int = 0) -> Game:
    """Seat 0 holds Kamchatka with 12 fleets (and Japan, so that Alaska is the only crossing); seat 1 holds the rest
    with 1 army each, Alaska's one unit a fleet or an army, and `northwest_armies` next to Alaska over land."""
    return position(RULES, 2, owners={"kamchatka": 0, "japan": 0},
                    armies={"kamchatka": 12, "northwest_territory": northwest_armies}, phase=phase,
                    state={"fleets": [12 if t == tid("kamchatka") else 1 if t == tid("alaska") and alaska_fleets
                                      else 0 for t in range(42)], "pool": pool})


def test_no_landing_that_the_armies_next_door_would_take_back() -> None:
    # 11 fleets against Alaska's one army would win it (about 4.3 fleets lost per army), but the 9 armies that may
    # attack from the Northwest Territory cost the landed fleets about 5 each: Alaska would fall back at once.
    assert isinstance(GreedyBot().choose(_coast(northwest_armies=10)), EndPhase)


def test_a_landing_that_holds_is_made() -> None:
    action = GreedyBot().choose(_coast(northwest_armies=1))
    assert action == Blitz(tid("kamchatka"), tid("alaska"), 1)


def test_every_fleet_goes_ashore() -> None:
    # Kamchatka still faces seat 1's armies over land, so before a landing moved half its fleets across; now all.
    game = _coast(northwest_armies=1, alaska_fleets=1)
    bot, dice = GreedyBot(), SeededDice(3)
    game.apply(bot.choose(game))
    while game.phase is Phase.ROLL:
        game.apply(chance_action(game, dice))
    assert game.phase is Phase.OCCUPY and game.owner[tid("alaska")] == 0
    low, high = game.occupy_range()
    assert low < high and bot.choose(game) == Occupy(high)


def test_reinforcements_build_up_for_a_landing_that_holds() -> None:
    # Seat 0 holds Kamchatka (7 fleets) facing Alaska, and Greenland (9 fleets) facing only Iceland, one army each.
    # Iceland is the cheaper crossing for the fleets there, but Great Britain's 9 fleets next to it would sink the
    # landing; Alaska's land neighbours are seat 0's or weak: the reinforcements go to Kamchatka, as fleets.
    owners = {name: 0 for name in ("kamchatka", "japan", "greenland", "northwest_territory", "ontario", "quebec")}
    fleets = {tid("kamchatka"): 7, tid("greenland"): 9, tid("great_britain"): 9}
    game = position(RULES, 2, owners=owners, armies={"kamchatka": 7, "greenland": 9, "great_britain": 9},
                    phase=Phase.REINFORCE, state={"pool": 5, "fleets": [fleets.get(t, 0) for t in range(42)]})
    assert GreedyBot().choose(game) == Place(tid("kamchatka"), 5, True)
