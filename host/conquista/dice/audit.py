"""The dice audit: are a game's logged rolls what fair dice (and, for committed dice, the seed) would give?

Reads a game log (JSON Lines: a header, then one object per line) and uses only
* the header: `format`, `version`, `ruleset` (its dice maxima, tie rule and die handicaps), `ruleset_name`, `dice`;
* roll lines `{"type": "roll", "attack": [...], "defend": [...], "source": ...}` (dice in the order rolled);
* the reveal line `{"meta": "dice_reveal", "seed": "<hex>"}` of a committed game;
* with a committed seed to check, the deal and the card draws too, replaying the game through the engine;
* in a game with fleets (the header's ruleset has `fleets = true`), every action: the log is replayed through the
  engine to learn which units fought each roll (conquista.dice.audit_units), as a fleet's die counts less.
Every other line is skipped, so the audit keeps working while the engine grows new actions.

Checks, each reported with its numbers:
1. faces: per-face counts of each die colour (attack red, defence blue) and Pearson's chi-square against 1/6 each;
2. battle rolls: each roll's outcome (armies lost by each side) with its exact probability from
   `conquista.rules.odds`; per dice combination, observed against expected counts of each outcome (chi-square);
   and the attacker's total losses against their exact expectation (a z-score: the "luck" of the attacker). Under
   ties re-rolled the void rolls are in the log like any other: a roll's expected distribution is the one of a roll
   as thrown, the void outcome (0, 0) included (`roll_odds(..., with_void=True)`); the faces stay uniform. With
   fleets the rolls are grouped by dice combination and by the battle's dice rule (a fleet attacking an army,
   an army attacking a fleet, or neither handicapped), each group tested under its own rule;
3. committed dice: the seed against the header's commitment, then every committed roll against the stream, and
   (when the header says the commitment covers them) the deal and every card draw (conquista.dice.audit_seed);
   the first roll, and the first deal or draw, that differs is named by its line and its number in the stream.

Statistical tests reject fairness only when p < alpha / k, k being the number of tests run (Bonferroni), so an
honest log fails the audit with probability at most `alpha` (0.001 by default) however many tests ran. A test runs
only when every expected count is at least 5, the usual condition for the chi-square approximation.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from conquista.dice.audit_report import (
    AuditReport,
    CombinationTest,
    FaceTest,
    LossTest,
    OutcomeCount,
    RollOutcome,
)
from conquista.dice.audit_seed import ChanceMismatch, Mismatch, SeedCheck, check_seed, seed_to_check
from conquista.dice.audit_units import RollUnits, has_fleets, roll_units
from conquista.dice.battles import battle_test_for_log
from conquista.dice.stats import chi_square, chi_square_sf, normal_sf
from conquista.errors import AuditError as AuditError
from conquista.rules.choices import Ties
from conquista.rules.gamelog import BadLine, json_lines
from conquista.rules.mapdata import GameMap
from conquista.rules.odds import DiceRule, OddsError, battle_losses, roll_odds
from conquista.rules.rulesets import RANGES
from conquista.rules.textdata import shown

ALPHA = 0.001
MIN_EXPECTED = 5.0
LOG_FORMAT = "conquista-log"
LOG_VERSION = 1
COLOURS = ("attack", "defend")

__all__ = ["AuditError", "AuditReport", "ChanceMismatch", "CombinationTest", "FaceTest", "LossTest", "Mismatch",
           "OutcomeCount", "RollOutcome", "SeedCheck", "audit_log", "audit_records", "parse_records"]


# ------------------------------------------------------------------------------------------------- reading

def _read_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    where = str(path)
    try:
        handle = path.open("r", encoding="utf-8")
    except OSError as exc:
        raise AuditError(f"{where}: cannot read the log ({exc.strerror})") from None
    with handle:
        try:
            yield from parse_records(handle, where)
        except UnicodeDecodeError:
            raise AuditError(f"{where}: not a conquista game log (not UTF-8 text)") from None


def parse_records(lines: Iterable[str], where: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """A game log's lines (from a file or a saved game) as (line number, JSON object), refusing anything else. The
    lines are read as every game log is (`conquista.rules.gamelog.json_lines`); the errors are the audit's."""
    numbered = json_lines(lines)
    while True:
        try:
            number, obj = next(numbered)
        except StopIteration:
            return
        except BadLine as exc:
            if exc.number == 1:
                raise AuditError(f"{where}: not a conquista game log (line 1: {exc.reason})") from None
            raise AuditError(f"{where} line {exc.number}: {exc.reason}") from None
        if not isinstance(obj, dict):
            raise AuditError(f"{where} line {number}: expected a JSON object, got {type(obj).__name__}")
        yield number, obj


def _dice_list(where: str, line: int, obj: dict[str, Any], key: str, most: int) -> tuple[int, ...]:
    value = obj.get(key)
    if not isinstance(value, list) or not value:
        raise AuditError(f"{where} line {line}: roll needs {key!r} as a non-empty list of dice, got {value!r}")
    for die in value:
        if type(die) is not int or not 1 <= die <= 6:
            raise AuditError(f"{where} line {line}: roll has {key} die {die!r}; a die shows 1 to 6")
    if len(value) > most:
        raise AuditError(f"{where} line {line}: roll has {len(value)} {key} dice; the ruleset allows 1 to {most}")
    return tuple(value)


@dataclass
class _Header:
    rule: DiceRule
    ruleset_name: str
    source: str | None
    commitment: str | None


def _parse_header(where: str, obj: dict[str, Any]) -> _Header:
    if obj.get("format") != LOG_FORMAT:
        raise AuditError(f"{where}: not a conquista game log (line 1 has no \"format\": \"{LOG_FORMAT}\")")
    if obj.get("version") != LOG_VERSION:
        raise AuditError(f"{where} line 1: log version {obj.get('version')!r} is not supported "
                         f"(expected {LOG_VERSION})")
    ruleset = obj.get("ruleset")
    if not isinstance(ruleset, dict):
        raise AuditError(f"{where} line 1: the header has no \"ruleset\" object")
    maxima = []
    for key in ("attacker_dice_max", "defender_dice_max"):
        # As the ruleset loader has it: a roll of more dice has 6^n outcomes to enumerate, and no ruleset has one.
        low, high = RANGES[key]
        value = ruleset.get(key)
        if type(value) is not int or not low <= value <= high:
            raise AuditError(f"{where} line 1: ruleset {key!r} must be a whole number from {low} to {high}, "
                             f"got {shown(value)}")
        maxima.append(value)
    try:
        ties = ruleset.get("ties", "defender")
        if ties not in Ties._value2member_map_:
            raise OddsError(f"ties rule {ties!r} is not supported (only {', '.join(t.value for t in Ties)})")
        # A log written before the handicaps existed was played without them.
        rule = DiceRule(maxima[0], maxima[1], Ties(ties), ruleset.get("attack_die_handicap", 0),
                        ruleset.get("defence_die_handicap", 0))
    except OddsError as exc:
        raise AuditError(f"{where} line 1: {exc}") from None
    dice = obj.get("dice", {})
    if dice is None:
        dice = {}
    if not isinstance(dice, dict):
        raise AuditError(f"{where} line 1: \"dice\" must be an object like {{\"source\": \"os\"}}, got {dice!r}")
    source = dice.get("source")
    if source is not None and not isinstance(source, str):
        raise AuditError(f"{where} line 1: dice source must be a string, got {source!r}")
    commitment = dice.get("commitment")
    if commitment is not None:
        if not isinstance(commitment, str) or len(commitment) != 64 or \
                any(ch not in "0123456789abcdef" for ch in commitment.lower()):
            raise AuditError(f"{where} line 1: dice commitment must be 64 hex digits (a SHA-256), got {commitment!r}")
        commitment = commitment.lower()
    name = obj.get("ruleset_name", ruleset.get("name", "?"))
    return _Header(rule, str(name), source, commitment)


# ------------------------------------------------------------------------------------------------ auditing

def _face_test(colour: str, counts: Counter[int]) -> FaceTest:
    observed = tuple(counts.get(face, 0) for face in range(1, 7))
    dice = sum(observed)
    tested = dice / 6 >= MIN_EXPECTED
    if not tested:
        return FaceTest(colour, observed, dice, 0.0, 1.0, False)
    stat = chi_square(observed, [dice / 6] * 6)
    return FaceTest(colour, observed, dice, stat, chi_square_sf(stat, 5), True)


def _combination_test(attack_dice: int, defend_dice: int, counts: Counter[tuple[int, int]],
                      rule: DiceRule, units: tuple[str, ...] = ()) -> CombinationTest:
    probabilities = roll_odds(attack_dice, defend_dice, exact=True, rule=rule, with_void=True)
    rolls = sum(counts.values())
    outcomes = tuple(OutcomeCount(la, ld, p, counts.get((la, ld), 0), float(p * rolls))
                     for (la, ld), p in probabilities.items())
    df = len(outcomes) - 1
    tested = df >= 1 and all(o.expected >= MIN_EXPECTED for o in outcomes)
    stat = chi_square([o.observed for o in outcomes], [o.expected for o in outcomes]) if tested else 0.0
    return CombinationTest(attack_dice, defend_dice, rolls, outcomes, stat, df,
                           chi_square_sf(stat, df) if tested else 1.0, tested, rule.attack_die_handicap,
                           rule.defence_die_handicap, units)


def _loss_test(combinations: Iterable[CombinationTest]) -> LossTest:
    observed = 0
    mean = Fraction(0)
    variance = Fraction(0)
    for c in combinations:
        m = sum(o.probability * o.attacker_losses for o in c.outcomes)
        second = sum(o.probability * o.attacker_losses ** 2 for o in c.outcomes)
        mean += c.rolls * m
        variance += c.rolls * (second - m * m)
        observed += sum(o.observed * o.attacker_losses for o in c.outcomes)
    sd = math.sqrt(variance)
    # The sum of many independent bounded losses is close to normal once its spread is a few armies.
    tested = sd >= 3
    z = (observed - float(mean)) / sd if sd > 0 else 0.0
    return LossTest(observed, float(mean), sd, z, 2 * normal_sf(abs(z)) if tested else 1.0, tested)


@dataclass
class _Tally:
    """What the audit gathers from the lines after the header."""

    rule: DiceRule
    keep_rolls: bool
    keep_actions: bool
    faces: dict[str, Counter[int]] = field(default_factory=lambda: {colour: Counter[int]() for colour in COLOURS})
    # (attack dice, defence dice, the roll's dice rule): the header's, or with fleets the battle's own
    by_combination: dict[tuple[int, int, DiceRule], Counter[tuple[int, int]]] = field(default_factory=dict)
    pairings: dict[tuple[int, int, DiceRule], set[str]] = field(default_factory=dict)   # with fleets
    by_source: Counter[str] = field(default_factory=Counter)
    committed: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    kept: list[RollOutcome] = field(default_factory=list)
    actions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)   # for the committed deal and draws
    revealed: tuple[int, str] | None = None

    def add_roll(self, line: int, source: str, attack: tuple[int, ...], defend: tuple[int, ...],
                 units: RollUnits | None = None) -> None:
        self.by_source[source] += 1
        self.faces["attack"].update(attack)
        self.faces["defend"].update(defend)
        rule = self.rule if units is None else units.rule
        losses = battle_losses(attack, defend, rule)
        key = (len(attack), len(defend), rule)
        self.by_combination.setdefault(key, Counter())[losses] += 1
        if units is not None:
            self.pairings.setdefault(key, set()).add(units.words)
        if source == "committed":
            self.committed.append((line, attack, defend))
        if self.keep_rolls:
            probability = roll_odds(len(attack), len(defend), exact=True, rule=rule, with_void=True)[losses]
            self.kept.append(RollOutcome(line, source, attack, defend, losses[0], losses[1], probability))


def _tally(where: str, header: _Header, lines: Iterable[tuple[int, dict[str, Any]]], tally: _Tally,
           units: dict[int, RollUnits]) -> _Tally:
    rule = header.rule
    for line, obj in lines:
        if "meta" in obj:
            if obj["meta"] == "dice_reveal":
                seed = obj.get("seed")
                if not isinstance(seed, str):
                    raise AuditError(f"{where} line {line}: dice_reveal needs \"seed\" as a hex string")
                tally.revealed = (line, seed)
            continue
        if tally.keep_actions:
            tally.actions.append((line, obj))
        if obj.get("type") != "roll":
            continue
        attack = _dice_list(where, line, obj, "attack", rule.attacker_dice_max)
        defend = _dice_list(where, line, obj, "defend", rule.defender_dice_max)
        # A roll without its own source fell from the header's source; a log that records neither still audits.
        source = obj.get("source", header.source or "unknown")
        if not isinstance(source, str):
            raise AuditError(f"{where} line {line}: roll source must be a string, got {source!r}")
        tally.add_roll(line, source, attack, defend, units.get(line))
    return tally


def audit_records(records: Iterable[tuple[int, dict[str, Any]]], where: str = "<log>",
                  verify_seed: str | None = None, alpha: float = ALPHA, keep_rolls: bool = True,
                  game_map: GameMap | None = None) -> AuditReport:
    """Audit parsed log lines: (line number, object) pairs, the header first. See the module docstring. `game_map`:
    the map the game was played on, for replaying a committed game's deal and draws (default: the classic 42)."""
    lines = iter(records)
    first = next(lines, None)
    if first is None:
        raise AuditError(f"{where}: empty file, not a conquista game log")
    header = _parse_header(where, first[1])
    units: dict[int, RollUnits] = {}
    if has_fleets(first[1]):
        replayed = list(lines)
        lines = iter(replayed)
        units = roll_units(where, first[1], replayed, game_map)
    tally = _tally(where, header, lines, _Tally(header.rule, keep_rolls, keep_actions=header.commitment is not None),
                   units)
    order = sorted(tally.by_combination, key=lambda k: (k[0], k[1], k[2].attack_die_handicap,
                                                          k[2].defence_die_handicap))
    combinations = tuple(_combination_test(a, d, tally.by_combination[a, d, rule], rule,
                                           tuple(sorted(tally.pairings.get((a, d, rule), ()))))
                         for a, d, rule in order)
    seed = seed_to_check(where, header.commitment, header.source, verify_seed, tally.revealed)
    seed_check = None if seed is None else check_seed(where, seed, tally.committed, first[1], tally.actions,
                                                       game_map)
    return AuditReport(
        where=where, ruleset_name=header.ruleset_name, source=header.source, commitment=header.commitment,
        rolls=sum(tally.by_source.values()), rolls_by_source=dict(sorted(tally.by_source.items())),
        faces=tuple(_face_test(colour, tally.faces[colour]) for colour in COLOURS), combinations=combinations,
        attacker_losses=_loss_test(combinations), seed=seed_check, alpha=alpha, roll_outcomes=tuple(tally.kept))


def audit_log(path: str | Path, verify_seed: str | None = None, alpha: float = ALPHA,
              keep_rolls: bool = True, game_map: GameMap | None = None) -> AuditReport:
    """Audit the game log at `path`. Bad input raises AuditError (one line naming the file, line and problem)."""
    path = Path(path)
    report = audit_records(_read_lines(path), str(path), verify_seed, alpha, keep_rolls, game_map)
    # A log of a whole game (its deal, placements, turns) must replay to its last line: one that does not is
    # damaged, and its rolls are not what was played. A log of fights only (rolls, blitzes) is audited by its rolls.
    # A log that fails already (a deal or a roll not the seed's) keeps its more telling failures.
    records = _read_lines(path)
    next(records, None)    # the header
    whole = report.passed and any(_played(obj) for _, obj in records)
    return dataclasses.replace(report, battles=battle_test_for_log(path, must_replay=whole))


FIGHT_LINES = frozenset({"roll", "attack", "blitz", "defend", "occupy"})


def _played(obj: dict[str, Any]) -> bool:
    """Whether a log line is a step of a whole game rather than of a fight (a broken line counts: no fight)."""
    return "meta" not in obj and obj.get("type") not in FIGHT_LINES
