"""`make bench`: run every benchmarks/bench_*.py in turn; each prints its figures against the issue's targets."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main() -> int:
    here = Path(__file__).resolve().parent
    scripts = sorted(here.glob("bench_*.py"))
    if not scripts:
        print("no benchmarks found", file=sys.stderr)
        return 1
    failed = []
    for script in scripts:
        print(f"== {script.stem}", flush=True)
        if subprocess.run([sys.executable, str(script)], check=False).returncode != 0:
            failed.append(script.stem)
    if failed:
        print(f"benchmarks that failed to run or missed a target: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
