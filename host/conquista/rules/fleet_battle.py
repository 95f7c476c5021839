"""A battle between a fleet and an army (lamorisse-1954): the fleet's die counts less. The engine, the odds and the
dice audit all take a battle's dice rule from here. Pure: no I/O, no random, no clock."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from conquista.rules.battle import DiceRule, RollResolver, resolver_for
from conquista.rules.choices import FleetHandicap

if TYPE_CHECKING:
    from conquista.rules.ruleset import Ruleset


def fleet_handicaps(rules: Ruleset, attack_fleet: bool, defend_fleet: bool) -> tuple[int, int]:
    """The extra handicap of each side's die in a battle of these units (0, 0 unless a fleet meets an army)."""
    if not rules.fleets or attack_fleet == defend_fleet:
        return 0, 0
    if attack_fleet:
        return rules.fleet_die_handicap, 0
    return 0, rules.fleet_die_handicap if rules.fleet_handicap is FleetHandicap.EVERY_BATTLE else 0


def battle_rule(rules: Ruleset, attack_fleet: bool, defend_fleet: bool) -> DiceRule:
    """The dice rule of one battle: the ruleset's, with a fleet's handicap added where a fleet meets an army."""
    base = DiceRule.of(rules)
    attack, defence = fleet_handicaps(rules, attack_fleet, defend_fleet)
    if not attack and not defence:
        return base
    return replace(base, attack_die_handicap=base.attack_die_handicap + attack,
                   defence_die_handicap=base.defence_die_handicap + defence)


def battle_resolvers(rules: Ruleset) -> dict[tuple[bool, bool], RollResolver]:
    """The resolver of each pairing (attacker is a fleet, defender is a fleet)."""
    return {(a, d): resolver_for(battle_rule(rules, a, d)) for a in (False, True) for d in (False, True)}
