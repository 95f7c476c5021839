"""The planner's view of the dice: exact blitz odds from `rules.odds` (`rules.fleet_odds` where fleets fight),
cached per dice rule.

A decision looks at dozens of (attacking, defending) pairs, and a game repeats the same pairs thousands of times, so
each blitz is computed once per process and dice rule and then costs one dictionary look-up. Very large stacks are
scaled down to `MAX_ARMIES` in total (the ratio kept), which leaves the chance nearly unchanged and bounds the time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.battle import DiceRule, HasDiceRule
from conquista.rules.fleet_battle import battle_rule
from conquista.rules.fleet_odds import fleet_blitz_odds
from conquista.rules.odds import blitz_odds, roll_outcome_counts

if TYPE_CHECKING:
    from conquista.rules.ruleset import Ruleset

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


class FleetOdds:
    """Blitz figures where fleets fight (lamorisse-1954): the attacking units of the link's kind against the
    target's armies, then its fleets, each pairing under its own dice rule; `fleet_odds_for(rules)` shares one
    instance per set of battle rules."""

    __slots__ = ("_blitz", "rate", "rules")

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self._blitz: dict[tuple[int, int, int, int, bool, int], Blitz] = {}
        # Defending units lost per attacking unit lost in a roll of the most dice, for each pairing (attacker is a
        # fleet, defender is a fleet): 1 between equals, 6/26 for a fleet attacking an army with one die each.
        self.rate: dict[tuple[bool, bool], float] = {}
        for key in ((False, False), (False, True), (True, False), (True, True)):
            rule = battle_rule(rules, *key)
            counts = roll_outcome_counts(rule.attacker_dice_max, rule.defender_dice_max, rule)
            lost = sum(ways * la for (la, _), ways in counts.items())
            killed = sum(ways * ld for (_, ld), ways in counts.items())
            self.rate[key] = killed / lost if lost else float(killed)

    def blitz(self, attacking: int, usable: int, defending: int, defending_fleets: int, attack_fleet: bool,
              stop_at: int = 1) -> Blitz:
        """As `PlannerOdds.blitz`, `usable` of the `attacking` units being of the link's kind (fleets when
        `attack_fleet`) and the last `defending_fleets` of the `defending` units fleets."""
        key = (attacking, usable, defending, defending_fleets, attack_fleet, stop_at)
        found = self._blitz.get(key)
        if found is not None:
            return found
        scale = 1.0
        a, u, d, f, s = attacking, usable, defending, defending_fleets, stop_at
        if a + d > MAX_ARMIES:
            scale = (a + d) / MAX_ARMIES
            a, d, s = max(1, round(a / scale)), max(1, round(d / scale)), max(1, round(s / scale))
            u, f = min(a, round(u / scale)), min(d, round(f / scale))
        odds = fleet_blitz_odds(self.rules, a, d, s, attack_fleet=attack_fleet, usable=u, defending_fleets=f)
        found = (odds.attacker_wins, odds.expected_attacker_losses * scale, odds.expected_defender_losses * scale)
        self._blitz[key] = found
        return found


_SHARED_FLEETS: dict[tuple[DiceRule, ...], FleetOdds] = {}


def fleet_odds_for(rules: Ruleset) -> FleetOdds:
    key = tuple(battle_rule(rules, a, d) for a in (False, True) for d in (False, True))
    found = _SHARED_FLEETS.get(key)
    if found is None:
        found = _SHARED_FLEETS[key] = FleetOdds(rules)
    return found
