"""The hard bot's attacks, weighed by trying them: at each attack of its turn, the few attacks the planner rates
best and stopping are each played out to the end of the round on copies of the game as the seat may know it
(`seat_view`), with the same dice for each, and scored by the share of the table's strength then held
(`lookahead.strength_share`). The planner's own choice is kept unless another did clearly better.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from conquista.bots.lookahead import clear_gain, play_round, public_seed, strength_share
from conquista.bots.planner import PlannerBot, attack_options, make_view
from conquista.bots.planner_values import Objective
from conquista.bots.seat_view import seat_view
from conquista.dice.sources import SeededDice
from conquista.rules.actions import Action, Attack, Blitz, EndPhase
from conquista.rules.engine import Game

CANDIDATES = 5     # the planner's best attacks tried, besides stopping (3 tried 4 points worse in seeded duels)


@dataclass(frozen=True)
class Weighed:
    """The attack chosen, the planner's own choice, each candidate's average share and the steps played."""

    action: Action
    planned: Action
    scores: tuple[tuple[Action, float], ...]
    steps: int


def candidates(game: Game, me: int, bot: PlannerBot) -> list[Action]:
    """The planner's choice first (as `bot` plays), then its next best attacks, then stopping."""
    view = make_view(game, me)
    view.loss *= bot.loss
    view.scale *= bot.worth
    out: list[Action] = []
    for option in attack_options(view)[:CANDIDATES]:
        if game.rules.blitz:
            out.append(Blitz(option.source, option.target, option.stop_at))
        else:
            out.append(Attack(option.source, option.target, game.max_attack_dice(option.source)))
    out.append(EndPhase())
    return out


def weigh(game: Game, me: int, choices: list[Action], bots: dict[int, PlannerBot], objective: Objective,
          rollouts: int, cap: int, label: str = "attack", rounds: int = 1) -> Weighed:
    """Each of `choices` tried `rollouts` times to the end of the round; the first (the planner's) unless another
    is clearly better over the same dice (`label` names the decision in the tries' seed). Each try plays
    `rounds` rounds: to the start of the seat's next turn, then to the start of the one after, and so on."""
    rng = random.Random(f"{label}:{public_seed(game, me)}")
    views = [seat_view(game, me, rng) for _ in range(rollouts)]
    seeds = [rng.random() for _ in range(rollouts)]
    scores: list[list[float]] = []
    steps = 0
    for action in choices:
        tries = []
        for view, seed in zip(views, seeds, strict=True):
            copy = view.clone()
            copy.apply(action)
            dice = SeededDice(rng=random.Random(seed))
            steps += 1
            for _ in range(rounds):
                steps += play_round(copy, me, bots, dice, cap)
            tries.append(strength_share(copy, me, objective))
        scores.append(tries)
    best = max(range(len(choices)), key=lambda i: (clear_gain(scores[0], scores[i]), -i))
    averages = tuple((a, sum(s) / rollouts) for a, s in zip(choices, scores, strict=True))
    return Weighed(choices[best], choices[0], averages, steps)
