"""Bots that play a seat: `planner`, `greedy` and `random`. They will also play an absent player's seat at the table."""

from __future__ import annotations

import random

from conquista.bots.base import Bot
from conquista.bots.greedy import GreedyBot
from conquista.bots.planner import PlannerBot
from conquista.bots.random_bot import RandomBot
from conquista.errors import ConquistaError

BOT_NAMES = ("planner", "greedy", "random")


def make_bot(name: str, rng: random.Random) -> Bot:
    if name == "planner":
        return PlannerBot()
    if name == "greedy":
        return GreedyBot()
    if name == "random":
        return RandomBot(rng)
    raise ConquistaError(f"unknown bot {name!r}; known bots: {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "Bot", "GreedyBot", "PlannerBot", "RandomBot", "make_bot"]
