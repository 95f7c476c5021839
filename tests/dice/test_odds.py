"""Exact battle odds: single-roll tables by brute force, blitz odds against an independent recursion and against
seeded Monte Carlo, edge cases, and the table."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquista.dice.sources import SeededDice
from conquista.errors import ConquistaError
from conquista.rules.odds import (
    DiceRule,
    OddsError,
    battle_losses,
    blitz_odds,
    conquest_chance,
    odds_table,
    roll_odds,
    roll_outcome_counts,
)
from conquista.rules.rulesets import builtin_rulesets, load_ruleset

RULESETS = builtin_rulesets()


def brute_force_counts(attack_dice: int, defend_dice: int) -> dict[tuple[int, int], int]:
    """Every ordered roll, resolved by the rule as written in RULES.md (independent of the module)."""
    counts: dict[tuple[int, int], int] = {}
    for roll in product(range(1, 7), repeat=attack_dice + defend_dice):
        attack = sorted(roll[:attack_dice], reverse=True)
        defend = sorted(roll[attack_dice:], reverse=True)
        lost_a = lost_d = 0
        for i in range(min(attack_dice, defend_dice)):
            if attack[i] > defend[i]:
                lost_d += 1
            else:
                lost_a += 1
        counts[lost_a, lost_d] = counts.get((lost_a, lost_d), 0) + 1
    return counts


# ------------------------------------------------------------------------------------------- single rolls

@pytest.mark.parametrize("attack_dice", [1, 2, 3])
@pytest.mark.parametrize("defend_dice", [1, 2, 3])
def test_single_roll_table_is_the_full_enumeration(attack_dice: int, defend_dice: int) -> None:
    counts = dict(roll_outcome_counts(attack_dice, defend_dice))
    assert counts == brute_force_counts(attack_dice, defend_dice)
    assert sum(counts.values()) == 6 ** (attack_dice + defend_dice)
    exact = roll_odds(attack_dice, defend_dice, exact=True)
    assert sum(exact.values()) == 1
    floats = roll_odds(attack_dice, defend_dice)
    assert all(math.isclose(floats[k], float(v)) for k, v in exact.items())


@pytest.mark.parametrize("name", RULESETS)
def test_every_ruleset_dice_combination_has_its_table(name: str) -> None:
    rules = load_ruleset(name)
    rule = DiceRule.of(rules)
    for attack_dice in range(1, rules.attacker_dice_max + 1):
        for defend_dice in range(1, rules.defender_dice_max + 1):
            counts = roll_outcome_counts(attack_dice, defend_dice)
            pairs = min(attack_dice, defend_dice)
            # Every outcome removes exactly one army per compared pair.
            assert all(la + ld == pairs for la, ld in counts)
            assert sum(counts.values()) == 6 ** (attack_dice + defend_dice)
    # The blitz uses the ruleset's maxima: a large battle rolls the maximum on both sides.
    assert rule.attack_dice(50) == rules.attacker_dice_max
    assert rule.defend_dice(50) == rules.defender_dice_max
    assert rule.attack_dice(2) == 1 and rule.defend_dice(1) == 1


def test_three_against_two_counts_from_the_issue() -> None:
    counts = roll_outcome_counts(3, 2)
    assert counts[0, 2] == 2890      # defender loses 2
    assert counts[1, 1] == 2611      # each loses 1
    assert counts[2, 0] == 2275      # attacker loses 2
    assert sum(counts.values()) == 7776


@pytest.mark.parametrize(
    ("attack", "defend", "losses"),
    [((5, 3, 2), (6, 2), (1, 1)), ((6,), (6,), (1, 0)), ((6, 4, 3), (5,), (0, 1)), ((6, 2, 2), (5, 4, 2), (2, 1))],
)
def test_worked_examples_of_the_italian_rules(attack: tuple[int, ...], defend: tuple[int, ...],
                                              losses: tuple[int, int]) -> None:
    assert battle_losses(attack, defend) == losses


@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), st.lists(st.integers(1, 6), min_size=1, max_size=3))
def test_odds_resolve_rolls_as_the_engine_does(attack: list[int], defend: list[int]) -> None:
    from conquista.rules.battle import resolve_roll as resolve_battle

    assert battle_losses(attack, defend) == resolve_battle(tuple(attack), tuple(defend))


# ------------------------------------------------------------------------------------------- blitz, exact

def naive_blitz(rule: DiceRule, stop_at: int) -> object:
    """A plain memoised recursion over (attacking, defending), straight from the rule, with brute-force rolls."""

    @cache
    def table(a: int, d: int) -> dict[tuple[int, int], Fraction]:
        counts = brute_force_counts(a, d)
        return {k: Fraction(v, 6 ** (a + d)) for k, v in counts.items()}

    @cache
    def finals(attacking: int, defending: int) -> dict[tuple[int, int], Fraction]:
        if defending == 0 or attacking <= stop_at or attacking < 2:
            return {(attacking, defending): Fraction(1)}
        out: dict[tuple[int, int], Fraction] = {}
        dice = (min(rule.attacker_dice_max, attacking - 1), min(rule.defender_dice_max, defending))
        for (la, ld), p in table(*dice).items():
            for state, q in finals(attacking - la, defending - ld).items():
                out[state] = out.get(state, Fraction(0)) + p * q
        return out

    return finals


@pytest.mark.parametrize("name", ["italian", "classic"])
@pytest.mark.parametrize("stop_at", [1, 3])
def test_blitz_matches_an_independent_recursion(name: str, stop_at: int) -> None:
    rules = load_ruleset(name)
    finals = naive_blitz(DiceRule.of(rules), stop_at)
    for attacking in range(1, 10):
        for defending in range(0, 9):
            odds = blitz_odds(rules, attacking, defending, stop_at, exact=True)
            expected = finals(attacking, defending)  # type: ignore[operator]
            assert dict(odds.outcomes) == expected
            assert odds.attacker_wins == sum((p for (_, d), p in expected.items() if d == 0), Fraction(0))


def test_small_cases_by_hand() -> None:
    italian = load_ruleset("italian")
    # 2 armies: one die against one die, the attacker must beat the defender's die: 15 of 36.
    assert blitz_odds(italian, 2, 1, exact=True).attacker_wins == Fraction(15, 36)
    # 3 armies against 1: two dice against one, conquest unless both dice are ≤ the defender's die, and if that
    # happens the attacker (now 2 armies) gets one more 1-vs-1 try.
    lose_first = Fraction(sum(d * d for d in range(1, 7)), 216)
    assert blitz_odds(italian, 3, 1, exact=True).attacker_wins == 1 - lose_first + lose_first * Fraction(15, 36)


@pytest.mark.parametrize("name", RULESETS)
def test_edge_case_one_attacker_cannot_attack(name: str) -> None:
    odds = blitz_odds(load_ruleset(name), 1, 5, exact=True)
    assert odds.attacker_wins == 0
    assert dict(odds.attacker_survivors) == {1: 1} and dict(odds.defender_survivors) == {5: 1}
    assert odds.expected_attacker_losses == 0 and odds.expected_defender_losses == 0
    assert conquest_chance(load_ruleset(name), 1, 5) == 0.0


@pytest.mark.parametrize("name", RULESETS)
def test_edge_case_no_defenders_is_already_conquered(name: str) -> None:
    for attacking in (1, 2, 7):
        odds = blitz_odds(load_ruleset(name), attacking, 0, exact=True)
        assert odds.attacker_wins == 1
        assert dict(odds.outcomes) == {(attacking, 0): 1}
        assert odds.expected_attacker_losses == 0 and odds.expected_defender_losses == 0


def test_stop_level_at_or_above_the_attackers_armies_means_no_roll() -> None:
    odds = blitz_odds(load_ruleset("italian"), 5, 3, stop_at=5)
    assert odds.attacker_wins == 0.0 and dict(odds.outcomes) == {(5, 3): 1.0}


@pytest.mark.parametrize(("attacking", "defending", "stop_at"), [(0, 3, 1), (-2, 3, 1), (5, -1, 1), (5, 3, 0)])
def test_meaningless_questions_are_errors(attacking: int, defending: int, stop_at: int) -> None:
    with pytest.raises(OddsError) as caught:
        blitz_odds(load_ruleset("italian"), attacking, defending, stop_at)
    assert isinstance(caught.value, ConquistaError) and isinstance(caught.value, ValueError)


def test_unsupported_dice_rules_are_errors() -> None:
    with pytest.raises(OddsError, match="ties"):
        DiceRule(3, 2, "attacker")
    with pytest.raises(OddsError, match="at least 1"):
        DiceRule(0, 2)


sizes = st.integers(min_value=1, max_value=25)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(RULESETS), sizes, st.integers(0, 25), st.integers(1, 4))
def test_distribution_is_consistent(name: str, attacking: int, defending: int, stop_at: int) -> None:
    rules = load_ruleset(name)
    exact = blitz_odds(rules, attacking, defending, stop_at, exact=True)
    assert sum(exact.outcomes.values()) == 1
    assert sum(exact.attacker_survivors.values()) == 1 and sum(exact.defender_survivors.values()) == 1
    assert exact.attacker_wins == exact.defender_survivors.get(0, 0)
    for (a, d), p in exact.outcomes.items():
        assert p > 0
        # A conquest leaves at least 2 on the source (the last roll cost the attacker nothing); a stop is at or
        # below the stop level with a defender left.
        assert (d == 0 and a >= min(2, attacking)) or (d > 0 and (a <= stop_at or a == 1))
    mean_a = sum(p * (attacking - a) for (a, _), p in exact.outcomes.items())
    assert exact.expected_attacker_losses == mean_a
    fast = blitz_odds(rules, attacking, defending, stop_at)
    assert math.isclose(fast.attacker_wins, float(exact.attacker_wins), abs_tol=1e-12)
    assert math.isclose(fast.expected_defender_losses, float(exact.expected_defender_losses), abs_tol=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(2, 30), st.integers(1, 30))
def test_more_attackers_help_and_more_defenders_hurt(name: str, attacking: int, defending: int) -> None:
    rules = load_ruleset(name)
    here = blitz_odds(rules, attacking, defending, exact=True).attacker_wins
    assert blitz_odds(rules, attacking + 1, defending, exact=True).attacker_wins > here
    assert blitz_odds(rules, attacking, defending + 1, exact=True).attacker_wins < here
    # Stopping earlier can only lower the chance.
    assert blitz_odds(rules, attacking, defending, stop_at=2, exact=True).attacker_wins <= here


def test_large_battles_in_float_mode_lose_no_visible_mass() -> None:
    rules = load_ruleset("classic")
    odds = blitz_odds(rules, 1000, 1000)
    assert odds.dropped < 1e-9
    assert math.isclose(sum(odds.outcomes.values()) + odds.dropped, 1.0, abs_tol=1e-12)
    assert 0.5 < odds.attacker_wins < 1.0


def test_float_mode_matches_exact_for_a_mid_size_battle() -> None:
    rules = load_ruleset("italian")
    exact = blitz_odds(rules, 120, 80, stop_at=5, exact=True)
    fast = blitz_odds(rules, 120, 80, stop_at=5)
    assert math.isclose(fast.attacker_wins, float(exact.attacker_wins), rel_tol=1e-9)
    for armies, p in exact.attacker_survivors.items():
        assert math.isclose(fast.attacker_survivors.get(armies, 0.0), float(p), abs_tol=1e-12)


def test_referee_query_is_cached_and_matches_the_full_result() -> None:
    from conquista.rules.odds import _blitz_cached

    rules = load_ruleset("french-1976")
    first = conquest_chance(rules, 17, 11, stop_at=2)
    hits = _blitz_cached.cache_info().hits
    assert conquest_chance(rules, 17, 11, stop_at=2) == first
    assert _blitz_cached.cache_info().hits == hits + 1
    assert first == blitz_odds(rules, 17, 11, stop_at=2).attacker_wins


# ------------------------------------------------------------------------------------------------ table

@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("stop_at", [1, 4])
def test_table_agrees_with_single_queries(name: str, stop_at: int) -> None:
    rules = load_ruleset(name)
    n = 12
    exact = odds_table(rules, n, stop_at, exact=True)
    fast = odds_table(rules, n, stop_at)
    assert len(exact) == n and all(len(row) == n for row in exact)
    for a in range(1, n + 1):
        for d in range(1, n + 1):
            assert exact[a - 1][d - 1] == blitz_odds(rules, a, d, stop_at, exact=True).attacker_wins
            assert math.isclose(fast[a - 1][d - 1], float(exact[a - 1][d - 1]), abs_tol=1e-12)


def test_table_size_must_be_positive() -> None:
    with pytest.raises(OddsError):
        odds_table(load_ruleset("italian"), 0)


# ----------------------------------------------------------------------------------------- Monte Carlo

def simulate_blitz(dice: SeededDice, rule: DiceRule, attacking: int, defending: int, stop_at: int) -> tuple[int, int]:
    """One blitz played roll by roll with real (seeded) dice; returns the final armies on both sides."""
    while defending > 0 and attacking > stop_at and attacking >= 2:
        attack, defend = dice.roll(min(rule.attacker_dice_max, attacking - 1),
                                   min(rule.defender_dice_max, defending))
        for a, d in zip(sorted(attack, reverse=True), sorted(defend, reverse=True), strict=False):
            if a > d:
                defending -= 1
            else:
                attacking -= 1
    return attacking, defending


@pytest.mark.parametrize(
    ("name", "attacking", "defending", "stop_at", "seed"),
    [("italian", 10, 6, 1, 11), ("italian", 25, 12, 4, 12), ("classic", 8, 8, 1, 13), ("french-1976", 15, 5, 3, 14)],
)
def test_blitz_odds_agree_with_seeded_monte_carlo(name: str, attacking: int, defending: int, stop_at: int,
                                                  seed: int) -> None:
    """Tolerance: 4.5 standard errors of the Monte Carlo estimate (sqrt(p(1-p)/N) for the conquest chance,
    the sample standard deviation over sqrt(N) for the mean losses). A correct implementation lands outside with
    probability below 1e-5 per figure, and the seed is fixed, so the test is deterministic."""
    rules = load_ruleset(name)
    rule = DiceRule.of(rules)
    odds = blitz_odds(rules, attacking, defending, stop_at)
    dice = SeededDice(seed)
    trials = 20_000
    wins = 0
    losses_a: list[int] = []
    for _ in range(trials):
        a, d = simulate_blitz(dice, rule, attacking, defending, stop_at)
        wins += d == 0
        losses_a.append(attacking - a)
    p = odds.attacker_wins
    assert abs(wins / trials - p) <= 4.5 * math.sqrt(p * (1 - p) / trials)
    mean = sum(losses_a) / trials
    sd = math.sqrt(sum((x - mean) ** 2 for x in losses_a) / (trials - 1))
    assert abs(mean - odds.expected_attacker_losses) <= 4.5 * sd / math.sqrt(trials)


def test_monte_carlo_would_notice_a_wrong_rule() -> None:
    """The tolerance above is tight enough to tell the Italian 3-dice defence from the classic 2-dice one."""
    italian, classic = load_ruleset("italian"), load_ruleset("classic")
    dice = SeededDice(5)
    trials = 20_000
    wins = sum(simulate_blitz(dice, DiceRule.of(classic), 10, 6, 1)[1] == 0 for _ in range(trials))
    p = blitz_odds(italian, 10, 6).attacker_wins
    assert abs(wins / trials - p) > 4.5 * math.sqrt(p * (1 - p) / trials)

