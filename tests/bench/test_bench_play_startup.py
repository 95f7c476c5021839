"""benchmarks/bench_play_startup.py: the pieces that read what the children say (no timing here)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_play_startup", ROOT / "benchmarks" / "bench_play_startup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def test_the_frame_mark_gives_the_childs_cpu_in_ms() -> None:
    assert _bench().parse_frame_mark(b"first-frame 0.123456\n") == pytest.approx(123.456)


@pytest.mark.parametrize("line", [b"", b"first-frame\n", b"frame 0.1\n", b"first-frame 0.1 extra\n"])
def test_anything_else_on_the_pipe_is_an_error_naming_it(line: bytes) -> None:
    with pytest.raises(ValueError, match="first-frame SECONDS"):
        _bench().parse_frame_mark(line)


def test_the_status_of_the_web_apps_answer() -> None:
    bench = _bench()
    assert bench.status_code(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n") == 200
    assert bench.status_code(b"HTTP/1.1 404 Not Found\r\n") == 404
    with pytest.raises(ValueError, match="not an HTTP status line"):
        bench.status_code(b"")


def test_the_verdicts_compare_medians_with_the_targets() -> None:
    bench = _bench()
    runs = [bench.PlayRun(frame_ms=f, frame_cpu_ms=0.0, web_after_ms=w, web_cpu_ms=0.0)
            for f, w in ((70, 100), (90, 200), (75, 140))]
    (_, ratio, ratio_target, ratio_met), (_, after, web_target, web_met) = bench.verdicts([9, 10, 11], runs)
    assert (ratio, ratio_target, ratio_met) == (7.5, 8.0, True)
    assert (after, web_target, web_met) == (140, 150.0, True)
    slow = [bench.PlayRun(frame_ms=200, frame_cpu_ms=0.0, web_after_ms=151, web_cpu_ms=0.0)]
    assert [met for *_, met in bench.verdicts([10], slow)] == [False, False]


def test_the_led_stand_in_reports_only_the_first_lit_frame(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _bench()
    (tmp_path / "rpi_ws281x.py").write_text(bench.SHIM)
    read_end, write_end = os.pipe()
    monkeypatch.setenv(bench.FRAME_FD_ENV, str(write_end))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "rpi_ws281x", raising=False)
    import rpi_ws281x  # type: ignore[import-not-found]

    strip = rpi_ws281x.PixelStrip(3, 18, 800000, 10, False, 255, 0, rpi_ws281x.WS2811_STRIP_GRB)
    strip.begin()
    strip.show()                       # dark: the devices' check before the board
    strip.setPixelColor(1, 0x00FF00)
    strip.show()
    strip.show()
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        lines = pipe.read().splitlines()
    monkeypatch.delitem(sys.modules, "rpi_ws281x")
    assert len(lines) == 1 and bench.parse_frame_mark(lines[0]) >= 0


def test_the_cpu_time_of_a_proc_stat_line() -> None:
    stat = "4242 (conquista (x) y) S 1 4242 4242 0 -1 4194560 900 0 0 0 17 3 0 0 20 0 3 0 100 0 0"
    assert _bench().cpu_ms_from_stat(stat, 100) == 200.0     # 17 + 3 ticks of 10 ms
