"""The planner's view of the dice: exact blitz odds from `rules.odds`, cached per dice rule.

A decision looks at dozens of (attacking, defending) pairs, and a game repeats the same pairs thousands of times, so
each blitz is computed once per process and dice rule and then costs one dictionary look-up. Very large stacks are
scaled down to `MAX_ARMIES` in total (the ratio kept), which leaves the chance nearly unchanged and bounds the time.
"""

from __future__ import annotations

from conquista.rules.battle import DiceRule, HasDiceRule
from conquista.rules.odds import blitz_odds, roll_outcome_counts

MAX_ARMIES = 240

# (attacking, defending, stop_at) -> (conquest chance, expected attacker losses, expected defender losses)
Blitz = tuple[float, float, float]


class PlannerOdds:
    """Blitz figures for one dice rule; `odds_for(rules)` shares one instance per rule."""

    __slots__ = ("_blitz", "_hold", "rule")

    def __init__(self, rule: DiceRule) -> None:
        self.rule = rule
        self._blitz: dict[tuple[int, int, int], Blitz] = {}
        self._hold: dict[tuple[int, int, int, int], float] = {}

    def blitz(self, attacking: int, defending: int, stop_at: int = 1) -> Blitz:
        """Chance to take the target and the expected losses of both sides, for a blitz from `attacking` armies
        (the one that stays behind included) against `defending`, stopping at `stop_at`."""
        key = (attacking, defending, stop_at)
        found = self._blitz.get(key)
        if found is not None:
            return found
        scale = 1.0
        a, d, s = attacking, defending, stop_at
        if a + d > MAX_ARMIES:
            scale = (a + d) / MAX_ARMIES
            a, d, s = max(1, round(a / scale)), max(1, round(d / scale)), max(1, round(s / scale))
        odds = blitz_odds(self.rule, a, d, s)
        found = (odds.attacker_wins, odds.expected_attacker_losses * scale, odds.expected_defender_losses * scale)
        self._blitz[key] = found
        return found

    def chance(self, attacking: int, defending: int, stop_at: int = 1) -> float:
        return self.blitz(attacking, defending, stop_at)[0]

    def hold_chance(self, attacking: int, defending: int, stop_at: int, dice: int) -> float:
        """Chance the defender keeps the territory if it rolls `dice` now and the maximum afterwards, against an
        attacker rolling the most dice until the target falls or it is down to `stop_at`."""
        key = (attacking, defending, stop_at, dice)
        found = self._hold.get(key)
        if found is not None:
            return found
        attack_dice = self.rule.attack_dice(attacking)
        counts = roll_outcome_counts(attack_dice, dice, self.rule)
        total = sum(counts.values())
        held = 0.0
        for (lost_a, lost_d), ways in counts.items():
            a, d = attacking - lost_a, defending - lost_d
            if d <= 0:
                continue
            p_taken = 0.0 if a <= stop_at or a < 2 else self.chance(a, d, stop_at)
            held += ways / total * (1.0 - p_taken)
        self._hold[key] = held
        return held

    def best_defence(self, attacking: int, defending: int, stop_at: int, most: int) -> int:
        """The number of defence dice (1..most) that keeps the territory most often; ties go to more dice."""
        best, best_hold = most, -1.0
        for dice in range(most, 0, -1):
            hold = self.hold_chance(attacking, defending, stop_at, dice)
            if hold > best_hold + 1e-12:
                best, best_hold = dice, hold
        return best


_SHARED: dict[DiceRule, PlannerOdds] = {}


def odds_for(rules: HasDiceRule) -> PlannerOdds:
    rule = DiceRule.of(rules)
    found = _SHARED.get(rule)
    if found is None:
        found = _SHARED[rule] = PlannerOdds(rule)
    return found
