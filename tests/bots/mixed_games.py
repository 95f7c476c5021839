"""A seeded game of any shipped ruleset with greedy and random seats taking turns: positions in which stacks, fronts,
hands and last territories vary, for the tests that hold greedy's shortcuts to the engine's answers."""

from __future__ import annotations

import random

from conquista.bots import make_bot
from conquista.bots.base import Bot
from conquista.dice.chance import new_game
from conquista.dice.sources import SeededDice
from conquista.rules.engine import Game
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

MAP = load_map()


def mixed_game(rules: str, players: int, seed: int) -> tuple[Game, SeededDice, list[Bot]]:
    """The game (its player count brought within the ruleset's: two with a neutral army), its dice and its seats."""
    ruleset = load_ruleset(rules)
    if ruleset.neutral_army:
        players = 2
    players = max(ruleset.players_min, min(players, ruleset.players_max))
    rng = random.Random(seed)
    game = new_game(ruleset, MAP, players, rng)
    dice = SeededDice(rng=rng)
    seats = [make_bot("greedy" if i % 2 else "random", rng) for i in range(players)]
    return game, dice, seats
