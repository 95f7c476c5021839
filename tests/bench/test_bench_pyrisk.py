"""benchmarks/bench_pyrisk.py downloads nothing: without a pyrisk checkout it says what to give and exits 0."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_pyrisk", ROOT / "benchmarks" / "bench_pyrisk.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_checkout_is_a_skip_that_says_how(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CONQUISTA_PYRISK_DIR", raising=False)
    assert _bench().main([]) == 0
    out = capsys.readouterr().out
    assert "skipped" in out and "chronitis/pyrisk" in out and "--peer" in out


def test_a_directory_that_is_not_pyrisk_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _bench().main(["--peer", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"{tmp_path} is not a pyrisk checkout" in out


def test_both_sides_play_the_same_number_of_games_with_a_fixed_hash_seed(tmp_path: Path) -> None:
    sides = _bench().commands(tmp_path, 4, 50, 3)
    peer_command, peer_env, peer_cwd = sides["pyrisk"]
    ours, _, _ = sides["pure"]
    assert peer_cwd == tmp_path and peer_env["PYTHONHASHSEED"] == "0"
    assert peer_command[-1] == "StupidAI*4" and "50" in peer_command and "--nocurses" in peer_command
    assert ours[ours.index("--players") + 1] == "4" and ours[ours.index("--games") + 1] == "50"
    assert ours[ours.index("--bots") + 1] == "greedy" and ours[ours.index("--rules") + 1] == "classic"
