"""Firmware modules under CPython: what the MicroPython run cannot reach (LED output through neopixel)."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from conquista.link import codec, messages
from conquista_sim.fake_machine import ColPin, FakeClock, KeyMatrix, RecordingPort, RowPin
from cqfw.device import Firmware
from cqfw.matrix import MatrixScanner


class FakeNeoPixel:
    ORDER = (1, 0, 2, 3)  # GRB, as the WS2812B wants

    def __init__(self, pin: object, n: int, bpp: int = 3) -> None:
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.writes: list[bytes] = []

    def write(self) -> None:
        self.writes.append(bytes(self.buf))


def test_led_frames_from_the_host_are_latched_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("neopixel")
    module.NeoPixel = FakeNeoPixel  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "neopixel", module)
    from cqfw.leds import LedOutput

    leds = LedOutput(object(), 30)
    matrix = KeyMatrix(6, 7)
    port = RecordingPort(4096, 4096)
    scanner = MatrixScanner([RowPin(matrix, r) for r in range(6)], [ColPin(matrix, c) for c in range(7)])
    fw = Firmware(scanner, port, FakeClock(), 6, 7, 10, 1, leds)
    fw.start(0)
    colors = [(i, 2 * i, 255 - i) for i in range(30)]
    frames = messages.led_frames(1, colors)
    assert len(frames) == 3  # 20 LEDs per frame, then LED_SHOW
    port.queue_rx(b"".join(frames[:-1]))
    fw.step(1)
    assert leds.np.writes == []  # nothing shown before LED_SHOW
    port.queue_rx(frames[-1])
    fw.step(2)
    assert len(leds.np.writes) == 1
    shown = leds.np.writes[0]
    assert [(shown[3 * i + 1], shown[3 * i], shown[3 * i + 2]) for i in range(30)] == colors
    assert fw.rx_errors == 0


def _firmware(debounce_ms: int = 10, period_ms: int = 1) -> tuple[Firmware, RecordingPort]:
    matrix = KeyMatrix(6, 7)
    port = RecordingPort(4096, 4096)
    scanner = MatrixScanner([RowPin(matrix, r) for r in range(6)], [ColPin(matrix, c) for c in range(7)])
    return Firmware(scanner, port, FakeClock(), 6, 7, debounce_ms, period_ms), port


@pytest.mark.parametrize(("debounce_ms", "period_ms", "named"),
                         [(-1, 1, "debounce_ms"), (0, 1, "debounce_ms"), (256, 1, "debounce_ms"),
                          (300, 1, "debounce_ms"), (10, 0, "scan_period_ms")])
def test_timings_outside_the_protocol_range_are_refused(debounce_ms: int, period_ms: int, named: str) -> None:
    # Regression: -1 and 300 failed later in HELLO with "byte must be in range(0, 256)"; 0 was accepted.
    wrong = debounce_ms if named == "debounce_ms" else period_ms
    with pytest.raises(ValueError, match=rf"{named} must be a whole number of ms in 1\.\.255, not {wrong}"):
        _firmware(debounce_ms, period_ms)


def test_config_frame_with_zero_debounce_is_not_obeyed() -> None:
    fw, port = _firmware(10)
    fw.start(0)
    sent = port.n
    port.queue_rx(codec.encode_frame(codec.T_CONFIG, 1, bytes([0])))
    fw.step(1)
    assert fw.debounce_ms == 10 and fw.debouncer.limit == 10 and fw.rx_errors == 1
    assert port.n == sent  # no HELLO: the CONFIG is not acknowledged
    port.queue_rx(codec.encode_frame(codec.T_CONFIG, 2, bytes([255])))
    fw.step(2)
    assert fw.debounce_ms == 255 and fw.rx_errors == 1


@pytest.mark.parametrize("value", [0, 256, -1, 2.5, "10", True])
def test_config_json_with_a_bad_debounce_names_the_file_and_key(tmp_path: Path, value: object) -> None:
    from cqfw.pico import load_config

    path = tmp_path / "config.json"
    path.write_text(json.dumps({"row_pins": [2], "col_pins": [3], "debounce_ms": value}))
    with pytest.raises(ValueError, match=r"config\.json: debounce_ms must be a whole number of ms in 1\.\.255"):
        load_config(str(path))
    path.write_text(json.dumps({"row_pins": [2], "col_pins": [3], "debounce_ms": 255, "scan_period_ms": 1}))
    assert load_config(str(path))["debounce_ms"] == 255


def test_the_mpr121_scanner_configures_every_board_and_survives_one_that_stops_answering() -> None:
    from conquista_sim.fake_machine import FakeI2C
    from cqfw.touch import ELECTRODES, MPR121Error, TouchScanner

    bus = FakeI2C(2)
    scanner = TouchScanner(bus, 2)
    raw = bytearray(2 * ELECTRODES)
    bus.touch(14, 1)
    scanner.scan(raw)
    assert not any(raw)                     # before start(): electrodes disabled, as on the part
    scanner.start()
    assert [b.regs[0x41] for b in bus.boards] == [12, 12] and [b.regs[0x42] for b in bus.boards] == [6, 6]
    scanner.scan(raw)
    assert [k for k in range(24) if raw[k]] == [14]
    bus.boards.pop()                        # board 1 gone (its cable pulled): read as untouched, counted
    scanner.scan(raw)
    assert not any(raw) and scanner.errors == 1
    with pytest.raises(MPR121Error, match=r"MPR121 board 1 at 0x5b does not answer: check its ADDR wire"):
        TouchScanner(bus, 2).start()
