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
# Once the table stalls, stopping is not tried against a planner's attack this likely to take its target: a weak
# neighbour is attacked, not waited on. Scored a round ahead, stopping looks better than any even exchange with more
# than two players (both sides of a battle lose to the seats that stay out of it): with stopping tried at every
# attack four hard bots stopped 45 % of the planner's attacks and played 47 turns a game on the benchmark's deals,
# against normal's 23. Among planners, who fight each other, stopping is what wins (1 hard against 3 planners, 40
# italian games on seeds the benchmark does not use: 13 won with stopping always tried, 6 with the rule always on).
WEAK_CHANCE = 0.75
# The table stalls when it holds this many armies a territory on average, from the third round on: where the seats
# fight, four planners' tables hold 1.0-1.5 from the third round on (italian, seed 0, 6 games); four hard bots that
# wait piled up 2.5 by round 5 and 4 by round 8. Four hard bots, the same deals: 39.5 turns a game at 2.0, 33.7 at
# 1.6; 1 hard against 3 planners, 40 games on seed 7: 18 won at either.
STALL_ARMIES = 1.6
STALL_ROUND = 3


def stalling(game: Game) -> bool:
    """The seats have been piling up armies rather than fighting (public: the board's armies and the round)."""
    return game.round >= STALL_ROUND and sum(game.armies) >= STALL_ARMIES * game.map.size


@dataclass(frozen=True)
class Weighed:
    """The attack chosen, the planner's own choice, each candidate's average share, the steps and tries played."""

    action: Action
    planned: Action
    scores: tuple[tuple[Action, float], ...]
    steps: int
    tries: int      # of each candidate (fewer than asked when a budget cut them)


def candidates(game: Game, me: int, bot: PlannerBot) -> list[Action]:
    """The planner's choice first (as `bot` plays), then its next best attacks, then stopping (unless the table
    stalls and the planner's attack is on a weak neighbour: `WEAK_CHANCE`)."""
    view = make_view(game, me)
    view.loss *= bot.loss
    view.scale *= bot.worth
    out: list[Action] = []
    options = attack_options(view)[:CANDIDATES]
    for option in options:
        if game.rules.blitz:
            out.append(Blitz(option.source, option.target, option.stop_at))
        else:
            out.append(Attack(option.source, option.target, game.max_attack_dice(option.source)))
    if not options or options[0].chance < WEAK_CHANCE or not stalling(game):
        out.append(EndPhase())
    return out


def tries_within(budget: int | None, first: int, ways: int, most: int) -> int:
    """How many tries of each of `ways` choices fit in `budget` steps when the first try played `first` steps (the
    tries of one position are about as long): at most `most`, at least 2 (a spread needs two)."""
    if budget is None:
        return most
    return max(2, min(most, budget // (ways * max(1, first))))


def weigh(game: Game, me: int, choices: list[Action], bots: dict[int, PlannerBot], objective: Objective,
          rollouts: int, cap: int, label: str = "attack", rounds: int = 1, budget: int | None = None) -> Weighed:
    """Each of `choices` tried `rollouts` times to the end of the round; the first (the planner's) unless another
    is clearly better over the same dice (`label` names the decision in the tries' seed). Each try plays
    `rounds` rounds: to the start of the seat's next turn, then to the start of the one after, and so on. With a
    `budget` (steps, all tries told), the first try's length sets how many tries there are (`tries_within`): a
    long round is tried fewer times, so the decision's thinking stays within about the budget."""
    rng = random.Random(f"{label}:{public_seed(game, me)}")
    views = [seat_view(game, me, rng) for _ in range(rollouts)]
    seeds = [rng.random() for _ in range(rollouts)]
    scores: list[list[float]] = []
    steps = 0
    for action in choices:
        tries: list[float] = []
        while len(tries) < rollouts:
            copy = views[len(tries)].clone()
            copy.apply(action)
            dice = SeededDice(rng=random.Random(seeds[len(tries)]))
            steps += 1
            for _ in range(rounds):
                steps += play_round(copy, me, bots, dice, cap)
            tries.append(strength_share(copy, me, objective))
            if not scores and len(tries) == 1:
                # The views and dice are drawn for `rollouts` tries whatever the budget: fewer use the first ones.
                rollouts = tries_within(budget, steps, len(choices), rollouts)
        scores.append(tries)
    best = max(range(len(choices)), key=lambda i: (clear_gain(scores[0], scores[i]), -i))
    averages = tuple((a, sum(s) / rollouts) for a, s in zip(choices, scores, strict=True))
    return Weighed(choices[best], choices[0], averages, steps, rollouts)
