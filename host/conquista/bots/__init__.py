"""Bots that play a seat: `random` and `greedy`. They will also play an absent player's seat at the table."""

from __future__ import annotations

import random

from conquista.bots.base import Bot
from conquista.bots.greedy import GreedyBot
from conquista.bots.random_bot import RandomBot
from conquista.errors import ConquistaError

BOT_NAMES = ("greedy", "random")


def make_bot(name: str, rng: random.Random) -> Bot:
    if name == "greedy":
        return GreedyBot()
    if name == "random":
        return RandomBot(rng)
    raise ConquistaError(f"unknown bot {name!r}; known bots: {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "Bot", "GreedyBot", "RandomBot", "make_bot"]
