"""The hard bot's strength and thinking time against issue 31's targets.

- classic, 1 against 1, hard against the planner (normal): hard wins ≥ 60 % of games
- italian, 4 players, one hard against three planners: hard wins ≥ 40 % (25 % is parity)
- thinking: ≤ 0.25 s CPU per own turn on average (all its thinking, its defence dice in others' turns included,
  shared over its own turns) and ≤ 0.5 s in its worst own turn (every decision of that turn), issue 38; every
  decision within the hard cap (a bounded number of game steps looked ahead; its worst CPU time is reported)

Seats rotated (game i puts hard in seat i mod players); game i is dealt from seed "SEED:i" as in `conquista simulate`.
The default seed (2031) was not used while the bot was built. Win rates come with a 95 % Wilson interval; CPU time is
process time, so the neighbours of a shared machine do not count. `--quick` plays 20 games per matchup (a smoke run).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from bench_bots import wilson
from conquista.bots import make_bot
from conquista.bots.base import Bot
from conquista.bots.hard import PLANS, ROLLOUTS, TURN_STEPS, HardBot
from conquista.bots.simulate import game_seed
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

TURN_CAP = 1000
CPU_PER_TURN_TARGET = 0.25
WORST_TURN_TARGET = 0.5
MATCHUPS = (("classic", 2, 0.60), ("italian", 4, 0.40))


class Thinking:
    """The hard bot's CPU time: all of it (its defence dice in others' turns too), its own turns, each decision."""

    def __init__(self) -> None:
        self.total = 0.0
        self.turns: dict[tuple[str, str, int], float] = {}   # own turns: (rules, seed, turn) → CPU of them
        self.worst = 0.0
        self.decisions = 0


def play(rules_name: str, players: int, hard_seat: int, seed: str, thinking: Thinking) -> int | None:
    rules = load_ruleset(rules_name)
    rng = random.Random(seed)
    game = new_game(rules, load_map(None), players, rng)
    dice = SeededDice(rng=rng)
    hard = HardBot()
    seats: list[Bot] = [hard if s == hard_seat else make_bot("normal", rng) for s in range(players)]
    while not game.over:
        if game.turn > TURN_CAP:
            return None
        who = game.to_move
        if not isinstance(who, int):
            game.apply(chance_action(game, dice))
            continue
        started = time.process_time()
        action = seats[who].choose(game)
        spent = time.process_time() - started
        if who == hard_seat:
            thinking.total += spent
            if game.current == hard_seat:
                key = (rules_name, seed, game.turn)   # not id(game): a finished game's id is reused by the next
                thinking.turns[key] = thinking.turns.get(key, 0.0) + spent
            thinking.worst = max(thinking.worst, spent)
            thinking.decisions += 1
        game.apply(action)
    return game.winner


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150, help="games per matchup (default 150)")
    parser.add_argument("--quick", action="store_true", help="20 games per matchup (a smoke run, not the figures)")
    parser.add_argument("--seed", type=int, default=2031)
    parser.add_argument("--only", choices=[rules for rules, _, _ in MATCHUPS], help="one matchup (e.g. to run the "
                        "two side by side on two cores)")
    args = parser.parse_args(argv)
    games = 20 if args.quick else args.games
    thinking = Thinking()
    missed = []
    for rules_name, players, target in MATCHUPS:
        if args.only and rules_name != args.only:
            continue
        started = time.perf_counter()
        wins = cut = 0
        for i in range(games):
            seat = i % players
            winner = play(rules_name, players, seat, game_seed(args.seed, i), thinking)
            cut += winner is None
            wins += winner == seat
            print(f"\r{rules_name} {players}p: game {i + 1}/{games}, hard won {wins}", end="", file=sys.stderr,
                  flush=True)
        print(file=sys.stderr)
        low, high = wilson(wins, games)
        ok = wins / games >= target
        print(f"{rules_name} {players}p hard vs normal: {wins}/{games} = {wins / games:.1%} (95% CI {low:.1%}–"
              f"{high:.1%}; parity {1 / players:.0%}; target ≥ {target:.0%}) {'ok' if ok else 'MISSED'}; cut {cut}; "
              f"{time.perf_counter() - started:.0f} s", flush=True)
        if not ok:
            missed.append(f"{rules_name} {players}p")
    per_turn = list(thinking.turns.values())
    mean = thinking.total / len(per_turn)   # all its thinking, shared over its own turns
    ok = mean <= CPU_PER_TURN_TARGET and max(per_turn) <= WORST_TURN_TARGET
    print(f"hard thinking: {mean:.3f} s CPU per own turn on average, worst turn {max(per_turn):.3f} s, worst decision "
          f"{thinking.worst:.3f} s over {len(per_turn)} turns and {thinking.decisions} decisions (target mean ≤ "
          f"{CPU_PER_TURN_TARGET} s, worst turn ≤ {WORST_TURN_TARGET} s; budget {TURN_STEPS} steps a turn, "
          f"{ROLLOUTS} tries × {len(PLANS)} ways of its plan at most) {'ok' if ok else 'MISSED'}")
    if not ok:
        missed.append("thinking time")
    if missed:
        print(f"missed: {', '.join(missed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
