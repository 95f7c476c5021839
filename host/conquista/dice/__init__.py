"""Dice sources: where the rolls the engine consumes come from (live crypto, seeded, committed)."""

from conquista.dice.sources import (
    SOURCE_NAMES,
    CommittedDice,
    DiceKind,
    DiceSource,
    OsDice,
    SeededDice,
    SeedError,
    commitment_for,
    committed_dice,
    make_source,
    parse_seed,
)

__all__ = [
    "SOURCE_NAMES",
    "CommittedDice",
    "DiceKind",
    "DiceSource",
    "OsDice",
    "SeedError",
    "SeededDice",
    "commitment_for",
    "committed_dice",
    "make_source",
    "parse_seed",
]
