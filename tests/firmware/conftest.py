"""Firmware tests: the firmware's modules on sys.path for CPython, and a runner for the real MicroPython."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
HERE = Path(__file__).resolve().parent
CODEC = ROOT / "host" / "conquista" / "link" / "codec.py"
FAKE_MACHINE = ROOT / "simulator" / "conquista_sim" / "fake_machine.py"
MPY_MJS = ROOT / "build/micropython-wasm/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"

for path in (FIRMWARE, HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))


def firmware_files(overrides: dict[str, Path] | None = None) -> dict[str, str]:
    """The files as `conquista firmware deploy` lays them out on the Pico, plus the test fakes."""
    files = {
        "/lib/conquista/__init__.py": "",
        "/lib/conquista/link/__init__.py": "",
        "/lib/conquista/link/codec.py": str(CODEC),
        "/lib/conquista_sim/__init__.py": "",
        "/lib/conquista_sim/fake_machine.py": str(FAKE_MACHINE),
    }
    for src in sorted((FIRMWARE / "cqfw").glob("*.py")):
        files[f"/lib/cqfw/{src.name}"] = str(src)
    for dest, src in (overrides or {}).items():
        files[dest] = str(src)
    return files


RunMpy = Callable[..., str]


@pytest.fixture(scope="session")
def run_micropython(tmp_path_factory: pytest.TempPathFactory) -> RunMpy:
    """Run a script under MicroPython (WebAssembly, node); returns its stdout, fails the test on an exception.

    Missing node or the npm package is a failure, not a skip: `make test` installs the package, and a firmware
    suite that silently ran only under CPython would prove nothing about the Pico.
    """
    node = shutil.which("node")
    if node is None or not MPY_MJS.is_file():
        if os.environ.get("CONQUISTA_SKIP_MICROPYTHON") == "1":
            pytest.skip("CONQUISTA_SKIP_MICROPYTHON=1: MicroPython firmware tests skipped on request")
        pytest.fail(
            f"MicroPython WebAssembly not found ({MPY_MJS if node else 'node is not installed'}): run `make test`, "
            "which installs @micropython/micropython-webassembly-pyscript with npm"
        )
    workdir = tmp_path_factory.mktemp("mpy")

    def run(script: Path, overrides: dict[str, Path] | None = None) -> str:
        manifest = workdir / f"manifest-{script.stem}.json"
        manifest.write_text(json.dumps({"files": firmware_files(overrides), "main": str(script)}))
        proc = subprocess.run(
            [node, str(HERE / "mpy_runner.mjs"), str(MPY_MJS), str(manifest)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if proc.returncode != 0:
            pytest.fail(f"MicroPython run of {script.name} failed:\n{proc.stderr}\n{proc.stdout[-2000:]}")
        return proc.stdout

    return run
