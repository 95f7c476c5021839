"""The first hour at the terminal (issue 30, item 3): how long a person waits for their first placement when the
bots think 5 s a gesture, at `--speed 1000` and at the default `--speed 2`.

`conquista sim` runs in a real pseudo-terminal as a person runs it (italian, 3 players, blue and yellow bots, seed 7,
where both bots place before red), and the wall time from the start to "· red · initial placement" on the screen is
measured, best of three (it is a waiting time, so wall time is what the person feels). Target: at `--speed 1000`
the bots' placements take moments (≤ 2 s; 15.6 s before the fix, when simulated time ran at real time).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.terminal_session import CONQUISTA, TerminalSession  # noqa: E402  (the pty driver the tests use)

ARGS = ["sim", "--rules", "italian", "--players", "3", "--bots", "blue,yellow", "--seed", "7", "--think", "5",
        "--no-web"]
RED_PLACES = r"· red · initial placement"
TARGET_S = 2.0


def time_to_first_placement(speed: float) -> float:
    with tempfile.TemporaryDirectory() as data, \
            TerminalSession([str(CONQUISTA), *ARGS, "--speed", f"{speed:g}", "--data-dir", data]) as terminal:
        started = time.perf_counter()
        terminal.wait_for(RED_PLACES, timeout=120)
        return time.perf_counter() - started


def main() -> int:
    fast = min(time_to_first_placement(1000) for _ in range(3))
    default = min(time_to_first_placement(2) for _ in range(3))
    verdict = "met" if fast <= TARGET_S else "MISSED"
    print(f"time to the person's first placement, bots thinking 5 s a gesture: --speed 1000 {fast:.2f} s "
          f"(target ≤ {TARGET_S:g} s: {verdict}); --speed 2 {default:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
