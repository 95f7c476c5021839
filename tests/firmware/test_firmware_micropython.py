"""The firmware under the real MicroPython (WebAssembly build run by node) and under CPython, compared."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from conftest import FIRMWARE, HERE, RunMpy

from conquista.link import codec
from conquista.link.frames import StreamDecoder


def lines(out: str) -> dict[str, str]:
    result = {}
    for line in out.splitlines():
        head, _, rest = line.partition(" ")
        result[head] = rest
    return result


@pytest.fixture(scope="module")
def mpy_run(run_micropython: RunMpy) -> dict[str, str]:
    return lines(run_micropython(HERE / "scenario.py"))


@pytest.fixture(scope="module")
def cpython_run() -> dict[str, str]:
    import scenario

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        scenario.run()
    return lines(buf.getvalue())


def test_it_really_ran_under_micropython(run_micropython: RunMpy, tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("import sys\nprint(sys.implementation.name)\n")
    assert run_micropython(probe).strip() == "micropython"


def test_scan_loop_allocates_nothing_under_heap_lock(mpy_run: dict[str, str]) -> None:
    assert mpy_run["ALLOC"] == "ok"
    assert int(mpy_run["STEPS"]) == 5000


def test_the_heap_lock_check_catches_an_allocation(run_micropython: RunMpy, tmp_path: Path) -> None:
    # The same firmware with one allocation slipped into the per-key path must fail the check, or the check
    # above proves nothing.
    src = (FIRMWARE / "cqfw" / "device.py").read_text()
    marker = "        seq = (self.key_seq + 1) & 0xFF\n"
    assert marker in src
    leaky = tmp_path / "device.py"
    leaky.write_text(src.replace(marker, marker + "        self.scratch = [seq]\n"))
    out = lines(run_micropython(HERE / "scenario.py", {"/lib/cqfw/device.py": leaky}))
    assert out["ALLOC"].startswith("fail: MemoryError at step")


def test_micropython_emits_the_same_bytes_as_cpython(mpy_run: dict[str, str], cpython_run: dict[str, str]) -> None:
    assert cpython_run["ALLOC"] == "unchecked"
    assert len(mpy_run["WIRE"]) > 1000
    assert mpy_run["WIRE"] == cpython_run["WIRE"]
    assert mpy_run["RXERR"] == cpython_run["RXERR"] == "2"


def decoded(run: dict[str, str]) -> list[tuple[int, int, bytes]]:
    dec = StreamDecoder()
    frames = dec.feed(bytes.fromhex(run["WIRE"]))
    assert dec.counters.crc_errors == dec.counters.malformed == 0
    return [(f.type, f.seq, f.payload) for f in frames]


def key_events(run: dict[str, str]) -> list[tuple[int, int, bool]]:
    """(seq, key, down) of every KEY frame, replays included."""
    return [(s, p[0] & 0x7F, bool(p[0] & 0x80)) for t, s, p in decoded(run) if t == codec.T_KEY]


def test_a_bouncing_contact_gives_exactly_one_press_and_one_release(mpy_run: dict[str, str]) -> None:
    live = {}
    for seq, key, down in key_events(mpy_run):
        live.setdefault(seq, (key, down))  # replays repeat a number: count each event once
    events = [live[s] for s in sorted(live)]
    assert [e for e in events if e[0] == 9] == [(9, True), (9, False)]
    assert [e for e in events if e[0] == 41] == [(41, True), (41, False)]
    assert [e for e in events if e[0] == 0] == []  # the 1 ms glitch
    assert (5, True) in events and (6, True) in events  # two keys down at once, no ghost
    assert {k for k, _ in events} == {9, 41, 5, 6, 20, 30, 31, 32, 33, 34}
    assert sorted(live) == list(range(1, len(live) + 1))  # numbered without gaps


def test_host_commands_are_obeyed(mpy_run: dict[str, str], cpython_run: dict[str, str]) -> None:
    frames = decoded(mpy_run)
    types = [t for t, _, _ in frames]
    assert types[:2] == [codec.T_HELLO, codec.T_SNAPSHOT]
    hellos = [p for t, _, p in frames if t == codec.T_HELLO]
    assert [h[6] for h in hellos] == [5, 8, 8]  # boot, CONFIG ack (debounce 8), HELLO request
    assert hellos[0][4:6] == bytes([6, 7])
    assert [(h[8] << 8) | h[9] for h in hellos] == [150, 150, 150]   # HELLO reports the LEDs it drives
    assert mpy_run["LEDS"] == cpython_run["LEDS"] == "1 ff000000ff000000ff"
    # RESYNC after number 4: numbers 5.. are replayed, then a SNAPSHOT shows key 20 held.
    i = types.index(codec.T_SNAPSHOT, 2)
    replayed = []
    for t, seq, _ in reversed(frames[:i]):
        if t != codec.T_KEY:
            break
        replayed.insert(0, seq)
    # Keys 9, 41, 5+6 and 20 have moved by then: numbers 1..9; the host had 4, so 5..9 come again.
    assert replayed[-5:] == [5, 6, 7, 8, 9]
    snap = frames[i][2]
    assert snap[2] == 42 and snap[3 + 20 // 8] & (1 << (20 % 8))
    heartbeats = [f for f in frames if f[0] == codec.T_HEARTBEAT]
    assert len(heartbeats) >= 45  # every 100 ms over 5 s, plus the PING answer


def test_the_codec_behaves_the_same_under_both_runtimes(run_micropython: RunMpy) -> None:
    mpy = run_micropython(HERE / "codec_check.py")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile((HERE / "codec_check.py").read_text(), "codec_check.py", "exec"), {"__name__": "codec_check"})
    assert mpy == buf.getvalue()
    result = lines(mpy)
    assert result["GOOD"] == "80"  # every good frame, none of the garbage or the damaged ones
    assert int(result["ERRORS"]) >= 7 + 9  # 7 damaged frames and the garbage runs, each counted


def test_debounce_range_is_checked_under_micropython(run_micropython: RunMpy, tmp_path: Path) -> None:
    # The same check as under CPython (test_firmware_cpython): 0, 256, a float and a bool are refused on the Pico.
    probe = tmp_path / "debounce_range.py"
    probe.write_text(
        "from cqfw.debounce import check_ms\n"
        "for value in (0, 256, -1, 2.5, True, '10', 1, 255):\n"
        "    try:\n"
        "        print('ok', check_ms('debounce_ms', value))\n"
        "    except ValueError as exc:\n"
        "        print('refused', exc)\n"
    )
    out = run_micropython(probe).splitlines()
    assert out[:6] == [
        "refused debounce_ms must be a whole number of ms in 1..255, not 0",
        "refused debounce_ms must be a whole number of ms in 1..255, not 256",
        "refused debounce_ms must be a whole number of ms in 1..255, not -1",
        "refused debounce_ms must be a whole number of ms in 1..255, not 2.5",
        "refused debounce_ms must be a whole number of ms in 1..255, not True",
        "refused debounce_ms must be a whole number of ms in 1..255, not '10'",
    ]
    assert out[6:] == ["ok 1", "ok 255"]


@pytest.fixture(scope="module")
def touch_runs(run_micropython: RunMpy) -> tuple[dict[str, str], dict[str, str]]:
    import touch_scenario

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        touch_scenario.run()
    return lines(run_micropython(HERE / "touch_scenario.py")), lines(buf.getvalue())


def test_the_mpr121_scanner_reports_touches_as_keys_under_both_pythons(
        touch_runs: tuple[dict[str, str], dict[str, str]]) -> None:
    mpy, cpython = touch_runs
    assert mpy["ALLOC"] == "ok" and cpython["ALLOC"] == "unchecked"   # the scan loop allocates nothing
    assert mpy["WIRE"] == cpython["WIRE"] and mpy["ECR"] == cpython["ECR"] == "8c 8c 8c 8c"
    assert mpy["ERRORS"] == "0"
    frames = decoded(mpy)
    hello = next(p for t, _, p in frames if t == codec.T_HELLO)
    assert (hello[4], hello[5]) == (4, 12)                 # 4 boards × 12 electrodes: 48 keys
    keys = [(p[0] & 0x7F, bool(p[0] & 0x80)) for t, _, p in frames if t == codec.T_KEY]
    assert keys[:2] == [(0, True), (0, False)]
    assert (23, True) not in keys                          # the 1 ms touch is under the debounce
    assert {k for k, down in keys if down} == {0, 47, 24, 13, *range(36, 46)}
    assert keys.count((13, True)) == 1 and keys.count((13, False)) == 1
