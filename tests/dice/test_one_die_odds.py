"""Odds, `conquista odds` and `conquista dice audit` under ties re-rolled and per-die handicaps (rules/battle.py).

Closed forms: one die against one die has three kinds of pair (attacker higher, tie, defender higher), counted by
hand below; with ties re-rolled the tie is taken out of the 36 pairs. A blitz of single dice is then a race of
independent trials with p = P(attacker wins a roll): the target falls when D wins come before A - 1 losses (a
negative binomial sum). Seeded Monte Carlo (no timing) checks the exact chain where no closed form is written.
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.dice.audit import AuditError, audit_log, audit_records
from conquista.dice.sources import SeededDice
from conquista.rules.actions import Blitz
from conquista.rules.battle import VOID_ROLL, DiceRule, resolve_roll
from conquista.rules.choices import Ties
from conquista.rules.odds import blitz_odds, odds_table, roll_odds, roll_outcome_counts, void_rolls
from conquista.rules.rulesets import load_ruleset
from tests.rules.helpers import position, tid

from . import logs
from .test_cli import one_line_error, run

ONE_DIE = str(Path(__file__).parents[1] / "data" / "one-die.toml")
REROLL = DiceRule(1, 1, Ties.REROLL)

# (rule, attacker wins, ties, defender wins) over the 36 pairs of one die each, counted by hand.
# No handicap: 15 higher, 6 equal, 15 lower. Attack handicap 2 (a fleet attacking): a - 2 > d for a=4 (d=1),
# a=5 (d<=2), a=6 (d<=3): 6; a - 2 = d for a=3..6: 4; the other 26 lose. Defence handicap 2: the mirror, 26/4/6.
HAND_COUNTS = [
    (DiceRule(1, 1, Ties.REROLL), 15, 6, 15),
    (DiceRule(1, 1, Ties.REROLL, attack_die_handicap=2), 6, 4, 26),
    (DiceRule(1, 1, Ties.REROLL, defence_die_handicap=2), 26, 4, 6),
    (DiceRule(1, 1, Ties.DEFENDER, attack_die_handicap=2), 6, 4, 26),
    (DiceRule(1, 1, Ties.REROLL, attack_die_handicap=5), 0, 1, 35),
]


@pytest.mark.parametrize(("rule", "wins", "ties", "losses"), HAND_COUNTS)
def test_one_die_roll_against_the_hand_count(rule: DiceRule, wins: int, ties: int, losses: int) -> None:
    odds = roll_odds(1, 1, exact=True, rule=rule)
    if rule.ties is Ties.REROLL:
        assert void_rolls(1, 1, rule) == ties
        assert odds == {k: v for k, v in {(0, 1): Fraction(wins, wins + losses),
                                          (1, 0): Fraction(losses, wins + losses)}.items() if v}
        thrown = roll_odds(1, 1, exact=True, rule=rule, with_void=True)
        assert thrown[VOID_ROLL] == Fraction(ties, 36) and sum(thrown.values()) == 1
    else:
        assert void_rolls(1, 1, rule) == 0
        assert odds == {(0, 1): Fraction(wins, 36), (1, 0): Fraction(losses + ties, 36)}


def test_one_die_each_ties_rerolled_is_a_fair_coin() -> None:
    assert roll_odds(1, 1, exact=True, rule=REROLL)[0, 1] == Fraction(15, 30) == Fraction(1, 2)


def _race(p: Fraction, attacking: int, defending: int) -> Fraction:
    """D wins before A - 1 losses, each roll won with probability p."""
    if defending == 0:
        return Fraction(1)
    q = 1 - p
    return sum((comb(defending - 1 + k, k) * p ** defending * q ** k for k in range(attacking - 1)), Fraction(0))


@pytest.mark.parametrize(("rule", "wins", "ties", "losses"), HAND_COUNTS[:3])
def test_one_die_blitz_is_the_negative_binomial_race(rule: DiceRule, wins: int, ties: int, losses: int) -> None:
    p = Fraction(wins, wins + losses)
    table = odds_table(rule, 9, exact=True)
    for a in range(1, 10):
        for d in range(1, 10):
            assert table[a - 1][d - 1] == _race(p, a, d), (a, d)
    assert blitz_odds(rule, 7, 4, exact=True).attacker_wins == _race(p, 7, 4)
    assert math.isclose(blitz_odds(rule, 7, 4).attacker_wins, float(_race(p, 7, 4)), rel_tol=1e-12)


def test_three_dice_with_ties_rerolled_are_conditioned_on_no_tie() -> None:
    rule = DiceRule(3, 2, Ties.REROLL)
    counts = roll_outcome_counts(3, 2, rule)
    assert VOID_ROLL not in counts
    assert sum(counts.values()) + void_rolls(3, 2, rule) == 6 ** 5
    brute = sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) for x in range(1, 7)
                for y in range(1, 7) if resolve_roll((a, b, c), (x, y), rule) == (0, 2))
    assert counts[0, 2] == brute
    assert roll_odds(3, 2, exact=True, rule=rule)[0, 2] == Fraction(brute, sum(counts.values()))


def _monte_carlo(rule: DiceRule, attacking: int, defending: int, trials: int, seed: int) -> float:
    """Blitzes rolled with seeded dice, void rolls rolled again: the fraction that conquer."""
    rng = random.Random(seed)
    conquered = 0
    for _ in range(trials):
        a, d = attacking, defending
        while d and a >= 2:
            attack = tuple(rng.randint(1, 6) for _ in range(rule.attack_dice(a)))
            defend = tuple(rng.randint(1, 6) for _ in range(rule.defend_dice(d)))
            la, ld = resolve_roll(attack, defend, rule)
            a, d = a - la, d - ld
        conquered += d == 0
    return conquered / trials


@pytest.mark.parametrize(("rule", "attacking", "defending"), [
    (DiceRule(3, 2, Ties.REROLL), 8, 6),
    (DiceRule(1, 1, Ties.REROLL, attack_die_handicap=2), 9, 2),
    (DiceRule(3, 3, Ties.DEFENDER, defence_die_handicap=1), 6, 6),
])
def test_exact_odds_agree_with_a_seeded_monte_carlo(rule: DiceRule, attacking: int, defending: int) -> None:
    trials = 6000
    exact = float(blitz_odds(rule, attacking, defending, exact=True).attacker_wins)
    observed = _monte_carlo(rule, attacking, defending, trials, seed=attacking * 31 + defending)
    sd = math.sqrt(exact * (1 - exact) / trials)
    assert abs(observed - exact) < 4.5 * sd, (observed, exact)


def test_the_engine_agrees_with_the_odds_on_the_one_die_ruleset() -> None:
    """Blitzes played through the engine with seeded dice, tied rolls rolled again by the chance step."""
    from conquista.dice.chance import chance_action
    from conquista.rules.engine import CHANCE

    rules, trials, conquered = load_ruleset(ONE_DIE), 1500, 0
    dice = SeededDice(7)
    start = position(ONE_DIE, 2, owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 6, "kamchatka": 4})
    snap = start.snapshot()
    for _ in range(trials):
        game = type(start).from_snapshot(snap, rules, start.map)
        game.apply(Blitz(tid("alaska"), tid("kamchatka"), 1))
        while game.to_move == CHANCE:
            game.apply(chance_action(game, dice))
        conquered += game.owner[tid("kamchatka")] == 0
    exact = float(_race(Fraction(1, 2), 6, 4))
    assert exact == blitz_odds(rules, 6, 4).attacker_wins
    assert abs(conquered / trials - exact) < 4.5 * math.sqrt(exact * (1 - exact) / trials)


# ------------------------------------------------------------------------------------------------- the CLI

def test_odds_cli_one_die_ties_rerolled(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "2", "1", "--attack-dice", "1", "--defence-dice", "1", "--ties", "reroll",
                       "--exact", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["attacker_wins_exact"] == "1/2" and data["ties"] == "reroll"
    assert data["first_roll_exact"] == {"0,1": "1/2", "1,0": "1/2"}


def test_odds_cli_fleet_handicap_matches_the_module(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "9", "2", "--rules", ONE_DIE, "--attack-handicap", "2", "--exact", "--json")
    assert code == 0
    data = json.loads(out)
    rule = DiceRule(1, 1, Ties.REROLL, attack_die_handicap=2)
    assert Fraction(data["attacker_wins_exact"]) == blitz_odds(rule, 9, 2, exact=True).attacker_wins
    assert data["first_roll_exact"] == {"0,1": "3/16", "1,0": "13/16"}
    code, out, _ = run(capsys, "odds", "9", "2", "--rules", ONE_DIE, "--attack-handicap", "2")
    assert code == 0 and "ties re-rolled, each attack die counts 2 less" in out


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--attack-handicap", "6", "--attack-handicap must be 0 to 5, not 6"),
    ("--defence-handicap", "-1", "--defence-handicap must be 0 to 5, not -1"),
    ("--attack-dice", "4", "--attack-dice must be 1 to 3, not 4"),
    ("--defence-dice", "0", "--defence-dice must be 1 to 3, not 0"),
])
def test_odds_cli_refuses_out_of_range_options(capsys: pytest.CaptureFixture[str], option: str, value: str,
                                               message: str) -> None:
    code, _, err = run(capsys, "odds", "5", "3", option, value)
    assert message in one_line_error(code, err)


def test_odds_cli_refuses_an_unknown_tie_rule(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["odds", "5", "3", "--ties", "draw"])
    assert exc.value.code == 2
    assert "invalid choice: 'draw'" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------------- the audit

def test_audit_expects_void_rolls_under_ties_rerolled() -> None:
    lines = [logs.header(ONE_DIE), *logs.battle_lines(SeededDice(4), 1200, rules=ONE_DIE)]
    report = audit_records(logs.records(lines))
    assert report.passed
    (combination,) = report.combinations
    expected = {(o.attacker_losses, o.defender_losses): o.probability for o in combination.outcomes}
    assert expected == {VOID_ROLL: Fraction(1, 6), (0, 1): Fraction(5, 12), (1, 0): Fraction(5, 12)}
    assert combination.tested and combination.rolls == 1200
    voids = [o for o in report.roll_outcomes if (o.attacker_losses, o.defender_losses) == VOID_ROLL]
    assert voids and all(o.probability == Fraction(1, 6) for o in voids)


def test_audit_fails_dice_that_never_tie_under_ties_rerolled() -> None:
    """A die that dodges ties (biased) shows in the outcome test, the tied rolls being expected in the log."""
    rng = random.Random(5)
    rolls = []
    while len(rolls) < 1200:
        a, d = rng.randint(1, 6), rng.randint(1, 6)
        if a != d:
            rolls.append({"type": "roll", "attack": [a], "defend": [d], "source": "seeded"})
    report = audit_records(logs.records([logs.header(ONE_DIE), *rolls]))
    assert not report.passed


def test_audit_reads_the_handicaps_and_refuses_bad_ones() -> None:
    head = logs.header(ONE_DIE)
    head["ruleset"]["attack_die_handicap"] = 2
    report = audit_records(logs.records([head, {"type": "roll", "attack": [6], "defend": [5], "source": "x"}]))
    assert (report.roll_outcomes[0].attacker_losses, report.roll_outcomes[0].probability) == (1, Fraction(13, 18))
    head["ruleset"]["attack_die_handicap"] = 9
    with pytest.raises(AuditError, match="line 1: attack_die_handicap must be a whole number from 0 to 5"):
        audit_records(logs.records([head]))


def test_audit_of_simulated_one_die_games(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["simulate", "--rules", ONE_DIE, "--players", "3", "--games", "2", "--seed", "4",
                 "--save-logs", str(tmp_path)]) == 0
    capsys.readouterr()
    saved = sorted(tmp_path.glob("*.jsonl"))
    assert saved
    report = audit_log(saved[0])
    assert report.passed and report.rolls > 0
    assert report.battles is not None and report.battles.battles > 0
    assert "not replayable" not in report.battles.note
    code, out, _ = run(capsys, "dice", "audit", str(saved[0]))
    assert code == 0 and out.strip().endswith("PASS")
