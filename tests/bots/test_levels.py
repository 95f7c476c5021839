"""The table's levels: easy plays like a beginner (spread, not stacked), and every level is made by its name."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from conquista.bots import BOT_NAMES, LEVELS, make_bot
from conquista.bots.easy import EasyBot
from conquista.bots.planner import PlannerBot
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.rules.events import Phase
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

MAP = load_map(None)
SETUP_RULES = ("italian", "classic", "french-1976", "french-1976-duel")   # lamorisse-1954 deals as it goes


def test_every_level_and_kind_is_made_by_its_name() -> None:
    assert LEVELS == ("easy", "normal", "hard") and set(LEVELS) <= set(BOT_NAMES)
    for name in BOT_NAMES:
        assert hasattr(make_bot(name, random.Random(1)), "choose")
    assert isinstance(make_bot("normal", random.Random(1)), PlannerBot)


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(rules_name=st.sampled_from(SETUP_RULES), players=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_easy_spreads_its_set_up(rules_name: str, players: int, seed: int) -> None:
    rules = load_ruleset(rules_name)
    players = max(rules.players_min, min(rules.players_max, players))
    rng = random.Random(seed)
    game = new_game(rules, MAP, players, rng)
    dice = SeededDice(rng=rng)
    bot = EasyBot()
    dealt = game.armies[:]
    placed = [0] * game.map.size
    totals: dict[int, int] = {}   # by owner (the duel's neutral army is one too)
    while game.phase is Phase.SETUP or not isinstance(game.to_move, int):
        if game.phase is not Phase.SETUP:   # a chance step of the deal (lamorisse-1954's power cards)
            game.apply(chance_action(game, dice))
            continue
        action = bot.choose(game)
        placed[action.territory] += action.count       # type: ignore[attr-defined]
        owner = game.owner[action.territory]           # type: ignore[attr-defined]
        totals[owner] = totals.get(owner, 0) + action.count   # type: ignore[attr-defined]
        game.apply(action)
    assert sum(totals.values()) > 0
    for t, count in enumerate(placed):
        if not count:
            continue
        owner = game.owner[t]
        assert 2 * count <= totals[owner] or count == 1, (game.map.territories[t].id, count, totals[owner])
    assert any(game.armies[t] > dealt[t] for t in range(game.map.size))


def test_easy_reinforces_on_more_than_one_territory() -> None:
    rules = load_ruleset("italian")
    rng = random.Random(3)
    game = new_game(rules, MAP, 4, rng)
    dice = SeededDice(rng=rng)
    bot = EasyBot()
    spread = []
    while game.turn < 20 and not game.over:
        who = game.to_move
        if not isinstance(who, int):
            game.apply(chance_action(game, dice))
            continue
        if game.phase is Phase.REINFORCE and game.pool >= 4 and not game.valid_trades():
            pool = game.pool
            first = bot.choose(game)
            spread.append(first.count < pool)                 # type: ignore[attr-defined]
        game.apply(bot.choose(game))
    assert spread and all(spread)
