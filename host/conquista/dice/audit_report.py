"""The dice audit's report: what each check found, as text phrases (`failures`) and as JSON (`to_json`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from conquista.dice.audit_seed import SeedCheck
from conquista.dice.battles import BattleTest


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
    """All rolls of one dice combination (e.g. 3 attack dice against 2) against the exact single-roll odds. With
    fleets, of one combination and one dice rule: `units` names the battles it holds ("a fleet attacking an army")
    and the handicaps are its rule's."""

    attack_dice: int
    defend_dice: int
    rolls: int
    outcomes: tuple[OutcomeCount, ...]
    chi_square: float
    df: int
    p_value: float
    tested: bool
    attack_die_handicap: int = 0
    defence_die_handicap: int = 0
    units: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """"3 vs 2 dice"; with fleets "1 vs 1 dice, a fleet attacking an army (the attack die counts 2 less)"."""
        dice = f"{self.attack_dice} vs {self.defend_dice} dice"
        if not self.units:
            return dice
        handicaps = [f"the {side} die counts {n} less" for side, n in
                     (("attack", self.attack_die_handicap), ("defence", self.defence_die_handicap)) if n]
        return f"{dice}, {' or '.join(self.units)}" + (f" ({', '.join(handicaps)})" if handicaps else "")


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
                out.append(f"{c.label} outcomes differ from the exact odds "
                           f"(chi-square {c.chi_square:.1f}, p = {c.p_value:.2g})")
        loss = self.attacker_losses
        if loss.tested and loss.p_value < limit:
            out.append(f"attacker losses {loss.observed} against {loss.expected:.1f} expected "
                       f"(z = {loss.z:+.2f}, p = {loss.p_value:.2g})")
        battles = self.battles
        if battles is not None and battles.tested and battles.p_value < limit:
            out.append(f"{battles.observed} conquests in {battles.battles} blitzes against {battles.expected:.1f} "
                       f"expected (z = {battles.z:+.2f}, p = {battles.p_value:.2g})")
        if self.seed is not None:
            out.extend(self.seed.failures(self.where))
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
                {"attack_dice": c.attack_dice, "defend_dice": c.defend_dice, "units": list(c.units),
                 "attack_die_handicap": c.attack_die_handicap, "defence_die_handicap": c.defence_die_handicap,
                 "rolls": c.rolls,
                 "chi_square": c.chi_square, "df": c.df, "p_value": c.p_value, "tested": c.tested,
                 "outcomes": [{"attacker_losses": o.attacker_losses, "defender_losses": o.defender_losses,
                               "probability": float(o.probability), "probability_exact": str(o.probability),
                               "observed": o.observed, "expected": o.expected} for o in c.outcomes]}
                for c in self.combinations],
            "attacker_losses": {"observed": self.attacker_losses.observed,
                                "expected": self.attacker_losses.expected, "sd": self.attacker_losses.sd,
                                "z": self.attacker_losses.z, "p_value": self.attacker_losses.p_value,
                                "tested": self.attacker_losses.tested},
            "seed": None if self.seed is None else self.seed.to_json(),
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
