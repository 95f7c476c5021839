"""Blitz odds where fleets fight (lamorisse-1954): the units of the link's kind attack, the target defends with its
armies first and its fleets last, and each pairing of units has its own dice rule (`fleet_battle.battle_rule`).

A blitz is then two chains of `odds.blitz_odds` one after the other: against the target's armies under the rule
of (attacking unit, army), then, from every state where the armies are gone, against its fleets under the rule of
(attacking unit, fleet). Counting convention as in `rules.odds`: ATTACKING counts every unit on the attacking
territory (the one that stays behind included), of which `usable` are of the link's kind (fleets over a sea link,
armies over land): the engine's blitz goes on while the attacking territory holds more than `stop_at` units and
has a unit of that kind left, so it stops after min(ATTACKING - stop_at, usable) losses, which is a plain blitz
with the stop level max(stop_at, ATTACKING - usable). Pure: no I/O, no random, no clock.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, overload

from conquista.errors import OddsError
from conquista.rules.fleet_battle import battle_rule
from conquista.rules.odds import BattleOdds, blitz_odds, summarize

if TYPE_CHECKING:
    from conquista.rules.ruleset import Ruleset


@overload
def fleet_blitz_odds(rules: Ruleset, attacking: int, defending: int, stop_at: int = 1, *, attack_fleet: bool = False,
                     usable: int | None = None, defending_fleets: int = 0,
                     exact: Literal[False] = False) -> BattleOdds[float]: ...


@overload
def fleet_blitz_odds(rules: Ruleset, attacking: int, defending: int, stop_at: int = 1, *, attack_fleet: bool = False,
                     usable: int | None = None, defending_fleets: int = 0,
                     exact: Literal[True]) -> BattleOdds[Fraction]: ...


def fleet_blitz_odds(rules: Ruleset, attacking: int, defending: int, stop_at: int = 1, *, attack_fleet: bool = False,
                     usable: int | None = None, defending_fleets: int = 0,
                     exact: bool = False) -> BattleOdds[float] | BattleOdds[Fraction]:
    """The blitz from `attacking` units (`usable` of them of the link's kind, all by default; fleets when
    `attack_fleet`) against `defending` units, the last `defending_fleets` of them fleets. `outcomes` and the
    survivor maps count all units on each territory; `stop_at` is the one asked for."""
    usable = attacking if usable is None else usable
    if not 0 <= usable <= attacking:
        raise OddsError(f"the units of the link's kind are 0 to the {attacking} attacking, not {usable}")
    if not 0 <= defending_fleets <= defending:
        raise OddsError(f"the defending fleets are 0 to the {defending} defending units, not {defending_fleets}")
    if (attack_fleet or defending_fleets) and not rules.fleets:
        raise OddsError(f"{rules.name} has no fleets")
    stop = max(stop_at, attacking - usable, 1)
    first = blitz_odds(battle_rule(rules, attack_fleet, False), attacking, defending - defending_fleets, stop,
                       exact=exact)
    zero: Any = Fraction(0) if exact else 0.0
    finals: dict[tuple[int, int], Any] = {}
    dropped = first.dropped
    last_rule = battle_rule(rules, attack_fleet, True)
    for (a, d), p in first.outcomes.items():
        if d or not defending_fleets:
            finals[a, d + defending_fleets] = finals.get((a, d + defending_fleets), zero) + p
            continue
        then = blitz_odds(last_rule, a, defending_fleets, stop, exact=exact)
        dropped += then.dropped
        for key, q in then.outcomes.items():
            finals[key] = finals.get(key, zero) + p * q
    return summarize(attacking, defending, stop_at, dict(sorted(finals.items())), zero, dropped)

