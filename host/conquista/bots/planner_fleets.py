"""The planner with fleets (lamorisse-1954): how much an enemy stack across a link really threatens, and where to
build up the units of a crossing that is not worth attacking yet.

A fleet's die counting 2 less against an army makes an attack across the sea on armies cost about 4.3 fleets per
army taken (6 of the 32 rolls that decide go to the fleet), so neither the planner's defence nor its build-up may
count units one for one: each pairing's exchange rate (`FleetOdds.rate`) weighs them.
"""

from __future__ import annotations

from conquista.bots.planner_odds import FleetOdds
from conquista.bots.planner_values import may_target
from conquista.rules.engine import Game


def crossing_threat(game: Game, odds: FleetOdds, me: int, t: int) -> int:
    """The strongest enemy stack next to `t`, in `t`'s defending units it may expect to destroy: the enemy's units
    of each link's kind, weighed by the pairing's exchange rate (40 fleets against armies weigh about 9)."""
    owner, neighbours = game.owner, game.map.neighbours[t]
    defend_fleet = game.defending_fleet(t)
    worst = 0.0
    for n in neighbours:
        if owner[n] != me:
            weight = game.units_for_link(n, t) * odds.rate[game.sails(n, t), defend_fleet]
            if weight > worst:
                worst = weight
    return int(worst + 0.5)


def crossing_cost(game: Game, odds: FleetOdds, source: int, target: int) -> float:
    """About how many units of the link's kind taking `target` from `source` costs: its armies, then its fleets,
    each at the exchange rate of its pairing."""
    sea = game.sails(source, target)
    fleets = game.fleets[target]
    # A pairing that never wins (a handicap of 5) costs a hundred units a unit: never worth building up for.
    return ((game.armies[target] - fleets) / max(0.01, odds.rate[sea, False])
            + fleets / max(0.01, odds.rate[sea, True]))


def staging(game: Game, odds: FleetOdds, me: int, value: list[float]) -> tuple[int, int] | None:
    """The crossing (own territory, enemy neighbour) to build up for when no attack is worth it yet: the most
    valuable target for the units still missing to take it; None when every target has enough units facing it."""
    owner, neighbours = game.owner, game.map.neighbours
    best: tuple[int, int] | None = None
    best_key = (0.0, 0)
    for s, holder in enumerate(owner):
        if holder != me:
            continue
        for t in neighbours[s]:
            if owner[t] == me or not may_target(game, t):
                continue
            usable = game.units_for_link(s, t)
            # Enough to take it and to keep it through the enemy's next turn.
            missing = (crossing_cost(game, odds, s, t) + 1.5 * counter_threat(game, odds, me, s, t) + 1
                       - usable)
            if missing <= 0:
                continue  # enough there already: the attack phase will see to it
            key = (value[t] / (1.0 + missing), usable)
            if best is None or key > best_key:
                best, best_key = (s, t), key
    return best


def counter_threat(game: Game, odds: FleetOdds, me: int, source: int, target: int) -> float:
    """After taking `target` from `source`, the enemy units next to it that may strike back, in units of the kind
    that moved in (fleets landed on a coast weigh an enemy army about 4.3 times)."""
    owner, neighbours = game.owner, game.map.neighbours[target]
    held_by_fleets = game.sails(source, target)
    total = 0.0
    for n in neighbours:
        if n != source and owner[n] != me and owner[n] >= 0 and game.armies[n] >= 2:
            total += (game.units_for_link(n, target) - 1) * odds.rate[game.sails(n, target), held_by_fleets]
    return total


def hold_chance(game: Game, odds: FleetOdds, me: int, source: int, target: int, moving_in: float) -> float:
    """A rough chance to keep `target` through the enemy's next turn with `moving_in` units there: a territory
    taken only to be taken back is not worth the units (a fleet on a coast facing armies, most of all)."""
    threat = counter_threat(game, odds, me, source, target)
    if threat <= 0 or moving_in >= 1.5 * threat:
        return 1.0
    return max(0.2, moving_in / (1.5 * threat))
