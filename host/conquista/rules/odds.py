"""Exact battle odds for a ruleset's dice rule: single rolls, blitzes, the N×N table.

Pure: no I/O, no randomness, no clock. Two number modes:

* exact: every probability is a `fractions.Fraction`. Internally a probability is kept as an integer numerator
  over a power of 6 (every roll of k dice has 6**k equally likely results), so the hot loop multiplies and adds
  integers and never computes a gcd; the Fraction is built once per reported number.
* fast (float): the same chain in floats. Paths whose probability falls below `FLOAT_CUTOFF` are dropped (their
  total is reported as `BattleOdds.dropped`, typically far below 1e-12), which keeps 1000 vs 1000 well under a
  second in pure Python.

Counting convention, the one players use at the table: ATTACKING is the number of armies on the attacking
territory, *including the army that must stay behind*; DEFENDING is the number on the target. A blitz rolls the
maximum dice on both sides (the defender policy "automatic maximum"), and goes on while the target still has
armies and the attacking territory holds more than `stop_at` armies (and at least 2, so it may attack at all) —
the same loop the engine runs for a Blitz action, so a roll may take the attacker below the stop level.

Ties re-rolled (`ties = "reroll"`): a void roll (a tied pair, `rules.battle.VOID_ROLL`) changes nothing and is rolled
again, so every probability here is conditioned on the roll not being void: a roll's outcomes are counted over the
rolls that are not void, and a blitz moves only on those. The denominators are then not powers of 6; the exact
chain keeps a numerator over a power of one common base (the lcm of the rolls' counts) instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import product
from math import lcm
from types import MappingProxyType
from typing import Generic, Literal, TypeVar, cast, overload

from conquista.errors import OddsError as OddsError
from conquista.rules.battle import CLASSIC_DICE, VOID_ROLL, DiceRule, HasDiceRule, resolve_roll

__all__ = ["BattleOdds", "DiceRule", "HasDiceRule", "OddsError", "battle_losses", "blitz_odds", "conquest_chance",
           "odds_table", "roll_odds", "roll_outcome_counts", "summarize", "void_rolls"]

FACES = 6
# Float mode drops a state whose probability is below this. Each dropped state loses less than this much mass,
# and a blitz has at most (A + 1) * (D + 1) states, so 1000 vs 1000 can lose at most ~1e-12 in total.
FLOAT_CUTOFF = 1e-18

P = TypeVar("P", float, Fraction)


def battle_losses(attack: tuple[int, ...] | list[int], defend: tuple[int, ...] | list[int],
                  rule: DiceRule = CLASSIC_DICE) -> tuple[int, int]:
    """(attacker losses, defender losses) of one roll: the engine's own rule (`rules.battle.resolve_roll`)."""
    return resolve_roll(attack, defend, rule)


@cache
def _sorted_rolls(dice: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    # Every ordered roll of `dice` dice, grouped by its sorted form with the number of ordered rolls behind it;
    # comparing the groups pairwise is the full enumeration at a fraction of the work.
    groups = Counter(tuple(sorted(roll, reverse=True)) for roll in product(range(1, FACES + 1), repeat=dice))
    return tuple(sorted(groups.items()))


@cache
def roll_outcome_counts(attack_dice: int, defend_dice: int,
                        rule: DiceRule = CLASSIC_DICE) -> Mapping[tuple[int, int], int]:
    """Exhaustive count of the 6**(a+d) rolls by final outcome (attacker losses, defender losses) under `rule`.
    Void rolls (ties re-rolled) are not final and not counted: see `void_rolls`."""
    counts = _all_outcome_counts(attack_dice, defend_dice, rule)
    return MappingProxyType({k: v for k, v in counts.items() if k != VOID_ROLL})


@cache
def _all_outcome_counts(attack_dice: int, defend_dice: int, rule: DiceRule) -> dict[tuple[int, int], int]:
    if attack_dice < 1 or defend_dice < 1:
        raise OddsError(f"a roll needs at least one die on each side, got {attack_dice} vs {defend_dice}")
    counts: Counter[tuple[int, int]] = Counter()
    for attack, a_ways in _sorted_rolls(attack_dice):
        for defend, d_ways in _sorted_rolls(defend_dice):
            counts[resolve_roll(attack, defend, rule)] += a_ways * d_ways
    return dict(sorted(counts.items()))


def void_rolls(attack_dice: int, defend_dice: int, rule: DiceRule = CLASSIC_DICE) -> int:
    """How many of the 6**(a+d) rolls are void (a tied pair under ties = "reroll"; 0 under any other tie rule)."""
    return _all_outcome_counts(attack_dice, defend_dice, rule).get(VOID_ROLL, 0)


@overload
def roll_odds(attack_dice: int, defend_dice: int, *, exact: Literal[True], rule: DiceRule = CLASSIC_DICE,
              with_void: bool = False) -> Mapping[tuple[int, int], Fraction]:
    ...


@overload
def roll_odds(attack_dice: int, defend_dice: int, *, exact: Literal[False] = False, rule: DiceRule = CLASSIC_DICE,
              with_void: bool = False) -> Mapping[tuple[int, int], float]:
    ...


def roll_odds(attack_dice: int, defend_dice: int, *, exact: bool = False, rule: DiceRule = CLASSIC_DICE,
              with_void: bool = False) -> Mapping[tuple[int, int], Fraction] | Mapping[tuple[int, int], float]:
    """Probability of each final outcome (attacker losses, defender losses) of one roll: under ties re-rolled,
    conditioned on the roll not being void. `with_void`: the distribution of one roll as thrown (and logged)
    instead, the void roll `VOID_ROLL` (0, 0) included when the rule has one."""
    counts: Mapping[tuple[int, int], int]
    if with_void:
        counts = _all_outcome_counts(attack_dice, defend_dice, rule)
        total = FACES ** (attack_dice + defend_dice)
    else:
        counts = roll_outcome_counts(attack_dice, defend_dice, rule)
        total = sum(counts.values())
    if exact:
        return MappingProxyType({k: Fraction(v, total) for k, v in counts.items()})
    return MappingProxyType({k: v / total for k, v in counts.items()})


# ---------------------------------------------------------------------------------------------------- blitz

@dataclass(frozen=True)
class BattleOdds(Generic[P]):
    """Everything about one blitz. Probabilities are Fractions (exact) or floats (fast).

    `outcomes` maps each final (attacking armies, defending armies) to its probability: defending 0 is a conquest
    (attacking then counts the armies on the source before moving in); otherwise the attacker stopped at or below
    `stop_at`. The survivor maps are the two marginals of `outcomes`.
    """

    attacking: int
    defending: int
    stop_at: int
    attacker_wins: P
    outcomes: Mapping[tuple[int, int], P]
    attacker_survivors: Mapping[int, P]
    defender_survivors: Mapping[int, P]
    expected_attacker_losses: P
    expected_defender_losses: P
    dropped: float = 0.0


def _check_counts(attacking: int, defending: int, stop_at: int) -> None:
    if attacking < 1:
        raise OddsError(f"the attacking territory holds at least 1 army, got {attacking}")
    if defending < 0:
        raise OddsError(f"the defending territory cannot hold {defending} armies")
    if stop_at < 1:
        raise OddsError(f"the stop level is at least 1 (one army always stays behind), got {stop_at}")


@cache
def _base(rule: DiceRule) -> int:
    # A final outcome of `_transitions` has probability ways / base**k: base 6 and k the dice thrown when no roll is
    # void; with void rolls, the lcm of the final rolls' counts and k = 1.
    if not rule.rerolls_ties:
        return FACES
    return lcm(*(sum(roll_outcome_counts(a, d, rule).values())
                 for a in range(1, rule.attacker_dice_max + 1) for d in range(1, rule.defender_dice_max + 1)))


@cache
def _transitions(rule: DiceRule) -> dict[tuple[int, int], tuple[tuple[int, int, int, int], ...]]:
    # For each (attack dice, defence dice): (attacker losses, defender losses, ways, k), probability ways / base**k.
    table = {}
    base = _base(rule)
    for a in range(1, rule.attacker_dice_max + 1):
        for d in range(1, rule.defender_dice_max + 1):
            counts = roll_outcome_counts(a, d, rule)
            if base == FACES:
                table[a, d] = tuple((la, ld, ways, a + d) for (la, ld), ways in counts.items())
            else:
                scale = base // sum(counts.values())
                table[a, d] = tuple((la, ld, ways * scale, 1) for (la, ld), ways in counts.items())
    return table


def summarize(attacking: int, defending: int, stop_at: int, finals: dict[tuple[int, int], P], zero: P,
              dropped: float) -> BattleOdds[P]:
    """The BattleOdds of a blitz from the probability of each final (attacking, defending) state: the conquest
    chance, both survivor maps and the expected losses. `finals` becomes `outcomes` as it is, in its order."""
    attacker: dict[int, P] = {}
    defender: dict[int, P] = {}
    wins = zero
    lost_a = zero
    lost_d = zero
    for (a, d), p in sorted(finals.items()):
        attacker[a] = attacker.get(a, zero) + p
        defender[d] = defender.get(d, zero) + p
        if d == 0:
            wins += p
        lost_a += p * (attacking - a)
        lost_d += p * (defending - d)
    return BattleOdds(attacking, defending, stop_at, wins, MappingProxyType(finals),
                      MappingProxyType(dict(sorted(attacker.items()))),
                      MappingProxyType(dict(sorted(defender.items()))), lost_a, lost_d, dropped)


def _blitz_float(rule: DiceRule, attacking: int, defending: int, stop_at: int) -> BattleOdds[float]:
    base = _base(rule)
    trans = {key: tuple((la, ld, ways / base ** n) for la, ld, ways, n in moves)
             for key, moves in _transitions(rule).items()}
    amax, dmax = rule.attacker_dice_max, rule.defender_dice_max
    # Every roll removes at least one army, so the states on diagonal s = A + D only feed lower diagonals:
    # one sweep from the top diagonal down visits each state once, after all its mass has arrived.
    top = attacking + defending
    pending: list[dict[int, float] | None] = [None] * (top + 1)
    pending[top] = {attacking: 1.0}
    finals: dict[tuple[int, int], float] = {}
    dropped = 0.0
    cutoff = FLOAT_CUTOFF
    for s in range(top, -1, -1):
        layer = pending[s]
        if layer is None:
            continue
        pending[s] = None
        for a_armies, p in layer.items():
            if p < cutoff:
                dropped += p
                continue
            d_armies = s - a_armies
            if d_armies == 0 or a_armies <= stop_at or a_armies < 2:
                finals[a_armies, d_armies] = p
                continue
            moves = trans[a_armies - 1 if a_armies - 1 < amax else amax, d_armies if d_armies < dmax else dmax]
            for la, ld, q in moves:
                target = pending[s - la - ld]
                if target is None:
                    target = pending[s - la - ld] = {}
                nxt = a_armies - la
                target[nxt] = target.get(nxt, 0.0) + p * q
    return summarize(attacking, defending, stop_at, finals, 0.0, dropped)


def _blitz_exact(rule: DiceRule, attacking: int, defending: int, stop_at: int) -> BattleOdds[Fraction]:
    trans, base = _transitions(rule), _base(rule)
    amax, dmax = rule.attacker_dice_max, rule.defender_dice_max
    # A state's mass is numerator / base**exponent (base 6 unless rolls may be void). Paths into one state may have
    # thrown different numbers of dice, so adding aligns the smaller exponent up; integers only, no gcd in the loop.
    top = attacking + defending
    pending: list[dict[int, tuple[int, int]] | None] = [None] * (top + 1)
    pending[top] = {attacking: (1, 0)}
    finals: dict[tuple[int, int], Fraction] = {}
    for s in range(top, -1, -1):
        layer = pending[s]
        if layer is None:
            continue
        pending[s] = None
        for a_armies, (num, exp) in layer.items():
            d_armies = s - a_armies
            if d_armies == 0 or a_armies <= stop_at or a_armies < 2:
                finals[a_armies, d_armies] = Fraction(num, base ** exp)
                continue
            moves = trans[min(amax, a_armies - 1), min(dmax, d_armies)]
            for la, ld, ways, thrown in moves:
                target = pending[s - la - ld]
                if target is None:
                    target = pending[s - la - ld] = {}
                nxt = a_armies - la
                n2, e2 = num * ways, exp + thrown
                old = target.get(nxt)
                if old is not None:
                    n1, e1 = old
                    if e1 < e2:
                        n2 += n1 * base ** (e2 - e1)
                    elif e1 > e2:
                        n2 = n2 * base ** (e1 - e2) + n1
                        e2 = e1
                    else:
                        n2 += n1
                target[nxt] = (n2, e2)
    return summarize(attacking, defending, stop_at, finals, Fraction(0), 0.0)


@lru_cache(maxsize=1024)
def _blitz_cached(rule: DiceRule, attacking: int, defending: int, stop_at: int,
                  exact: bool) -> BattleOdds[float] | BattleOdds[Fraction]:
    if exact:
        return _blitz_exact(rule, attacking, defending, stop_at)
    return _blitz_float(rule, attacking, defending, stop_at)


@overload
def blitz_odds(rules: HasDiceRule, attacking: int, defending: int, stop_at: int = 1, *,
               exact: Literal[True]) -> BattleOdds[Fraction]: ...


@overload
def blitz_odds(rules: HasDiceRule, attacking: int, defending: int, stop_at: int = 1, *,
               exact: Literal[False] = False) -> BattleOdds[float]: ...


@overload
def blitz_odds(rules: HasDiceRule, attacking: int, defending: int, stop_at: int = 1, *,
               exact: bool) -> BattleOdds[float] | BattleOdds[Fraction]: ...


def blitz_odds(rules: HasDiceRule, attacking: int, defending: int, stop_at: int = 1, *,
               exact: bool = False) -> BattleOdds[float] | BattleOdds[Fraction]:
    """The full result of a blitz from `attacking` (incl. the army left behind) against `defending`.

    Defined edge cases: 0 defenders is a conquest with certainty and no losses; an attacker at or below the stop
    level (1 army always is) does not roll, so the conquest chance is 0 and nothing is lost.
    """
    _check_counts(attacking, defending, stop_at)
    return _blitz_cached(DiceRule.of(rules), attacking, defending, stop_at, exact)


def conquest_chance(rules: HasDiceRule, attacking: int, defending: int, stop_at: int = 1) -> float:
    """Chance that a blitz takes the target: what the referee shows once a source and a target are selected.

    Cached (with the rest of the blitz result), so calling it on every tap costs a dictionary look-up.
    """
    return blitz_odds(rules, attacking, defending, stop_at).attacker_wins


# ---------------------------------------------------------------------------------------------------- table

@lru_cache(maxsize=64)
def _table_cached(rule: DiceRule, n: int, stop_at: int, exact: bool) -> tuple[tuple[float | Fraction, ...], ...]:
    one: float | Fraction = Fraction(1) if exact else 1.0
    zero: float | Fraction = Fraction(0) if exact else 0.0
    base = _base(rule)
    moves = {key: tuple((la, ld, Fraction(ways, base ** k) if exact else ways / base ** k)
                        for la, ld, ways, k in value) for key, value in _transitions(rule).items()}
    # Backward induction: win[A][D] is a weighted sum of states with fewer armies on one side or both, so rows
    # in increasing A and columns in increasing D are always ready. One pass gives the whole table.
    win: list[list[float | Fraction]] = [[zero] * (n + 1) for _ in range(n + 1)]
    for a_armies in range(1, n + 1):
        row = win[a_armies]
        row[0] = one
        if a_armies <= stop_at or a_armies < 2:
            continue
        for d_armies in range(1, n + 1):
            total = zero
            for la, ld, q in moves[rule.attack_dice(a_armies), rule.defend_dice(d_armies)]:
                total += q * win[a_armies - la][d_armies - ld]
            row[d_armies] = total
    return tuple(tuple(row[1:]) for row in win[1:])


@overload
def odds_table(rules: HasDiceRule, n: int, stop_at: int = 1, *,
               exact: Literal[True]) -> tuple[tuple[Fraction, ...], ...]: ...


@overload
def odds_table(rules: HasDiceRule, n: int, stop_at: int = 1, *,
               exact: Literal[False] = False) -> tuple[tuple[float, ...], ...]: ...


@overload
def odds_table(rules: HasDiceRule, n: int, stop_at: int = 1, *,
               exact: bool) -> tuple[tuple[float, ...], ...] | tuple[tuple[Fraction, ...], ...]: ...


def odds_table(rules: HasDiceRule, n: int, stop_at: int = 1, *,
               exact: bool = False) -> tuple[tuple[float, ...], ...] | tuple[tuple[Fraction, ...], ...]:
    """Conquest chances for ATTACKING 1..n (rows, incl. the army left behind) by DEFENDING 1..n (columns).

    `odds_table(r, n)[A - 1][D - 1] == blitz_odds(r, A, D).attacker_wins`.
    """
    if n < 1:
        raise OddsError(f"the table size is at least 1, got {n}")
    _check_counts(1, 0, stop_at)
    # The cached tuple holds Fractions exactly when `exact` is true, which is what the overloads promise.
    return cast("tuple[tuple[float, ...], ...] | tuple[tuple[Fraction, ...], ...]",
                _table_cached(DiceRule.of(rules), n, stop_at, exact))


def clear_caches() -> None:
    """Forget every cached result (benchmarks time cold computations)."""
    _blitz_cached.cache_clear()
    _table_cached.cache_clear()
    _transitions.cache_clear()
    _base.cache_clear()
    roll_outcome_counts.cache_clear()
    _all_outcome_counts.cache_clear()
    _sorted_rolls.cache_clear()
