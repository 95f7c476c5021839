"""Dice for tests and scripted scenes: every roll shows the same faces, so a battle's outcome is known in advance."""

from __future__ import annotations


class FixedDice:
    """A `DiceSource` whose attacker always shows `attack` on every die and the defender `defend`."""

    name = "fixed"

    def __init__(self, attack: int, defend: int) -> None:
        if not (1 <= attack <= 6 and 1 <= defend <= 6):
            raise ValueError(f"a die shows 1..6, not {attack} and {defend}")
        self.faces = (attack, defend)

    def roll(self, attack: int, defend: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (self.faces[0],) * attack, (self.faces[1],) * defend
