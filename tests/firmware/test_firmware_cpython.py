"""Firmware modules under CPython: what the MicroPython run cannot reach (LED output through neopixel)."""

from __future__ import annotations

import sys
import types

import pytest

from conquista.link import messages
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
