"""A stand-in for the rpi_ws281x package with the behaviour the adapter must cope with.

Like the real library: PixelStrip(num, pin, freq_hz, dma, invert, brightness, channel, strip_type) builds a
controller struct, registers its cleanup with atexit (5.x) and in __del__ (older releases), begin() raises
RuntimeError when the hardware cannot be initialised, and cleanup of a strip whose begin() failed crashes the
process the way ws2811_fini does (here: a message and exit status 139, as for SIGSEGV).

Set FAKE_WS281X_INIT_ERROR in the environment (or `init_error` on the module) to make begin() fail.
"""

from __future__ import annotations

import atexit
import os
import sys

WS2811_STRIP_RGB = 0x00100800
WS2811_STRIP_RBG = 0x00100008
WS2811_STRIP_GRB = 0x00081000
WS2811_STRIP_GBR = 0x00080010
WS2811_STRIP_BRG = 0x00001008
WS2811_STRIP_BGR = 0x00000810

init_error: str | None = os.environ.get("FAKE_WS281X_INIT_ERROR")
instances: list[PixelStrip] = []


class PixelStrip:
    def __init__(self, num: int, pin: int, freq_hz: int = 800000, dma: int = 10, invert: bool = False,
                 brightness: int = 255, channel: int = 0, strip_type: int | None = None) -> None:
        self._leds: object | None = object()  # stands for the C struct
        self._channel: object | None = object()
        self._started = False
        self.args = (num, pin, freq_hz, dma, invert, brightness, channel, strip_type)
        self.pixels = [0] * num
        self.shown: list[list[int]] = []
        self.set_calls = 0
        instances.append(self)
        atexit.register(self._cleanup)

    def __del__(self) -> None:
        self._cleanup()

    def _cleanup(self) -> None:
        if self._leds is not None:
            if not self._started:
                sys.stderr.write("Segmentation fault (ws2811_fini on a controller that never started)\n")
                sys.stderr.flush()
                os._exit(139)
            self._leds = None
            self._channel = None

    def begin(self) -> None:
        if init_error:
            raise RuntimeError(f"ws2811_init failed with code {init_error}")
        self._started = True

    def setPixelColor(self, n: int, color: int) -> None:
        self.pixels[n] = color
        self.set_calls += 1

    def show(self) -> None:
        self.shown.append(list(self.pixels))

    def numPixels(self) -> int:
        return len(self.pixels)
