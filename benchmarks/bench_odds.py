"""Odds speed against issue 3's targets (float mode, caches cleared before every run, so each figure includes the
single-roll enumeration a fresh process would do):

- one blitz, 200 vs 200: ≤ 50 ms
- one blitz, 1000 vs 1000: ≤ 1 s
- the full 30×30 table: ≤ 100 ms

Each figure is the median of several runs, for every built-in dice rule (3 vs 3 and 3 vs 2 dice); the slowest
ruleset counts. Exact-mode figures are printed for information; they have no target.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

from conquista.rules.odds import blitz_odds, clear_caches, odds_table
from conquista.rules.ruleset import Ruleset
from conquista.rules.rulesets import builtin_rulesets, load_ruleset


def median_seconds(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        clear_caches()
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> int:
    rulesets = [load_ruleset(name) for name in builtin_rulesets()]
    cases: list[tuple[str, float, int, Callable[[Ruleset], object]]] = [
        ("blitz 200 vs 200", 0.050, 7, lambda r: blitz_odds(r, 200, 200)),
        ("blitz 1000 vs 1000", 1.0, 3, lambda r: blitz_odds(r, 1000, 1000)),
        ("table 30×30", 0.100, 7, lambda r: odds_table(r, 30)),
    ]
    missed = []
    for label, target, runs, work in cases:
        figures = {rules.name: median_seconds(partial(work, rules), runs) for rules in rulesets}
        worst = max(figures, key=lambda name: figures[name])
        verdict = "ok" if figures[worst] <= target else "MISSED"
        detail = ", ".join(f"{name} {seconds * 1000:.1f} ms" for name, seconds in figures.items())
        print(f"{label:<20} {figures[worst] * 1000:8.1f} ms (target ≤ {target * 1000:.0f} ms) {verdict}   [{detail}]")
        if verdict != "ok":
            missed.append(label)
    italian = load_ruleset("italian")
    for label, work2 in (("exact 200 vs 200", lambda: blitz_odds(italian, 200, 200, exact=True)),
                         ("exact table 30×30", lambda: odds_table(italian, 30, exact=True))):
        print(f"{label:<20} {median_seconds(work2, 3) * 1000:8.1f} ms (italian, no target)")
    if missed:
        print(f"missed: {', '.join(missed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
