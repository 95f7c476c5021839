"""The planner bot: legal in every ruleset and player count, deterministic, playing its own mission, blind to what
it must not see (other seats' missions and cards), choosing defence dice by the chance to hold."""

from __future__ import annotations

import random

import pytest

from conquista.bots import PlannerBot, make_bot
from conquista.bots.base import Bot
from conquista.bots.planner_odds import odds_for
from conquista.bots.simulate import game_seed, play_game
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.rules.actions import Blitz, Defend
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.rulesets import builtin_rulesets, load_ruleset
from tests.rules.helpers import MAP, position, tid

CASES = [(name, n) for name in builtin_rulesets() for n in range(2, 7)
         if load_ruleset(name).players_min <= n <= load_ruleset(name).players_max]
TURN_CAP = 1000


def play_checked(rules_name: str, kinds: list[str], seed: str, **overrides: object) -> Game:
    """A whole game in which every bot action is checked legal before it is applied."""
    rules = load_ruleset(rules_name, dict(overrides) or None)
    rng = random.Random(seed)
    game = new_game(rules, MAP, len(kinds), rng)
    dice = SeededDice(rng=rng)
    seats: list[Bot] = [make_bot(kind, rng) for kind in kinds]
    while not game.over:
        assert game.turn <= TURN_CAP, f"{rules_name} {kinds} seed {seed}: cut at turn {TURN_CAP}"
        who = game.to_move
        if isinstance(who, int):
            action = seats[who].choose(game)
            assert game.is_legal(action), f"illegal {game.describe(action)} in {game.phase.value}"
            game.apply(action)
        else:
            game.apply(chance_action(game, dice))
    return game


@pytest.mark.parametrize(("rules_name", "players"), CASES)
def test_planner_plays_legal_whole_games(rules_name: str, players: int) -> None:
    for i in range(3):
        play_checked(rules_name, ["planner"] * players, game_seed(7, i))
        mixed = [("planner", "greedy", "random")[(seat + i) % 3] for seat in range(players)]
        play_checked(rules_name, mixed, game_seed(8, i))


@pytest.mark.parametrize("rules_name", ["classic", "french-1976"])
def test_planner_chooses_defence_dice_when_the_defender_may(rules_name: str) -> None:
    game = play_checked(rules_name, ["planner"] * 3, "defend", automatic_defence=False)
    assert any(isinstance(action, Defend) for action in game.log)


def test_same_seed_same_game() -> None:
    rules = load_ruleset("italian")
    first = play_game(rules, MAP, 4, ["planner", "greedy"], "same")
    again = play_game(rules, MAP, 4, ["planner", "greedy"], "same")
    assert first.game is not None and again.game is not None
    assert first.game.log == again.game.log


def mission_position(mission: int) -> Game:
    """Seat 0 on Siam (8 armies) next to Indonesia (3 armies, Oceania) and China and India (1 army each)."""
    return position("italian", 3, owners={"siam": 0, "alaska": 0, "argentina": 2}, armies={"siam": 8, "indonesia": 3},
                    state={"missions": [mission, 9, 10]})


def test_planner_attacks_toward_its_mission_continent() -> None:
    # Mission 2 (North America and Oceania): the stronger Indonesia rather than a weaker Asian neighbour.
    action = PlannerBot().choose(mission_position(2))
    assert isinstance(action, Blitz) and (action.source, action.target) == (tid("siam"), tid("indonesia"))


def test_the_same_position_with_an_asian_mission_attacks_into_asia() -> None:
    action = PlannerBot().choose(mission_position(3))  # Asia and South America
    assert isinstance(action, Blitz) and action.target in (tid("china"), tid("india"))


def test_destroy_mission_goes_for_the_colour() -> None:
    # Mission 11 destroys colour 3 (yellow, seat 2): its Argentina next to our Brazil, not the weaker Venezuela.
    game = position("italian", 3, owners={"brazil": 0, "argentina": 2, "iceland": 2, "alaska": 0},
                    armies={"brazil": 9, "argentina": 3}, state={"missions": [11, 1, 2]})
    action = PlannerBot().choose(game)
    assert isinstance(action, Blitz) and action.target == tid("argentina")


def disguised(game: Game, me: int, rng: random.Random) -> Game:
    """The same position with every other seat's mission changed and their cards swapped with the deck's."""
    snap = game.snapshot()
    if snap["missions"]:
        unused = [m for m in game.rules.missions if m not in snap["missions"]]
        rng.shuffle(unused)
        snap["missions"] = [m if seat == me else unused.pop() for seat, m in enumerate(snap["missions"])]
    pool = list(snap["deck"]) + [c for seat, hand in enumerate(snap["hands"]) if seat != me for c in hand]
    rng.shuffle(pool)
    for seat, hand in enumerate(snap["hands"]):
        if seat != me:
            snap["hands"][seat] = [pool.pop() for _ in hand]
    snap["deck"] = pool
    return Game.from_snapshot(snap, game.rules, game.map)


@pytest.mark.parametrize("rules_name", ["italian", "classic"])
def test_choices_do_not_depend_on_hidden_information(rules_name: str) -> None:
    rules = load_ruleset(rules_name)
    rng, probe = random.Random(5), random.Random(6)
    game = new_game(rules, MAP, 4, rng)
    dice = SeededDice(rng=rng)
    bot = PlannerBot()
    compared = 0
    while not game.over and game.turn < 400:
        who = game.to_move
        if not isinstance(who, int):
            game.apply(chance_action(game, dice))
            continue
        action = bot.choose(game)
        if game.phase is not Phase.SETUP and len(game.log) % 2 == 0:
            assert bot.choose(disguised(game, who, probe)) == action, game.describe(action)
            compared += 1
        game.apply(action)
    assert compared > 50


def test_defence_dice_keep_the_territory_most_often() -> None:
    odds = odds_for(load_ruleset("classic"))
    for attacking, defending in ((4, 2), (3, 2), (10, 5), (2, 2)):
        best = odds.best_defence(attacking, defending, 1, 2)
        holds = {d: odds.hold_chance(attacking, defending, 1, d) for d in (1, 2)}
        assert holds[best] == max(holds.values())


@pytest.mark.parametrize("defence", [True, False])
def test_planner_plays_the_duel_against_the_neutral_army(defence: bool) -> None:
    # The neutral army is an owner past the seats: no hand, no mission, never a turn of its own (a planner once
    # read its hand when it held a single territory).
    for i in range(8):
        game = play_checked("french-1976-duel", ["planner", "greedy"], game_seed(11, i), automatic_defence=defence)
        assert game.winner in (0, 1)
