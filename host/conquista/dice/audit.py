"""The dice audit: are a game's logged rolls what fair dice (and, for committed dice, the seed) would give?

Reads a game log (JSON Lines: a header, then one object per line) and uses only
* the header: `format`, `version`, `ruleset` (its dice maxima and tie rule), `ruleset_name`, `dice`;
* roll lines `{"type": "roll", "attack": [...], "defend": [...], "source": ...}` (dice in the order rolled);
* the reveal line `{"meta": "dice_reveal", "seed": "<hex>"}` of a committed game.
Every other line is skipped, so the audit keeps working while the engine grows new actions.

Checks, each reported with its numbers:
1. faces: per-face counts of each die colour (attack red, defence blue) and Pearson's chi-square against 1/6 each;
2. battle rolls: each roll's outcome (armies lost by each side) with its exact probability from
   `conquista.rules.odds`; per dice combination, observed against expected counts of each outcome (chi-square);
   and the attacker's total losses against their exact expectation (a z-score: the "luck" of the attacker);
3. committed dice: the seed against the header's commitment, then every committed roll against the stream;
   the first roll that differs is named by its line and its number in the stream.

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

from conquista.dice.battles import BattleTest, battle_test_for_log
from conquista.dice.sources import SeedError, commitment_for, committed_dice, parse_seed
from conquista.dice.stats import chi_square, chi_square_sf, normal_sf
from conquista.errors import AuditError as AuditError
from conquista.rules.choices import Ties
from conquista.rules.odds import DiceRule, OddsError, battle_losses, roll_odds
from conquista.rules.rulesets import RANGES
from conquista.rules.textdata import BadText, load_json, shown

ALPHA = 0.001
MIN_EXPECTED = 5.0
LOG_FORMAT = "conquista-log"
LOG_VERSION = 1
COLOURS = ("attack", "defend")


@dataclass(frozen=True)
class FaceTest:
    """Per-face counts of one die colour and the chi-square test of uniformity (df = 5)."""

    colour: str
    counts: tuple[int, ...]
    dice: int
    chi_square: float
    p_value: float
    tested: bool
    df: int = 5


@dataclass(frozen=True)
class OutcomeCount:
    attacker_losses: int
    defender_losses: int
    probability: Fraction
    observed: int
    expected: float


@dataclass(frozen=True)
class CombinationTest:
    """All rolls of one dice combination (e.g. 3 attack dice against 2) against the exact single-roll odds."""

    attack_dice: int
    defend_dice: int
    rolls: int
    outcomes: tuple[OutcomeCount, ...]
    chi_square: float
    df: int
    p_value: float
    tested: bool


@dataclass(frozen=True)
class LossTest:
    """The attacker's total losses over all rolls against their exact mean and variance."""

    observed: int
    expected: float
    sd: float
    z: float
    p_value: float
    tested: bool


@dataclass(frozen=True)
class RollOutcome:
    line: int
    source: str
    attack: tuple[int, ...]
    defend: tuple[int, ...]
    attacker_losses: int
    defender_losses: int
    probability: Fraction


@dataclass(frozen=True)
class Mismatch:
    line: int
    index: int
    logged: tuple[tuple[int, ...], tuple[int, ...]]
    expected: tuple[tuple[int, ...], tuple[int, ...]]

    def describe(self, where: str) -> str:
        return (f"{where} line {self.line}: committed roll #{self.index} is attack {list(self.logged[0])} "
                f"defend {list(self.logged[1])}, but the seed gives attack {list(self.expected[0])} "
                f"defend {list(self.expected[1])}")


@dataclass(frozen=True)
class SeedCheck:
    seed_from: str
    rolls_checked: int
    mismatches: int
    first_mismatch: Mismatch | None

    @property
    def passed(self) -> bool:
        return self.first_mismatch is None


@dataclass(frozen=True)
class AuditReport:
    where: str
    ruleset_name: str
    source: str | None
    commitment: str | None
    rolls: int
    rolls_by_source: dict[str, int]
    faces: tuple[FaceTest, ...]
    combinations: tuple[CombinationTest, ...]
    attacker_losses: LossTest
    seed: SeedCheck | None
    alpha: float
    roll_outcomes: tuple[RollOutcome, ...] = field(default=(), repr=False)
    battles: BattleTest | None = None

    @property
    def tests_run(self) -> int:
        return (sum(f.tested for f in self.faces) + sum(c.tested for c in self.combinations)
                + int(self.attacker_losses.tested) + int(self.battles is not None and self.battles.tested))

    @property
    def threshold(self) -> float:
        """The p-value below which one test rejects fairness (alpha shared among the tests run)."""
        return self.alpha / max(1, self.tests_run)

    def failures(self) -> list[str]:
        """One phrase per failed check; empty when the log passes."""
        out = []
        limit = self.threshold
        for f in self.faces:
            if f.tested and f.p_value < limit:
                out.append(f"{f.colour} dice faces are not uniform (chi-square {f.chi_square:.1f}, "
                           f"p = {f.p_value:.2g})")
        for c in self.combinations:
            if c.tested and c.p_value < limit:
                out.append(f"{c.attack_dice} vs {c.defend_dice} dice outcomes differ from the exact odds "
                           f"(chi-square {c.chi_square:.1f}, p = {c.p_value:.2g})")
        loss = self.attacker_losses
        if loss.tested and loss.p_value < limit:
            out.append(f"attacker losses {loss.observed} against {loss.expected:.1f} expected "
                       f"(z = {loss.z:+.2f}, p = {loss.p_value:.2g})")
        battles = self.battles
        if battles is not None and battles.tested and battles.p_value < limit:
            out.append(f"{battles.observed} conquests in {battles.battles} blitzes against {battles.expected:.1f} "
                       f"expected (z = {battles.z:+.2f}, p = {battles.p_value:.2g})")
        if self.seed is not None and self.seed.first_mismatch is not None:
            out.append(self.seed.first_mismatch.describe(self.where))
        return out

    @property
    def passed(self) -> bool:
        return not self.failures()

    def to_json(self) -> dict[str, Any]:
        return {
            "log": self.where,
            "ruleset": self.ruleset_name,
            "source": self.source,
            "commitment": self.commitment,
            "rolls": self.rolls,
            "rolls_by_source": dict(self.rolls_by_source),
            "alpha": self.alpha,
            "tests_run": self.tests_run,
            "threshold": self.threshold,
            "faces": {f.colour: {"counts": {str(i + 1): n for i, n in enumerate(f.counts)}, "dice": f.dice,
                                 "chi_square": f.chi_square, "df": f.df, "p_value": f.p_value,
                                 "tested": f.tested} for f in self.faces},
            "combinations": [
                {"attack_dice": c.attack_dice, "defend_dice": c.defend_dice, "rolls": c.rolls,
                 "chi_square": c.chi_square, "df": c.df, "p_value": c.p_value, "tested": c.tested,
                 "outcomes": [{"attacker_losses": o.attacker_losses, "defender_losses": o.defender_losses,
                               "probability": float(o.probability), "probability_exact": str(o.probability),
                               "observed": o.observed, "expected": o.expected} for o in c.outcomes]}
                for c in self.combinations],
            "attacker_losses": {"observed": self.attacker_losses.observed,
                                "expected": self.attacker_losses.expected, "sd": self.attacker_losses.sd,
                                "z": self.attacker_losses.z, "p_value": self.attacker_losses.p_value,
                                "tested": self.attacker_losses.tested},
            "seed": None if self.seed is None else {
                "seed_from": self.seed.seed_from, "rolls_checked": self.seed.rolls_checked,
                "mismatches": self.seed.mismatches,
                "first_mismatch": None if self.seed.first_mismatch is None else {
                    "line": self.seed.first_mismatch.line, "index": self.seed.first_mismatch.index,
                    "logged": {"attack": list(self.seed.first_mismatch.logged[0]),
                               "defend": list(self.seed.first_mismatch.logged[1])},
                    "expected": {"attack": list(self.seed.first_mismatch.expected[0]),
                                 "defend": list(self.seed.first_mismatch.expected[1])}}},
            "roll_outcomes": [{"line": r.line, "source": r.source, "attack": list(r.attack),
                               "defend": list(r.defend), "attacker_losses": r.attacker_losses,
                               "defender_losses": r.defender_losses, "probability": float(r.probability)}
                              for r in self.roll_outcomes],
            "battles": None if self.battles is None else {
                "blitzes": self.battles.battles, "observed_conquests": self.battles.observed,
                "expected_conquests": self.battles.expected, "sd": self.battles.sd, "z": self.battles.z,
                "p_value": self.battles.p_value, "tested": self.battles.tested, "note": self.battles.note},
            "failures": self.failures(),
            "passed": self.passed,
        }


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
    """A game log's lines (from a file or a saved game) as (line number, JSON object), refusing anything else."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            obj = load_json(text, one_line=True)
        except BadText as exc:
            if number == 1:
                raise AuditError(f"{where}: not a conquista game log (line 1: {exc})") from None
            raise AuditError(f"{where} line {number}: {exc}") from None
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
        rule = DiceRule(maxima[0], maxima[1], Ties(ties))
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


def _combination_test(attack_dice: int, defend_dice: int, counts: Counter[tuple[int, int]]) -> CombinationTest:
    probabilities = roll_odds(attack_dice, defend_dice, exact=True)
    rolls = sum(counts.values())
    outcomes = tuple(OutcomeCount(la, ld, p, counts.get((la, ld), 0), float(p * rolls))
                     for (la, ld), p in probabilities.items())
    df = len(outcomes) - 1
    tested = df >= 1 and all(o.expected >= MIN_EXPECTED for o in outcomes)
    if not tested:
        return CombinationTest(attack_dice, defend_dice, rolls, outcomes, 0.0, df, 1.0, False)
    stat = chi_square([o.observed for o in outcomes], [o.expected for o in outcomes])
    return CombinationTest(attack_dice, defend_dice, rolls, outcomes, stat, df, chi_square_sf(stat, df), True)


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


def audit_records(records: Iterable[tuple[int, dict[str, Any]]], where: str = "<log>",
                  verify_seed: str | None = None, alpha: float = ALPHA, keep_rolls: bool = True) -> AuditReport:
    """Audit parsed log lines: (line number, object) pairs, the header first. See the module docstring."""
    lines = iter(records)
    first = next(lines, None)
    if first is None:
        raise AuditError(f"{where}: empty file, not a conquista game log")
    header = _parse_header(where, first[1])
    rule = header.rule
    faces = {colour: Counter[int]() for colour in COLOURS}
    by_combination: dict[tuple[int, int], Counter[tuple[int, int]]] = {}
    by_source: Counter[str] = Counter()
    committed: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    kept: list[RollOutcome] = []
    revealed: tuple[int, str] | None = None
    for line, obj in lines:
        if "meta" in obj:
            if obj["meta"] == "dice_reveal":
                seed = obj.get("seed")
                if not isinstance(seed, str):
                    raise AuditError(f"{where} line {line}: dice_reveal needs \"seed\" as a hex string")
                revealed = (line, seed)
            continue
        if obj.get("type") != "roll":
            continue
        attack = _dice_list(where, line, obj, "attack", rule.attacker_dice_max)
        defend = _dice_list(where, line, obj, "defend", rule.defender_dice_max)
        # A roll without its own source fell from the header's source; a log that records neither still audits.
        source = obj.get("source", header.source or "unknown")
        if not isinstance(source, str):
            raise AuditError(f"{where} line {line}: roll source must be a string, got {source!r}")
        by_source[source] += 1
        faces["attack"].update(attack)
        faces["defend"].update(defend)
        losses = battle_losses(attack, defend)
        by_combination.setdefault((len(attack), len(defend)), Counter())[losses] += 1
        if source == "committed":
            committed.append((line, attack, defend))
        if keep_rolls:
            probability = roll_odds(len(attack), len(defend), exact=True)[losses]
            kept.append(RollOutcome(line, source, attack, defend, losses[0], losses[1], probability))

    combinations = tuple(_combination_test(a, d, by_combination[a, d]) for a, d in sorted(by_combination))
    seed_check = _check_seed(where, header, committed, verify_seed, revealed)
    return AuditReport(
        where=where, ruleset_name=header.ruleset_name, source=header.source, commitment=header.commitment,
        rolls=sum(by_source.values()), rolls_by_source=dict(sorted(by_source.items())),
        faces=tuple(_face_test(colour, faces[colour]) for colour in COLOURS), combinations=combinations,
        attacker_losses=_loss_test(combinations), seed=seed_check, alpha=alpha, roll_outcomes=tuple(kept))


def _check_seed(where: str, header: _Header, committed: list[tuple[int, tuple[int, ...], tuple[int, ...]]],
                verify_seed: str | None, revealed: tuple[int, str] | None) -> SeedCheck | None:
    candidates: list[tuple[str, bytes]] = []
    try:
        if revealed is not None:
            candidates.append((f"line {revealed[0]}", parse_seed(revealed[1], f"{where} line {revealed[0]}: seed")))
        if verify_seed is not None:
            candidates.append(("--verify-seed", parse_seed(verify_seed, "--verify-seed")))
    except SeedError as exc:
        raise AuditError(str(exc)) from None
    if not candidates:
        return None
    if header.commitment is None:
        raise AuditError(f"{where} line 1: the dice source is {header.source!r}, not 'committed': there is no "
                         f"commitment to check a seed against")
    for label, seed in candidates:
        digest = commitment_for(seed)
        if digest != header.commitment:
            what = "the seed revealed on " + label if label.startswith("line") else "the seed given to " + label
            raise AuditError(f"{where}: {what} does not match the commitment (its SHA-256 is {digest[:16]}…, "
                             f"the header commits to {header.commitment[:16]}…)")
    label, seed = candidates[-1]
    first: Mismatch | None = None
    mismatches = 0
    for index, (line, attack, defend) in enumerate(committed):
        expected = committed_dice(seed, index, len(attack), len(defend))
        if expected != (attack, defend):
            mismatches += 1
            if first is None:
                first = Mismatch(line, index, (attack, defend), expected)
    return SeedCheck(label, len(committed), mismatches, first)


def audit_log(path: str | Path, verify_seed: str | None = None, alpha: float = ALPHA,
              keep_rolls: bool = True) -> AuditReport:
    """Audit the game log at `path`. Bad input raises AuditError (one line naming the file, line and problem)."""
    path = Path(path)
    report = audit_records(_read_lines(path), str(path), verify_seed, alpha, keep_rolls)
    return dataclasses.replace(report, battles=battle_test_for_log(path))
