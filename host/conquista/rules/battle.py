"""The one battle rule: how the dice of a roll become losses. The engine and the odds both call `resolve_roll`.

A ruleset's dice rule is a `DiceRule` (dice maxima and the tie rule). Everything that decides who wins a pair of dice
lives in `_pair_loser` and `resolve_roll`, so a future rule (ties re-rolled, a per-die handicap for fleets) changes
these two functions and `DiceRule`, and both the engine and `rules/odds.py` follow.
Pure: no I/O, no random, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from conquista.errors import OddsError

TIES_TO_DEFENDER = "defender"
SUPPORTED_TIES = (TIES_TO_DEFENDER,)


class HasDiceRule(Protocol):
    """Anything with the three dice parameters: a Ruleset, a DiceRule."""

    @property
    def attacker_dice_max(self) -> int: ...
    @property
    def defender_dice_max(self) -> int: ...
    @property
    def ties(self) -> str: ...


@dataclass(frozen=True)
class DiceRule:
    """The part of a ruleset a battle depends on. Rulesets with the same dice rule share every cached result."""

    attacker_dice_max: int = 3
    defender_dice_max: int = 3
    ties: str = TIES_TO_DEFENDER

    def __post_init__(self) -> None:
        if self.attacker_dice_max < 1 or self.defender_dice_max < 1:
            raise OddsError(f"dice maxima must be at least 1, got attacker {self.attacker_dice_max} "
                            f"and defender {self.defender_dice_max}")
        if self.ties not in SUPPORTED_TIES:
            raise OddsError(f"ties rule {self.ties!r} is not supported (only {', '.join(SUPPORTED_TIES)!s})")

    @classmethod
    def of(cls, rules: HasDiceRule) -> DiceRule:
        """The dice rule of a Ruleset (or of anything with the three fields, a DiceRule included)."""
        if isinstance(rules, DiceRule):
            return rules
        return cls(rules.attacker_dice_max, rules.defender_dice_max, str(rules.ties))

    def attack_dice(self, attacking: int) -> int:
        """Dice the attacker rolls with `attacking` armies on the territory (one must stay behind)."""
        return min(self.attacker_dice_max, attacking - 1)

    def defend_dice(self, defending: int) -> int:
        """Dice the defender rolls under automatic defence."""
        return min(self.defender_dice_max, defending)


CLASSIC_DICE = DiceRule()


def _attacker_loses_pair(attack_die: int, defend_die: int, rule: DiceRule) -> bool:
    # The tie rule is applied here and only here; every supported rule today gives ties to the defender.
    return attack_die <= defend_die


def resolve_roll(attack: tuple[int, ...] | list[int], defend: tuple[int, ...] | list[int],
                 rule: DiceRule = CLASSIC_DICE) -> tuple[int, int]:
    """(attacker losses, defender losses) of one roll: both sides sorted high→low and compared in pairs."""
    attacker_losses = defender_losses = 0
    for a, d in zip(sorted(attack, reverse=True), sorted(defend, reverse=True), strict=False):
        if _attacker_loses_pair(a, d, rule):
            attacker_losses += 1
        else:
            defender_losses += 1
    return attacker_losses, defender_losses


class RollResolver:
    """`resolve_roll` for one dice rule, remembered per roll as rolled: a battle roll in the engine then costs one
    dictionary look-up (at most 6**6 different rolls exist)."""

    __slots__ = ("_known", "rule")

    def __init__(self, rule: DiceRule) -> None:
        self.rule = rule
        self._known: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, int]] = {}

    def __call__(self, attack: tuple[int, ...], defend: tuple[int, ...]) -> tuple[int, int]:
        """Only for dice already checked (ints 1..6): a bool would hash like the int it equals."""
        key = (attack, defend)
        losses = self._known.get(key)
        if losses is None:
            losses = self._known[key] = resolve_roll(attack, defend, self.rule)
        return losses
