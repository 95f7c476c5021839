"""Side by side with the peer: `conquista simulate --rules classic --bots greedy` against pyrisk's StupidAI (issue 22).

Games per second of whole processes, by CPU time (user + system of the child: the machine is shared, and wall time
measures the neighbours), 2 and 4 players, the same number of games, in interleaved rounds so both sides see the same
load; medians reported. Targets: the pure Python engine ≥ 1.0× pyrisk's games per second, the compiled core
(`make fast`) ≥ 2.0×.

Both sides run as their users would run them for speed: neither displays nor logs (issue 31). pyrisk's own
`pyrisk.py --nocurses` logs every event at DEBUG to stderr, half of its time, so its `Game` is driven by
`benchmarks/pyrisk_games.py` with logging disabled. The comparison is refused when a side writes a log anyway (any
output on stderr, or more than a summary on stdout): it would time the log, not the game.

pyrisk (https://github.com/chronitis/pyrisk) is not served by any package registry and this script downloads
nothing: give a checkout of it with `--peer DIR` or in the environment as CONQUISTA_PYRISK_DIR (`make bench
PYRISK=DIR`). Without one the comparison is skipped, saying so, and the script exits 0, so `make bench` runs anywhere.
pyrisk runs under this interpreter with a fixed PYTHONHASHSEED (its games iterate over sets, so they otherwise change
from run to run), without its curses display, with no delay and no log.

The compiled side runs when `make fast` has built it (build/fast): the same command with that directory first on
PYTHONPATH, so its compiled modules load before the sources.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FAST_DIR = ROOT / "build" / "fast"
ENV_PEER = "CONQUISTA_PYRISK_DIR"
PURE_TARGET, FAST_TARGET = 1.0, 2.0
HASH_SEED = "0"
PLAYER_COUNTS = (2, 4)
DRIVER = Path(__file__).resolve().parent / "pyrisk_games.py"
SUMMARY_BYTES = 2048   # a side's whole stdout when it does not log: a summary of its games


class LoggingSide(Exception):
    """A side wrote a log: timing it would measure the log, not the game."""


def children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def log_problem(side: str, stdout: bytes, stderr: bytes) -> str | None:
    """None when a side's output is only a summary; else why the comparison is refused."""
    if stderr:
        first = stderr.decode(errors="replace").splitlines()[0][:100]
        return (f"{side} wrote {len(stderr)} bytes to stderr (e.g. {first!r}): it logs, and its time would be the "
                "log's; run it without a log")
    if len(stdout) > SUMMARY_BYTES:
        return (f"{side} wrote {len(stdout)} bytes to stdout, more than a summary ({SUMMARY_BYTES}): it logs or "
                "displays; run it without")
    return None


def cpu_of(command: list[str], env: Mapping[str, str], cwd: Path | None = None, side: str = "") -> float:
    """CPU seconds of one whole process; raises `LoggingSide` when it wrote a log."""
    before = children_cpu_s()
    done = subprocess.run(command, check=True, capture_output=True, env=dict(env), cwd=cwd)
    spent = children_cpu_s() - before
    problem = log_problem(side or command[0], done.stdout, done.stderr)
    if problem is not None:
        raise LoggingSide(problem)
    return spent


def peer_problem(peer: Path | None) -> str | None:
    """None when `peer` looks like a pyrisk checkout; else the line that says what to do."""
    how = (f"give a checkout of https://github.com/chronitis/pyrisk with --peer DIR or {ENV_PEER}=DIR "
           "(make bench PYRISK=DIR)")
    if peer is None:
        return f"no pyrisk checkout given: {how}"
    if not (peer / "pyrisk.py").is_file() or not (peer / "ai" / "stupid.py").is_file():
        return f"{peer} is not a pyrisk checkout (no pyrisk.py and ai/stupid.py there): {how}"
    return None


Side = tuple[list[str], dict[str, str], Path | None]  # command, environment, working directory


def commands(peer: Path, players: int, games: int, seed: int) -> dict[str, Side]:
    """Each side's command, environment and working directory."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    ours = [sys.executable, "-m", "conquista", "simulate", "--rules", "classic", "--bots", "greedy",
            "--players", str(players), "--games", str(games), "--seed", str(seed)]
    sides: dict[str, Side] = {
        "pyrisk": ([sys.executable, str(DRIVER), "--peer", str(peer), "--players", str(players), "--games", str(games),
                    "--seed", str(seed)], {**env, "PYTHONHASHSEED": HASH_SEED}, peer),
        "pure": (ours, env, None),
    }
    if fast_built():
        sides["compiled"] = (ours, {**env, "PYTHONPATH": str(FAST_DIR)}, None)
    return sides


def fast_built() -> bool:
    return any((FAST_DIR / "conquista" / "rules").glob("engine.*.so"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer", type=Path, default=os.environ.get(ENV_PEER) or None,
                        help=f"pyrisk's directory (default: ${ENV_PEER})")
    parser.add_argument("--games", type=int, default=200, help="games per process (default 200)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    problem = peer_problem(args.peer)
    if problem is not None:
        print(f"bench_pyrisk: skipped: {problem}")
        return 0
    try:
        return compare(args.peer, args.games, args.rounds, args.seed)
    except LoggingSide as exc:
        print(f"bench_pyrisk: refused: {exc}", file=sys.stderr)
        return 2


def compare(peer: Path, games: int, rounds: int, seed: int) -> int:
    missed = []
    for players in PLAYER_COUNTS:
        sides = commands(peer, players, games, seed)
        for side, (command, env, cwd) in sides.items():
            cpu_of(command, env, cwd, side)  # warm-up: .pyc files and the page cache outside the samples
        cpu: dict[str, list[float]] = {side: [] for side in sides}
        for _ in range(rounds):
            for side, (command, env, cwd) in sides.items():
                cpu[side].append(cpu_of(command, env, cwd, side))
        rate = {side: games / statistics.median(values) for side, values in cpu.items()}
        for side, values in cpu.items():
            line = (f"{players} players  {side:<9} {rate[side]:8.1f} games/s  (median CPU "
                    f"{statistics.median(values):.2f} s for {games} games, {rounds} rounds)")
            if side != "pyrisk":
                target = FAST_TARGET if side == "compiled" else PURE_TARGET
                ratio = rate[side] / rate["pyrisk"]
                verdict = "ok" if ratio >= target else "MISSED"
                if verdict != "ok":
                    missed.append(f"{side} {players}p")
                line += f"  {ratio:.2f}× pyrisk, target ≥ {target:.1f}×  {verdict}"
            print(line, flush=True)
    if not fast_built():
        print("bench_pyrisk: the compiled core is not built (make fast): its figure is left out")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
