"""Playing a copy of the game ahead and scoring where it ends: the hard bot's tools (its turn plan in `hard.py`, its
attacks in `hard_attack.py`). The copies are the seat's own view (`seat_view`); the dice are the bot's own.
"""

from __future__ import annotations

import math

from conquista.bots.planner import PlannerBot
from conquista.bots.planner_values import DESTROY, Objective
from conquista.dice.chance import chance_action
from conquista.dice.sources import SeededDice
from conquista.rules.engine import Game
from conquista.rules.events import Phase

INCOME_WEIGHT = 3.0       # armies' worth of one army of income in a seat's strength
CARD_WEIGHT = 1.5         # ... of one card in hand
MISSION_WEIGHT = 0.5      # share of the planner's worth of a territory to the mission counted as strength
SURE = 1.0                # standard errors another choice must beat the planner's by


def mission_worth(game: Game, me: int, objective: Objective) -> float:
    """What `me`'s territories are worth to its own objective, in armies (the planner's weights): the territories
    of the continents its mission names, its territory count, the colour it must destroy."""
    territories = game.map.territories
    weights, per_territory = objective.continent_weight, objective.territory_weight
    worth = 0.0
    for t, holder in enumerate(game.owner):
        if holder == me:
            worth += weights[territories[t].continent] + per_territory
    target = objective.target_seat
    if target is not None and target < game.players:
        worth -= DESTROY * game.territory_count[target]
    return worth


def strength_share(game: Game, me: int, objective: Objective | None = None) -> float:
    """How much of the table's strength `me` holds: 1 when it has won, 0 when another has; else its armies, the
    reinforcements it would get, its cards and (given its objective) what its territories are worth to it, against
    everyone's."""
    if game.phase is Phase.OVER:
        return 1.0 if game.winner == me else 0.0
    strength = [0.0] * game.players
    for t, holder in enumerate(game.owner):
        if 0 <= holder < game.players:
            strength[holder] += game.armies[t]
    for seat in range(game.players):
        if game.eliminated[seat]:
            strength[seat] = 0.0
            continue
        strength[seat] += INCOME_WEIGHT * game.reinforcements_for(seat) + CARD_WEIGHT * len(game.hands[seat])
    if objective is not None:
        strength[me] = max(0.0, strength[me] + MISSION_WEIGHT * mission_worth(game, me, objective))
    total = sum(strength)
    return strength[me] / total if total else 0.0


def public_seed(game: Game, me: int) -> str:
    """A seed made of what every seat sees: the same position gives the same tries."""
    return f"hard:{game.turn}:{me}:{sum(game.armies)}:{game.territory_count[me]}:{game.phase.value}"


def play_round(game: Game, me: int, bots: dict[int, PlannerBot], dice: SeededDice, cap: int) -> int:
    """Plays `game` on until `me`'s next turn starts, the game ends or `cap` steps are played; the steps played."""
    start = game.turn
    apply = game.apply
    for step in range(cap):
        phase = game.phase
        if phase is Phase.OVER or (game.turn != start and game.current == me):
            return step
        who = game.to_move
        apply(bots[who].choose(game) if isinstance(who, int) else chance_action(game, dice))
    return cap


def clear_gain(steady: list[float], other: list[float]) -> float:
    """How much better `other` did than `steady` over the same tries, less one standard error of that difference:
    a way of playing replaces the steady one only when it is clearly better, not when the dice favoured it."""
    diffs = [b - a for a, b in zip(steady, other, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2 or not any(diffs):
        return mean
    spread = math.sqrt(sum((d - mean) * (d - mean) for d in diffs) / (n - 1))
    return mean - SURE * spread / math.sqrt(n)
