"""`make bench`: run every benchmarks/bench_*.py in turn; each prints its figures against the issue's targets.

One benchmark (the Pico's scan tick in bench_link) runs under the real MicroPython, a WebAssembly build that npm
installs under build/. When it is missing this script installs it with `make mpy-wasm`; when that cannot work (no
node or npm, no network) it says how in one line and the other benchmarks still run. Under CI a missing build is
a failure, as the tests treat it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MPY_MJS = ROOT / "build/micropython-wasm/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"
MAKE_TARGET = "mpy-wasm"
HOW = (f"install node and npm (Debian: sudo apt-get install nodejs npm), then run `make {MAKE_TARGET}` "
       "in the project directory")


def install_with_make() -> bool:
    if shutil.which("make") is None:
        return False
    return subprocess.run(["make", "-C", str(ROOT), MAKE_TARGET], check=False).returncode == 0


def ensure_micropython(mjs: Path = MPY_MJS, install: Callable[[], bool] = install_with_make,
                       which: Callable[[str], str | None] = shutil.which) -> str | None:
    """None when the MicroPython build is there (installed now if it was missing); else the line saying how."""
    if mjs.is_file() and which("node"):
        return None
    missing = [tool for tool in ("node", "npm") if which(tool) is None]
    if missing:
        return f"MicroPython (WebAssembly) cannot be installed: {' and '.join(missing)} not found; {HOW}"
    print(f"MicroPython (WebAssembly) build missing: installing it with `make {MAKE_TARGET}`", flush=True)
    if install() and mjs.is_file():
        return None
    return f"MicroPython (WebAssembly) could not be installed (`make {MAKE_TARGET}` failed, see above); {HOW}"


def run_all(scripts: list[Path], env: Mapping[str, str]) -> list[str]:
    failed = []
    for script in scripts:
        print(f"== {script.stem}", flush=True)
        if subprocess.run([sys.executable, str(script)], check=False, env=dict(env)).returncode != 0:
            failed.append(script.stem)
    return failed


def main() -> int:
    scripts = sorted(Path(__file__).resolve().parent.glob("bench_*.py"))
    if not scripts:
        print("no benchmarks found", file=sys.stderr)
        return 1
    env = dict(os.environ)
    problem = ensure_micropython()
    if problem is not None:
        print(f"bench: {problem}; the scan tick under MicroPython is skipped", file=sys.stderr, flush=True)
        env["CONQUISTA_SKIP_MICROPYTHON"] = "1"
    failed = run_all(scripts, env)
    if failed:
        print(f"benchmarks that failed to run or missed a target: {', '.join(failed)}", file=sys.stderr)
        return 1
    if problem is not None and os.environ.get("CI"):
        print("bench: under CI the MicroPython benchmark must run (see the line above)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
