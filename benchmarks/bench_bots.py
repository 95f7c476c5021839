"""The planner bot's strength and speed against issue 14's targets.

- italian, 3 players, one planner against two greedy, 300 seeded games, the planner's seat rotated: wins ≥ 55 %
- classic, 4 players, one planner against three greedy, 300 seeded games, seats rotated: wins ≥ 45 %
- planner against itself (italian 3 players and classic 4 players): no game cut at the turn cap
- time per planner decision: p99 ≤ 20 ms (CPU time, so that a shared machine's neighbours do not count)

Win rates come with a 95 % Wilson interval. `--quick` plays 60 games per matchup (a smoke run, not the figures).
Game i of a matchup is dealt from seed "SEED:i" (the same as `conquista simulate`), with the planner in seat
i mod players.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from conquista.bots import make_bot
from conquista.bots.base import Bot
from conquista.bots.simulate import game_seed
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.rules.actions import Action
from conquista.rules.engine import Game
from conquista.rules.mapdata import GameMap, load_map
from conquista.rules.ruleset import Ruleset
from conquista.rules.rulesets import load_ruleset

TURN_CAP = 1000
P99_TARGET_MS = 20.0


@dataclass
class Timed:
    """A bot whose every decision is timed (CPU time)."""

    bot: Bot
    times: list[float] = field(default_factory=list)

    def choose(self, game: Game) -> Action:
        started = time.process_time()
        action = self.bot.choose(game)
        self.times.append(time.process_time() - started)
        return action


def play(rules: Ruleset, game_map: GameMap, kinds: Sequence[str], seed: str, times: list[float]) -> int | None:
    """One game; the winner's seat, or None when cut at the turn cap. Planner decisions are timed into `times`."""
    rng = random.Random(seed)
    game = new_game(rules, game_map, len(kinds), rng)
    dice = SeededDice(rng=rng)
    seats: list[Bot] = []
    for kind in kinds:
        bot = make_bot(kind, rng)
        seats.append(Timed(bot, times) if kind == "planner" else bot)
    while not game.over:
        if game.turn > TURN_CAP:
            return None
        who = game.to_move
        game.apply(seats[who].choose(game) if isinstance(who, int) else chance_action(game, dice))
    return game.winner


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def one_against_greedy(rules_name: str, players: int, games: int, seed: int, times: list[float]
                       ) -> tuple[int, int]:
    """(planner wins, games cut at the turn cap), the planner's seat rotated."""
    rules, game_map = load_ruleset(rules_name), load_map(None)
    wins = cut = 0
    for i in range(games):
        seat = i % players
        kinds = ["planner" if s == seat else "greedy" for s in range(players)]
        winner = play(rules, game_map, kinds, game_seed(seed, i), times)
        cut += winner is None
        wins += winner == seat
    return wins, cut


def self_play(rules_name: str, players: int, games: int, seed: int, times: list[float]) -> int:
    rules, game_map = load_ruleset(rules_name), load_map(None)
    return sum(play(rules, game_map, ["planner"] * players, game_seed(seed, i), times) is None
               for i in range(games))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="60 games per matchup instead of 300")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    games = 60 if args.quick else 300
    times: list[float] = []
    missed: list[str] = []
    for rules_name, players, target in (("italian", 3, 0.55), ("classic", 4, 0.45)):
        started = time.perf_counter()
        wins, cut = one_against_greedy(rules_name, players, games, args.seed, times)
        low, high = wilson(wins, games)
        ok = wins / games >= target
        print(f"{rules_name} {players}p planner vs greedy: {wins}/{games} = {wins / games:.1%} "
              f"(95% CI {low:.1%}–{high:.1%}; equal share {1 / players:.0%}; target ≥ {target:.0%}) "
              f"{'ok' if ok else 'MISSED'}; cut {cut}; {time.perf_counter() - started:.0f} s", flush=True)
        if not ok:
            missed.append(f"{rules_name} win rate")
    for rules_name, players in (("italian", 3), ("classic", 4)):
        cut = self_play(rules_name, players, games // 3, args.seed, times)
        print(f"{rules_name} {players}p planner vs itself: {cut}/{games // 3} games cut at turn {TURN_CAP} "
              f"{'ok' if cut == 0 else 'MISSED'}", flush=True)
        if cut:
            missed.append(f"{rules_name} self-play stalls")
    ms = sorted(t * 1000 for t in times)
    p50, p99 = statistics.median(ms), ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    verdict = "ok" if p99 <= P99_TARGET_MS else "MISSED"
    print(f"planner decision time: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {ms[-1]:.1f} ms over {len(ms)} "
          f"decisions (target p99 ≤ {P99_TARGET_MS:.0f} ms) {verdict}")
    if verdict != "ok":
        missed.append("decision time")
    if missed:
        print(f"missed: {', '.join(missed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
