"""Start-up of whole `conquista` processes against issue 9's targets (hyperfine-like: N runs, median reported).

- `conquista --help` ≤ 90 ms and `conquista odds 6 3` ≤ 90 ms, each a whole process from exec to exit
- `conquista sim --demo` to its first frame ≤ 120 ms: from exec to the first line the demo prints (the table is
  built and its first frame painted before that line), then the process is stopped
- issue 12: from process start to the set-up menu's first frame on the ring ≤ 300 ms: `conquista sim --menu` with
  an empty script prints the menu's first step once that frame is painted (the rulesets are loaded for it)
- issue 22: the same two first frames against a bare interpreter printing its first line, in the same rounds:
  `sim --menu` ≤ 7×, `sim --demo` (the simulated board playing) ≤ 8×

The children run with bytecode caching on (PYTHONDONTWRITEBYTECODE removed), as an installed package has its
.pyc files: a warm-up run of each command writes them. Each figure is wall time; CPU time (user + system of the
child) is shown beside it because it moves less when other work shares the machine.

`--baseline DIR` times DIR/.venv/bin/conquista (e.g. a `git worktree` of an older commit) in the same run, one run
of each side in turn, so both sides see the same machine load.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
WHOLE_PROCESS = (("--help",), ("odds", "6", "3"))
WHOLE_PROCESS_TARGET_MS = 90.0
FIRST_FRAME = ("sim", "--demo", "--seed", "1", "--think", "0.05")
FIRST_FRAME_TARGET_MS = 120.0
MENU = ("sim", "--menu", "--script", os.devnull, "--seed", "1")
MENU_TARGET_MS = 300.0
MENU_CASE = "sim --menu, first frame"
DEMO_CASE = "sim --demo, first frame"
# Issue 22: against a bare interpreter started the same way (its first line printed), measured in the same rounds.
BARE_CASE = "bare interpreter"
BARE = ("-c", "print()")
RATIO_TARGETS = {MENU_CASE: 7.0, DEMO_CASE: 8.0}


CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
Sample = tuple[float, float]  # (wall ms, CPU ms)


def children_cpu_ms() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def whole_process_ms(command: list[str]) -> Sample:
    cpu = children_cpu_ms()
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=CHILD_ENV)
    return (time.perf_counter() - started) * 1000, children_cpu_ms() - cpu


def first_line_ms(command: list[str]) -> Sample:
    """Until the first line the process prints; its CPU time includes the moments until it is killed."""
    cpu = children_cpu_ms()
    started = time.perf_counter()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=CHILD_ENV) as proc:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        elapsed = (time.perf_counter() - started) * 1000
        proc.kill()
    if not line:
        raise RuntimeError(f"{' '.join(command)} printed nothing")
    return elapsed, children_cpu_ms() - cpu


def measure(sides: dict[str, Path], runs: int) -> dict[tuple[str, str], list[Sample]]:
    """Samples per (side, command); the sides alternate run by run."""
    cases: list[tuple[str, Callable[[list[str]], Sample], tuple[str, ...]]] = [
        (" ".join(args), whole_process_ms, args) for args in WHOLE_PROCESS
    ] + [(DEMO_CASE, first_line_ms, FIRST_FRAME), (MENU_CASE, first_line_ms, MENU)]
    samples: dict[tuple[str, str], list[Sample]] = {}
    bare = [sys.executable, *BARE]
    for name, timer, args in cases:
        for exe in sides.values():
            timer([str(exe), *args])  # warm the page cache and .pyc files outside the samples
        for _ in range(runs):
            for side, exe in sides.items():
                samples.setdefault((side, name), []).append(timer([str(exe), *args]))
            if name in RATIO_TARGETS:  # the bare interpreter between the rounds it is compared with
                samples.setdefault(("this", BARE_CASE), []).append(first_line_ms(bare))
    return samples


def ratios(samples: dict[tuple[str, str], list[Sample]]) -> list[str]:
    """Each first frame against the bare interpreter (medians of wall time), with its verdict; the missed ones'
    names are returned after the lines, each prefixed by "MISSED:"."""
    bare = statistics.median(wall for wall, _ in samples[("this", BARE_CASE)])
    bare_cpu = statistics.median(cpu for _, cpu in samples[("this", BARE_CASE)])
    lines, missed = [], []
    for name, target in RATIO_TARGETS.items():
        ratio = statistics.median(wall for wall, _ in samples[("this", name)]) / bare
        cpu_ratio = statistics.median(cpu for _, cpu in samples[("this", name)]) / bare_cpu
        verdict = "ok" if ratio <= target else "MISSED"
        if verdict != "ok":
            missed.append(f"MISSED:{name} ×")
        lines.append(f"this      {name + ' / bare':<31} {ratio:5.1f}×  (bare interpreter to its first line "
                     f"{bare:.1f} ms; by CPU time {cpu_ratio:.1f}×, bare {bare_cpu:.1f} ms)   target ≤ {target:.0f}×   "
                     f"{verdict}")
    return lines + missed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=21, help="whole-process runs per command (default 21)")
    parser.add_argument("--baseline", type=Path, metavar="DIR", help="a checkout with its own .venv to compare")
    args = parser.parse_args(argv)
    sides = {"this": Path(sys.executable).with_name("conquista")}
    if args.baseline is not None:
        sides["baseline"] = args.baseline / ".venv" / "bin" / "conquista"
    samples = measure(sides, args.runs)
    missed = []
    for (side, name), values in samples.items():
        if name == BARE_CASE:
            continue
        median = statistics.median(wall for wall, _ in values)
        cpu = statistics.median(c for _, c in values)
        limit = (MENU_TARGET_MS if name == MENU_CASE else FIRST_FRAME_TARGET_MS if name.startswith("sim")
                 else WHOLE_PROCESS_TARGET_MS)
        verdict = "ok" if median <= limit else "MISSED"
        if side == "this" and verdict != "ok":
            missed.append(name)
        print(f"{side:<9} {name:<24} median {median:7.1f} ms  min {min(w for w, _ in values):7.1f} ms  "
              f"CPU {cpu:7.1f} ms   "
              f"target ≤ {limit:.0f} ms   {verdict if side == 'this' else ''}  ({len(values)} runs)")
    for line in ratios(samples):
        if line.startswith("MISSED:"):
            missed.append(line.removeprefix("MISSED:"))
        else:
            print(line)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
