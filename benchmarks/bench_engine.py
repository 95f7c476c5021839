"""Engine speed and memory against issue 2's targets.

- applied actions/s: replaying recorded games (legality checks included, no bot time) ≥ 50,000
- simulate classic greedy: 2 players ≥ 150 games/s, 4 players ≥ 50 games/s
- peak RSS of a 1000-game `conquista simulate` run ≤ 60 MB
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

from conquista.bots.simulate import play_game, simulate
from conquista.rules.gamelog import header_for, replay
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

TARGETS = {"actions/s": 50_000, "classic 2p games/s": 150, "classic 4p games/s": 50}
RSS_LIMIT_MB = 60


def applied_actions_per_second(game_map: object) -> float:
    games = [play_game(load_ruleset(name), load_map(), n, ["greedy"], f"bench-{name}-{n}").game
             for name, n in (("classic", 2), ("italian", 3), ("french-1976", 4), ("classic", 4))]
    logs = [(header_for(g), list(g.log)) for g in games if g is not None]
    actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < 2.0:
        for header, log in logs:
            replay(header, log)
            actions += len(log)
    return actions / (time.perf_counter() - started)


def best_games_per_second(players: int, games: int, repeats: int = 3) -> float:
    rules, game_map = load_ruleset("classic"), load_map()
    return max(simulate(rules, game_map, players, games, seed, ["greedy"]).games_per_second
               for seed in range(repeats))


def peak_rss_mb() -> float:
    cmd = [sys.executable, "-m", "conquista", "simulate", "--rules", "classic", "--players", "4", "--games", "1000",
           "--seed", "1", "--json"]
    subprocess.run(cmd, check=True, capture_output=True, cwd=Path(__file__).resolve().parents[1])
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


def main() -> int:
    game_map = load_map()
    figures = {
        "actions/s": applied_actions_per_second(game_map),
        "classic 2p games/s": best_games_per_second(2, 300),
        "classic 4p games/s": best_games_per_second(4, 100),
    }
    missed = []
    for name, value in figures.items():
        ok = value >= TARGETS[name]
        missed += [] if ok else [name]
        print(f"{name:<22} {value:>10,.0f}   target ≥ {TARGETS[name]:,}   {'ok' if ok else 'MISSED'}")
    rss = peak_rss_mb()
    ok = rss <= RSS_LIMIT_MB
    missed += [] if ok else ["peak RSS"]
    print(f"{'peak RSS 1000 games':<22} {rss:>8.1f} MB   target ≤ {RSS_LIMIT_MB} MB   {'ok' if ok else 'MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
