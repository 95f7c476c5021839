"""Bots that play a seat, chosen by strength: `easy`, `normal` and `hard` (the levels a table chooses from), or by the
engineers' names of the kinds behind them, `planner` (= normal), `greedy` and `random`. They also play an absent
player's seat at the table.

The bots themselves are imported when first made or named: a menu that only lists `BOT_NAMES` does not load the
engine and the planner's odds (start-up, issue 22).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from conquista.errors import ConquistaError

if TYPE_CHECKING:
    from conquista.bots.base import Bot
    from conquista.bots.easy import EasyBot
    from conquista.bots.greedy import GreedyBot
    from conquista.bots.hard import HardBot
    from conquista.bots.planner import PlannerBot
    from conquista.bots.random_bot import RandomBot

LEVELS = ("easy", "normal", "hard")          # what a table chooses from, weakest first
KINDS = ("planner", "greedy", "random")      # the engineers' names, still accepted
BOT_NAMES = (*LEVELS, *KINDS)

# One line per name, for every `--help` and menu that offers a bot.
BOT_WORDS = {
    "easy": "a beginner: spreads its armies, attacks when clearly stronger, ignores its mission",
    "normal": "plays its mission and weighs every attack with the exact odds (the planner)",
    "hard": "the planner's moves tried out a turn ahead on its own copy of the game, the best kept",
    "planner": "the same as normal",
    "greedy": "masses on one front, attacks the weakest neighbour it outnumbers",
    "random": "any legal move (for testing)",
}

LEVELS_HELP = ("bots by strength: easy (a beginner), normal (plays its mission with the exact odds), hard (looks "
               "a turn ahead); the engineers' kinds planner (= normal), greedy and random are also accepted")


def make_bot(name: str, rng: random.Random) -> Bot:
    if name in ("planner", "normal"):
        from conquista.bots.planner import PlannerBot

        return PlannerBot()
    if name == "easy":
        from conquista.bots.easy import EasyBot

        return EasyBot()
    if name == "hard":
        from conquista.bots.hard import HardBot

        return HardBot()
    if name == "greedy":
        from conquista.bots.greedy import GreedyBot

        return GreedyBot()
    if name == "random":
        from conquista.bots.random_bot import RandomBot

        return RandomBot(rng)
    raise ConquistaError(f"unknown bot {name!r}; known bots: {', '.join(BOT_NAMES)}")


_LAZY = {"Bot": "base", "EasyBot": "easy", "GreedyBot": "greedy", "HardBot": "hard", "PlannerBot": "planner",
         "RandomBot": "random_bot"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"conquista.bots.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BOT_NAMES", "BOT_WORDS", "KINDS", "LEVELS", "LEVELS_HELP", "Bot", "EasyBot", "GreedyBot", "HardBot",
           "PlannerBot", "RandomBot", "make_bot"]
