"""The one battle rule: how the dice of a roll become losses. The engine and the odds both call `resolve_roll`.

A ruleset's dice rule is a `DiceRule`: the dice maxima, the tie rule and a per-die handicap for each side. Everything
that decides who wins a pair of dice lives in `_pair_loser` and `resolve_roll`, so both the engine and
`rules/odds.py` follow it.

* ties = "defender": a tied pair is lost by the attacker.
* ties = "reroll": a tied pair decides nothing and is rolled again. A roll in which any compared pair ties is *void*:
  `resolve_roll` gives (0, 0) — every other roll removes at least one army — the engine applies it (it is logged,
  removes no army) and stays at the ROLL step, so chance rolls the same dice again. With more than one die a side
  the whole roll is rolled again [interpretation: the 1954 patent has one die each].
* attack_die_handicap / defence_die_handicap: each die of that side counts that much less when compared (a fleet's
  die counts 2 less in the 1954 patent: a fleet's 6 loses to an army's 5, its 6 against a 4 is a tie).
Pure: no I/O, no random, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any, Protocol

from conquista.errors import OddsError
from conquista.rules.actions import Roll
from conquista.rules.choices import Ties

TIES_TO_DEFENDER = Ties.DEFENDER
HANDICAP_RANGE = (0, 5)
# The outcome of a void roll (ties re-rolled): no army lost, the same dice are rolled again.
VOID_ROLL = (0, 0)


class HasDiceRule(Protocol):
    """Anything with the dice parameters: a Ruleset, a DiceRule."""

    @property
    def attacker_dice_max(self) -> int: ...
    @property
    def defender_dice_max(self) -> int: ...
    @property
    def ties(self) -> Ties: ...
    @property
    def attack_die_handicap(self) -> int: ...
    @property
    def defence_die_handicap(self) -> int: ...


@dataclass(frozen=True)
class DiceRule:
    """The part of a ruleset a battle depends on. Rulesets with the same dice rule share every cached result."""

    attacker_dice_max: int = 3
    defender_dice_max: int = 3
    ties: Ties = TIES_TO_DEFENDER
    attack_die_handicap: int = 0
    defence_die_handicap: int = 0

    def __post_init__(self) -> None:
        if self.attacker_dice_max < 1 or self.defender_dice_max < 1:
            raise OddsError(f"dice maxima must be at least 1, got attacker {self.attacker_dice_max} "
                            f"and defender {self.defender_dice_max}")
        if self.ties not in Ties._value2member_map_:
            raise OddsError(f"ties rule {self.ties!r} is not supported (only {', '.join(t.value for t in Ties)})")
        object.__setattr__(self, "ties", Ties(self.ties))
        low, high = HANDICAP_RANGE
        for name in ("attack_die_handicap", "defence_die_handicap"):
            value = getattr(self, name)
            if type(value) is not int or not low <= value <= high:
                raise OddsError(f"{name} must be a whole number from {low} to {high}, got {value!r}")

    @property
    def rerolls_ties(self) -> bool:
        """A tied pair is rolled again: some rolls are void (`VOID_ROLL`)."""
        return self.ties is Ties.REROLL

    @classmethod
    def of(cls, rules: HasDiceRule) -> DiceRule:
        """The dice rule of a Ruleset (or of anything with the three fields, a DiceRule included)."""
        if isinstance(rules, DiceRule):
            return rules
        return cls(rules.attacker_dice_max, rules.defender_dice_max, rules.ties, rules.attack_die_handicap,
                   rules.defence_die_handicap)

    def attack_dice(self, attacking: int) -> int:
        """Dice the attacker rolls with `attacking` armies on the territory (one must stay behind)."""
        return min(self.attacker_dice_max, attacking - 1)

    def defend_dice(self, defending: int) -> int:
        """Dice the defender rolls under automatic defence."""
        return min(self.defender_dice_max, defending)


CLASSIC_DICE = DiceRule()


def _pair_loser(attack_die: int, defend_die: int, rule: DiceRule) -> int | None:
    """0 if the attacker loses the pair, 1 if the defender does, None if the pair is rolled again. The handicaps
    and the tie rule are applied here and only here."""
    attack_value = attack_die - rule.attack_die_handicap
    defend_value = defend_die - rule.defence_die_handicap
    if attack_value > defend_value:
        return 1
    if attack_value == defend_value and rule.ties is Ties.REROLL:
        return None
    return 0


def resolve_roll(attack: tuple[int, ...] | list[int], defend: tuple[int, ...] | list[int],
                 rule: DiceRule = CLASSIC_DICE) -> tuple[int, int]:
    """(attacker losses, defender losses) of one roll: both sides sorted high→low and compared in pairs (a side's
    handicap lowers every die of it alike, so the order is the faces' order). Under ties = "reroll" a roll with a
    tied pair is void: `VOID_ROLL`, (0, 0), the only roll that removes no army."""
    attacker_losses = defender_losses = 0
    for a, d in zip(sorted(attack, reverse=True), sorted(defend, reverse=True), strict=False):
        loser = _pair_loser(a, d, rule)
        if loser is None:
            return VOID_ROLL
        if loser:
            defender_losses += 1
        else:
            attacker_losses += 1
    return attacker_losses, defender_losses


# Every roll of 1..3 dice, as rolled, numbered: the engine looks a roll up instead of sorting it.
_MAX_TABLE_DICE = 3
_ROLLS = [roll for n in range(1, _MAX_TABLE_DICE + 1) for roll in product(range(1, 7), repeat=n)]
DICE_ID: dict[tuple[int, ...], int] = {roll: i for i, roll in enumerate(_ROLLS)}
_SORTED = [tuple(sorted(roll, reverse=True)) for roll in _ROLLS]
# The rolls of up to n dice are the first _ROLLS_UP_TO[n] (rolls are numbered by their count of dice), and their
# distinct sorted forms.
_ROLLS_UP_TO = [sum(6 ** k for k in range(1, n + 1)) for n in range(_MAX_TABLE_DICE + 1)]
_DISTINCT_SORTED = [sorted(set(_SORTED[:_ROLLS_UP_TO[n]])) for n in range(_MAX_TABLE_DICE + 1)]


class RollResolver:
    """`resolve_roll` for one dice rule as a table over every roll of up to three dice, each attacker's row built on
    first use: a battle roll in the engine then costs two dictionary look-ups and no sorting. Rolls of more dice (no
    built-in ruleset has them) are resolved directly."""

    __slots__ = ("_rows", "_rows_by_sorted", "rule")

    def __init__(self, rule: DiceRule) -> None:
        self.rule = rule
        self._rows: list[list[tuple[int, int]] | None] = [None] * len(_ROLLS)
        self._rows_by_sorted: dict[tuple[int, ...], list[tuple[int, int]]] = {}

    def _row(self, attack_id: int) -> list[tuple[int, int]]:
        attack = _SORTED[attack_id]
        row = self._rows_by_sorted.get(attack)
        if row is None:
            # Only the defences the rule lets a defender roll (a process's first game built a third of its rows'
            # cells for three defence dice that classic never rolls); a longer defence is resolved directly.
            most = min(self.rule.defender_dice_max, _MAX_TABLE_DICE)
            losses = {defend: resolve_roll(attack, defend, self.rule) for defend in _DISTINCT_SORTED[most]}
            row = self._rows_by_sorted[attack] = [losses[defend] for defend in _SORTED[:_ROLLS_UP_TO[most]]]
        self._rows[attack_id] = row
        return row

    def losses(self, attack_id: int, defend_id: int) -> tuple[int, int]:
        """`self(attack, defend)` for the rolls numbered `attack_id` and `defend_id` (their `DICE_ID`): for a caller
        that has looked the rolls up already."""
        try:
            return (self._rows[attack_id] or self._row(attack_id))[defend_id]
        except IndexError:  # more defence dice than the rule lets a defender roll: not in the table
            return resolve_roll(_ROLLS[attack_id], _ROLLS[defend_id], self.rule)

    def __call__(self, attack: tuple[int, ...], defend: tuple[int, ...]) -> tuple[int, int]:
        """Only for dice already checked to be ints 1..6 (a bool or 1.0 would be taken for the int it equals)."""
        a, d = DICE_ID.get(attack), DICE_ID.get(defend)
        if a is None or d is None:
            return resolve_roll(attack, defend, self.rule)
        try:
            return (self._rows[a] or self._row(a))[d]
        except IndexError:  # more defence dice than the rule lets a defender roll: not in the table
            return resolve_roll(attack, defend, self.rule)


@cache
def resolver_for(rule: DiceRule) -> RollResolver:
    """The one resolver of a dice rule, shared by every game under it (its table is built once per process)."""
    return RollResolver(rule)


# Rolls of up to this many dice a side are numbered (`NumberedRolls`): no built-in ruleset rolls more.
NUMBERED_DICE = _MAX_TABLE_DICE
# Every roll of 0 to 3 dice in the order `itertools.product` lists them: a roll's number's base-6 digits are its
# faces less one, the first die rolled first.
_FACES: list[list[tuple[int, ...]]] = [list(product(range(1, 7), repeat=n)) for n in range(NUMBERED_DICE + 1)]


class NumberedRolls:
    """One chance source's battle rolls by number, with their losses under one dice rule: a roll of `attack` and
    `defend` dice is numbered by its faces less one as base-6 digits, the attacker's dice first (the seeded dice
    draw the number die by die, dice/ready_rolls.py). Each roll's `Roll` action and losses are made the first time
    that roll comes up in the process and shared by every game under the rule: the engine's chance step of a
    simulated game (`Game.apply_roll_number`) is then one look-up. `tables[attack][defend]` is filled by `entry`."""

    __slots__ = ("resolver", "source", "tables")

    def __init__(self, resolver: RollResolver, source: str) -> None:
        self.resolver = resolver
        self.source = source
        self.tables: list[list[list[tuple[Roll, tuple[int, int]] | None]]] = [
            [[] for _ in range(NUMBERED_DICE + 1)] for _ in range(NUMBERED_DICE + 1)]

    def entry(self, attack: int, defend: int, number: Any) -> tuple[Roll, tuple[int, int]] | None:
        """The roll numbered `number` of `attack` and `defend` dice and its losses, made now if new; None for dice
        or a number out of range (more than `NUMBERED_DICE` a side, a number that is not a roll of that many)."""
        if not (0 <= attack <= NUMBERED_DICE and 0 <= defend <= NUMBERED_DICE
                and number.__class__ is int and 0 <= number < 6 ** (attack + defend)):
            return None
        table = self.tables[attack][defend]
        if not table:
            table.extend([None] * 6 ** (attack + defend))
        made = table[number]
        if made is None:
            split = 6 ** defend
            roll = Roll(_FACES[attack][number // split], _FACES[defend][number % split], self.source)
            made = table[number] = (roll, self.resolver(roll.attack, roll.defend))
        return made


@cache
def numbered_rolls(resolver: RollResolver, source: str) -> NumberedRolls:
    """The one table of `source`'s numbered rolls under `resolver`'s dice rule, shared by every game of a process."""
    return NumberedRolls(resolver, source)
