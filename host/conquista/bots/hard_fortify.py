"""The hard bot's fortify move, weighed by trying it: the planner's move, not moving, and the few moves that take the
most armies to a territory facing the enemy are each played out to its next turn on copies of the game as the seat
may know it, with the same dice for each, and scored by the share of the table's strength then held
(`hard_attack.weigh`). The planner's move is kept unless another did clearly better.
"""

from __future__ import annotations

from conquista.bots.planner import make_view, threat
from conquista.rules.actions import Action, EndPhase, Fortify
from conquista.rules.engine import Game

MOVES = 4    # the moves toward the front tried, besides the planner's and not moving


def fortify_moves(game: Game, me: int, planned: Action) -> list[Action]:
    """The planner's move first, then not moving, then the moves of every spare army of a territory to a neighbour
    that faces the enemy, the most armies to the most danger first."""
    view = make_view(game, me)
    owner, armies, neighbours = game.owner, game.armies, game.map.neighbours
    ranked: list[tuple[float, int, int]] = []
    for s, holder in enumerate(owner):
        if holder != me or armies[s] < 2:
            continue
        for t in neighbours[s]:
            if owner[t] != me or not game.fortify_allowed(s, t):
                continue
            danger = threat(view, t)
            if danger:
                ranked.append(((armies[s] - 1) * (1.0 + danger / (armies[t] + 1.0)), s, t))
    ranked.sort(key=lambda r: (-r[0], r[1], r[2]))
    out: list[Action] = [planned]
    others: list[Action] = [EndPhase(), *(Fortify(s, t, armies[s] - 1) for _, s, t in ranked[:MOVES])]
    for action in others:
        if action not in out:
            out.append(action)
    return out
