"""The hard bot's reinforcements, weighed by trying them: at the first placement of its turn, the planner's own
placement and a few others (the whole pool on the territory each of the best attacks would start from, or on the
territory most in danger) are each played out to the end of the round on copies of the game as the seat may know it,
with the same dice for each, and scored by the share of the table's strength then held (`hard_attack.weigh`). The
planner's placement is kept unless another did clearly better.
"""

from __future__ import annotations

from conquista.bots.planner import PlannerBot, attack_options, defence_spot, make_view
from conquista.rules.actions import Action, Place
from conquista.rules.engine import Game

SOURCES = 4    # the territories the best attacks start from, each tried with the whole pool


def placements(game: Game, me: int, bot: PlannerBot, planned: Action) -> list[Action]:
    """The planner's placement first (as `bot` plays), then the whole pool on each of the sources of the best
    attacks and on the territory most in danger, without repeats."""
    view = make_view(game, me)
    view.loss *= bot.loss
    view.scale *= bot.worth
    pool = game.pool
    out: list[Action] = [planned]
    sources: list[int] = []
    for option in attack_options(view, extra=pool):
        if option.source not in sources:
            sources.append(option.source)
            if len(sources) == SOURCES:
                break
    sources.append(defence_spot(view))
    for s in sources:
        action = Place(s, pool)
        if action not in out:
            out.append(action)
    return out
