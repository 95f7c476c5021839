"""pyrisk's AIs seated in our engine (benchmarks/pyrisk_adapter.py, used by bench_pyrisk_strength.py).

Without a pyrisk checkout (CONQUISTA_PYRISK_DIR) and a Python 2.7 the tests that need them are skipped; the
benchmark itself always runs the check that the seats play as pyrisk's own loop does before it compares anything.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_pyrisk_strength as bench  # noqa: E402
import pyrisk_adapter as adapter  # noqa: E402
from conquista.rules.mapdata import load_map  # noqa: E402

PEER = Path(os.environ["CONQUISTA_PYRISK_DIR"]) if os.environ.get("CONQUISTA_PYRISK_DIR") else None
PYTHON = adapter.python27()
needs_pyrisk = pytest.mark.skipif(PEER is None or PYTHON is None,
                                  reason="no pyrisk checkout (CONQUISTA_PYRISK_DIR) or no Python 2.7")


def fake_pyrisk(tmp_path: Path, noisy: bool) -> Path:
    """A directory the seat script can load as pyrisk: a two-territory world; `noisy` writes a log line."""
    (tmp_path / "game.py").write_text(
        "import sys\n"
        + ("sys.stderr.write('DEBUG:pyrisk:start\\n')\n" if noisy else "")
        + "class World(object):\n"
        "    def load(self, areas, connect):\n"
        "        self.territories = {}\n")
    (tmp_path / "world.py").write_text("AREAS = {'Only': (1, ['A', 'B'])}\nCONNECT = 'A--B'\nMAP = ''\nKEY = {}\n")
    return tmp_path


@pytest.mark.parametrize("noisy", [False, True])
def test_a_seat_that_logs_is_refused(tmp_path: Path, noisy: bool) -> None:
    seats = adapter.SeatProcess(fake_pyrisk(tmp_path, noisy), sys.executable)
    try:
        seats.ask({"op": "map"})
        if noisy:
            with pytest.raises(adapter.SeatProblem, match="logs"):
                seats.check_quiet()
        else:
            seats.check_quiet()
    finally:
        seats.close()


def test_a_different_map_is_refused(tmp_path: Path) -> None:
    seats = adapter.SeatProcess(fake_pyrisk(tmp_path, False), sys.executable)
    try:
        with pytest.raises(adapter.SeatProblem, match="continents differ"):
            adapter.check_maps(seats, load_map(None))
    finally:
        seats.close()


def test_without_a_checkout_the_benchmark_says_so(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("CONQUISTA_PYRISK_DIR", raising=False)
    assert bench.main(["--peer", str(ROOT)]) == 0
    assert "skipped" in capsys.readouterr().out


@needs_pyrisk
def test_the_maps_are_the_same() -> None:
    assert PEER is not None and PYTHON is not None
    seats = adapter.SeatProcess(PEER, PYTHON)
    try:
        adapter.check_maps(seats, load_map(None))
    finally:
        assert seats.close() == ""


@needs_pyrisk
def test_stupid_ai_lasts_as_long_in_our_engine_as_in_pyrisks_own_loop() -> None:
    assert PEER is not None and PYTHON is not None
    seats = adapter.SeatProcess(PEER, PYTHON)
    try:
        assert bench.faithful(seats, 80, random.Random(38).randrange(1000))
    finally:
        assert seats.close() == ""


@needs_pyrisk
@pytest.mark.parametrize("ai", adapter.AIS)
def test_each_ai_plays_a_whole_classic_game_against_normal(ai: str) -> None:
    assert PEER is not None and PYTHON is not None
    seats = adapter.SeatProcess(PEER, PYTHON)
    tally = adapter.Tally()
    try:
        winner, turns, cut = bench.play(bench.load_ruleset("classic"), 2, {0: "normal"}, ai, "38:0", seats, tally)
        assert winner in (0, 1) and turns > 0 and tally.unplaced == 0 and not cut
    finally:
        assert seats.close() == ""


@needs_pyrisk
def test_a_game_stops_when_our_seat_is_out_or_at_the_turn_cap() -> None:
    """Once our bot is out the rest cannot change its result (no winner is given, and it is not a cut game); a game
    that reaches the cap is cut."""
    assert PEER is not None and PYTHON is not None
    seats = adapter.SeatProcess(PEER, PYTHON)
    rules = bench.load_ruleset("classic")
    try:
        winner, _, cut = bench.play(rules, 4, {0: "easy"}, "StupidAI", "38:1", seats, adapter.Tally(), turn_cap=5)
        assert (winner, cut) == (None, True)
        for i in range(6):   # easy against three BetterAIs: out before any of them wins, in one of these deals
            winner, _, cut = bench.play(rules, 4, {0: "easy"}, "BetterAI", f"38:{i}", seats, adapter.Tally())
            assert not cut and winner in (None, 0)
            if winner is None:
                break
        else:
            pytest.fail("easy won or outlived every game: the early stop was not reached")
    finally:
        assert seats.close() == ""


@needs_pyrisk
def test_the_seats_simulate_battles_as_pyrisk_does_only_faster() -> None:
    """The seat process uses its quick battle simulation only once it gave pyrisk's results and generator state."""
    assert PEER is not None and PYTHON is not None
    seats = adapter.SeatProcess(PEER, PYTHON)
    try:
        assert seats.ask({"op": "quick"}) is True
    finally:
        assert seats.close() == ""
