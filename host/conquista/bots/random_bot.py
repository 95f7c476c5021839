"""Uniform over the legal actions, except that ending a phase gets a fixed chance so turns do end."""

from __future__ import annotations

import random

from conquista.rules.actions import Action, EndPhase
from conquista.rules.engine import Game


class RandomBot:
    def __init__(self, rng: random.Random, end_phase_chance: float = 0.15) -> None:
        self.rng = rng
        self.end_phase_chance = end_phase_chance

    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        others = [a for a in actions if not isinstance(a, EndPhase)]
        if len(others) < len(actions) and (not others or self.rng.random() < self.end_phase_chance):
            return EndPhase()
        return others[int(self.rng.random() * len(others))]
