"""Armies and fleets (lamorisse-1954) at the table: which kind crosses a link, in words, and the chance to conquer
when a fleet's die counts less. Every ruleset without fleets reads as before: all units are armies. Pure.
"""

from __future__ import annotations

from conquista.rules.engine import Game
from conquista.rules.fleet_battle import battle_rule
from conquista.table.wording import plural


def unit(game: Game, source: int, target: int) -> str:
    """The noun of the units that cross from `source` to `target`: "fleet" over a sea link (fleets on), else
    "army"."""
    return "fleet" if game.sails(source, target) else "army"


def units(game: Game, count: int, source: int, target: int) -> str:
    """`count` units crossing from `source` to `target`: "2 fleets", "1 army"."""
    return plural(count, unit(game, source, target))


def units_on(game: Game, t: int) -> str:
    """What stands on `t` in words: "3 armies", or with fleets "3 armies and 2 fleets"."""
    fleets = game.fleets[t] if game.rules.fleets else 0
    armies = plural(game.armies[t] - fleets, "army")
    return f"{armies} and {plural(fleets, 'fleet')}" if fleets else armies


def conquest_chance(game: Game, source: int, target: int, stop_at: int = 1) -> float:
    """The chance that a blitz from `source` takes `target`, stopping at `stop_at` units on `source`.

    With fleets the attack goes on while `source` holds a unit of the link's kind, so it counts as a blitz of those
    units plus the one left behind; the target's armies fight first and its fleets last, each pairing with its own
    dice rule (a fleet's die counts less against an army), so the chance chains two blitzes."""
    from conquista.rules.odds import blitz_odds  # the exact odds, loaded once an attack is chosen

    rules, armies = game.rules, game.armies
    if not rules.fleets:
        return blitz_odds(rules, armies[source], armies[target], stop_at).attacker_wins
    sea = game.sails(source, target)
    attacking = min(armies[source], game.units_for_link(source, target) + 1)
    stop = max(1, stop_at - (armies[source] - attacking))
    fleets = game.fleets[target]
    land = armies[target] - fleets
    against_fleets = battle_rule(rules, sea, True)
    if not land:
        return blitz_odds(against_fleets, attacking, fleets, stop).attacker_wins
    first = blitz_odds(battle_rule(rules, sea, False), attacking, land, stop)
    if not fleets:
        return first.attacker_wins
    return sum(p * blitz_odds(against_fleets, left, fleets, stop).attacker_wins
               for (left, defending), p in first.outcomes.items() if defending == 0)
