"""benchmarks/bench_pyrisk.py downloads nothing: without a pyrisk checkout it says what to give and exits 0; it
compares only games that neither side logs or displays."""

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
    assert peer_command[1].endswith("pyrisk_games.py")
    assert peer_command[peer_command.index("--peer") + 1] == str(tmp_path)
    assert peer_command[peer_command.index("--players") + 1] == "4"
    assert peer_command[peer_command.index("--games") + 1] == "50"
    assert ours[ours.index("--players") + 1] == "4" and ours[ours.index("--games") + 1] == "50"
    assert ours[ours.index("--bots") + 1] == "greedy" and ours[ours.index("--rules") + 1] == "classic"


def fake_pyrisk(tmp_path: Path, logs: bool) -> Path:
    """A directory that looks like a pyrisk checkout, whose `game.Game` logs every event when `logs` (as
    `pyrisk.py --nocurses` does) and plays a trivial game."""
    (tmp_path / "ai").mkdir()
    (tmp_path / "pyrisk.py").write_text("")
    (tmp_path / "ai" / "__init__.py").write_text("")
    (tmp_path / "ai" / "stupid.py").write_text("class StupidAI:\n    pass\n")
    (tmp_path / "world.py").write_text("CONNECT = MAP = KEY = AREAS = None\n")
    setup = "import logging, sys\nlogging.basicConfig(stream=sys.stderr, level=logging.DEBUG)\n" if logs else ""
    (tmp_path / "game.py").write_text(setup + (
        "import logging\nLOG = logging.getLogger('pyrisk')\n"
        "class Game:\n"
        "    def __init__(self, **options):\n        self.names = []\n"
        "    def add_player(self, name, ai):\n        self.names.append(name)\n"
        "    def play(self):\n        LOG.warning('ALPHA attacks BRAVO')\n        return self.names[0]\n"))
    return tmp_path


def test_the_peer_driver_plays_without_a_log(tmp_path: Path) -> None:
    bench = _bench()
    peer = fake_pyrisk(tmp_path, logs=False)
    command, env, cwd = bench.commands(peer, 2, 3, 1)["pyrisk"]
    assert bench.cpu_of(command, env, cwd, "pyrisk") >= 0.0   # its logger is disabled: nothing on stderr


def test_a_side_that_logs_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _bench()
    peer = fake_pyrisk(tmp_path, logs=True)   # a handler on stderr from the start: the driver cannot quiet it
    # Logging enabled by the module itself after the driver disabled it: a side that logs anyway.
    (peer / "game.py").write_text("import logging\nlogging.disable(logging.NOTSET)\n" + (peer / "game.py").read_text())
    monkeypatch.setattr(bench, "fast_built", lambda: False)
    assert bench.main(["--peer", str(peer), "--games", "2", "--rounds", "1"]) == 2
    err = capsys.readouterr().err
    assert "refused" in err and "pyrisk wrote" in err and "stderr" in err and "ALPHA attacks BRAVO" in err


def test_a_summary_is_not_a_log_but_pages_of_output_are() -> None:
    bench = _bench()
    assert bench.log_problem("pure", b"games 200\nwins 100 100\n", b"") is None
    assert "stderr" in bench.log_problem("pyrisk", b"", b"INFO:pyrisk:['ALPHA', 'attacks']\n")
    assert "more than a summary" in bench.log_problem("pure", b"x" * 5000, b"")
