"""The board loop while a hint is thinking (issue 31 §3): a tap's frame, with and without a hard-bot search running
in another thread, as `app/hint_worker.py` runs it.

The search runs in a thread of the same process, so it shares Python's interpreter lock with the loop: the loop gets
its turn at the latest after a switch interval (`sys.getswitchinterval()`, 5 ms by default). This measures what that
costs a tap: p50, p99 and the worst of `bench_table.loop_latencies` (a tap's release put into the loop's inbox → its
frame on the strip), idle and with searches running back to back, in interleaved rounds. The loop's own target
(issue 22: p99 ≤ 1 ms) is for an idle board; no target is set for a board that is thinking, the figures are reported.

    python benchmarks/bench_hint_loop.py [--taps 200] [--rounds 2]
"""

from __future__ import annotations

import argparse
import random
import sys
import threading

from bench_table import loop_latencies
from conquista.dice.chance import new_game
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset
from conquista.table.hints import hint_on, hint_view


def _search_until(stop: threading.Event, done: list[int]) -> None:
    """Hard-bot hints for the seat to move, one after another, as a table of learners asking all the time would."""
    game = new_game(load_ruleset("classic"), load_map(), 3, random.Random(7))
    while not stop.is_set():
        seat = game.to_move
        if isinstance(seat, int):
            hint_on(hint_view(game, seat), seat)
            done[0] += 1


def _ms(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--taps", type=int, default=200, help="taps timed per round and side (default 200)")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds (default 2)")
    args = parser.parse_args(argv)
    print(f"switch interval {sys.getswitchinterval() * 1000:.1f} ms", flush=True)
    for round_ in range(1, args.rounds + 1):
        for thinking in (False, True):
            stop, done = threading.Event(), [0]
            searcher = threading.Thread(target=_search_until, args=(stop, done), daemon=True)
            if thinking:
                searcher.start()
            taps = loop_latencies(False, args.taps)
            stop.set()
            if thinking:
                searcher.join()
            side = f"hint thinking ({done[0]} searches)" if thinking else "idle"
            print(f"round {round_}  {side:<28} {len(taps)} taps  tap → frame p50 {_ms(taps, 0.5):.3f} ms  "
                  f"p99 {_ms(taps, 0.99):.3f} ms  worst {max(taps) * 1000:.3f} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
