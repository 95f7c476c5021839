"""Dice sources. The engine never rolls: the caller asks a source for the dice of one battle roll."""

from __future__ import annotations

import random
from typing import Protocol


class DiceSource(Protocol):
    """Gives the dice of one battle roll. `name` is recorded with every roll in the game log."""

    name: str

    def roll(self, attack: int, defend: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """`attack` red dice and `defend` blue dice, each 1..6, in the order rolled."""
        ...


class SeededDice:
    """Reproducible dice for simulations and tests: the same seed gives the same rolls."""

    name = "seeded"

    def __init__(self, seed: int | str | None = 0, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)
        self._random = self.rng.random

    def roll(self, attack: int, defend: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        r = self._random
        # int(r() * 6) is uniform over 0..5 for a 53-bit float and several times faster than randint.
        a = tuple([int(r() * 6) + 1 for _ in range(attack)])
        d = tuple([int(r() * 6) + 1 for _ in range(defend)])
        return a, d
