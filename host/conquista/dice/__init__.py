"""Dice sources: where the rolls the engine consumes come from (live crypto, seeded, committed)."""

from conquista.dice.sources import DiceSource, SeededDice

__all__ = ["DiceSource", "SeededDice"]
