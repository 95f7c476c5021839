"""benchmarks/run.py (`make bench`) without its MicroPython build: install it, or say how and run the rest."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _which(*present: str) -> object:
    return lambda tool: f"/usr/bin/{tool}" if tool in present else None


def test_present_build_needs_nothing(tmp_path: Path) -> None:
    mjs = tmp_path / "micropython.mjs"
    mjs.write_text("")
    installs: list[bool] = []
    assert _runner().ensure_micropython(mjs, lambda: installs.append(True) or True, _which("node", "npm")) is None
    assert installs == []


def test_missing_build_is_installed_with_make(tmp_path: Path) -> None:
    mjs = tmp_path / "micropython.mjs"

    def install() -> bool:
        mjs.write_text("")
        return True

    assert _runner().ensure_micropython(mjs, install, _which("node", "npm")) is None


def test_missing_npm_says_how_in_one_line(tmp_path: Path) -> None:
    line = _runner().ensure_micropython(tmp_path / "none.mjs", lambda: pytest.fail("no npm: nothing to run"),
                                        _which("node"))
    assert line is not None and "\n" not in line
    assert "npm not found" in line and "apt-get install nodejs npm" in line and "make mpy-wasm" in line


def test_failed_install_says_how(tmp_path: Path) -> None:
    line = _runner().ensure_micropython(tmp_path / "none.mjs", lambda: False, _which("node", "npm"))
    assert line is not None and "`make mpy-wasm` failed" in line


def test_every_benchmark_runs_with_the_skip_and_failures_are_named(tmp_path: Path) -> None:
    # Regression: without the build bench_link exited 1 and `make bench` failed; now the skip reaches each script
    # (bench_link then leaves out only the MicroPython figure) and the others still run and are judged.
    module = _runner()
    passing = tmp_path / "bench_ok.py"
    passing.write_text("import os, sys\nsys.exit(0 if os.environ['CONQUISTA_SKIP_MICROPYTHON'] == '1' else 3)\n")
    failing = tmp_path / "bench_bad.py"
    failing.write_text("import sys\nsys.exit(1)\n")
    assert module.run_all([failing, passing], {"CONQUISTA_SKIP_MICROPYTHON": "1"}) == ["bench_bad"]
