"""Bots that play a seat: `planner`, `greedy` and `random`. They will also play an absent player's seat at the table.

The bots themselves are imported when first made or named: a menu that only lists `BOT_NAMES` does not load the
engine and the planner's odds (start-up, issue 22).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from conquista.errors import ConquistaError

if TYPE_CHECKING:
    from conquista.bots.base import Bot
    from conquista.bots.greedy import GreedyBot
    from conquista.bots.planner import PlannerBot
    from conquista.bots.random_bot import RandomBot

BOT_NAMES = ("planner", "greedy", "random")


def make_bot(name: str, rng: random.Random) -> Bot:
    if name == "planner":
        from conquista.bots.planner import PlannerBot

        return PlannerBot()
    if name == "greedy":
        from conquista.bots.greedy import GreedyBot

        return GreedyBot()
    if name == "random":
        from conquista.bots.random_bot import RandomBot

        return RandomBot(rng)
    raise ConquistaError(f"unknown bot {name!r}; known bots: {', '.join(BOT_NAMES)}")


_LAZY = {"Bot": "base", "GreedyBot": "greedy", "PlannerBot": "planner", "RandomBot": "random_bot"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"conquista.bots.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BOT_NAMES", "Bot", "GreedyBot", "PlannerBot", "RandomBot", "make_bot"]
