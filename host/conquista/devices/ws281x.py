"""The LED chain driven from the Pi by rpi-ws281x (Pi 1-4; a Pi 5 drives its LEDs through the Pico).

rpi-ws281x is the optional `pi` extra and is imported here only, when a strip is opened. It fails on a machine
that is not a Pi 1-4 (or without root), and its PixelStrip then leaves a trap: the object registers cleanup
(in `atexit` in 4.x/5.x releases, in `__del__` in older ones) that calls `ws2811_fini` on a controller that
never started, which crashes the interpreter at exit. A failed strip is therefore neutralised before the error
is reported.
"""

from __future__ import annotations

import atexit
import importlib
from typing import Any

from conquista.devices.current_limit import OutputStage
from conquista.devices.errors import DeviceError
from conquista.devices.frames import to_packed_colors
from conquista.hardware.profile import StripDriver, StripSettings

INSTALL_HINT = "pip install 'conquista[pi]'"


class Ws281xStrip:
    """A `LedStrip` on rpi-ws281x. Every frame passes brightness and the current limit (`OutputStage`)."""

    def __init__(self, settings: StripSettings) -> None:
        if settings.driver is not StripDriver.WS281X:
            raise DeviceError(f"the board profile's strip.driver is {settings.driver.value!r}: the Pico drives "
                              "these LEDs, so open them through the serial link, not rpi-ws281x")
        self._settings = settings
        self._stage = OutputStage.from_strip(settings)
        self._last: list[int] = []
        try:
            module: Any = importlib.import_module("rpi_ws281x")
        except ImportError:
            raise DeviceError(f"LED strip: the rpi_ws281x library is not installed; run `{INSTALL_HINT}` on the "
                              "Pi (or drive the LEDs from the Pico: strip.driver = \"pico\"); without a board, "
                              "`conquista sim` plays on the simulated one") from None
        strip_type = getattr(module, f"WS2811_STRIP_{settings.color_order}", None)
        if strip_type is None:
            raise DeviceError(f"LED strip: this rpi_ws281x has no colour order {settings.color_order}; "
                              f"upgrade it with `{INSTALL_HINT} --upgrade`")
        # Brightness is applied in software (OutputStage) so the current estimate sees the bytes the LEDs get;
        # the library's own brightness stays at full.
        try:
            strip = module.PixelStrip(settings.length, settings.data_pin, settings.frequency_hz, settings.dma,
                                      settings.invert, 255, settings.channel, strip_type)
        except Exception as exc:
            raise DeviceError(f"LED strip on GPIO{settings.data_pin}: rpi-ws281x rejected the strip settings "
                              f"({exc}); check [strip] in the board profile") from None
        try:
            strip.begin()
        except Exception as exc:
            _neutralise(strip)
            raise DeviceError(
                f"LED strip on GPIO{settings.data_pin}: rpi-ws281x could not start ({exc}); it needs a Raspberry "
                "Pi 1-4 and root (sudo), or the gpio group for GPIO10 (SPI) — on a Pi 5 or another computer, set "
                "strip.driver = \"pico\" in the board profile, or use `conquista sim`"
            ) from None
        self._strip: Any = strip
        self._last = [-1] * settings.length

    @property
    def length(self) -> int:
        return self._settings.length

    def show(self, frame: bytes | bytearray) -> None:
        colors = to_packed_colors(self._stage.prepare(frame))
        strip = self._strip
        last = self._last
        # Each setPixelColor is a call into the C library; a game frame changes a few territories at a time.
        for i, color in enumerate(colors):
            if last[i] != color:
                strip.setPixelColor(i, color)
                last[i] = color
        try:
            strip.show()
        except RuntimeError as exc:
            raise DeviceError(f"LED strip on GPIO{self._settings.data_pin}: rpi-ws281x failed to send a frame "
                              f"({exc}); check that no other program drives the LEDs") from None

    def close(self) -> None:
        """Turn the LEDs off; the library's own atexit cleanup stops its DMA when the process ends."""
        strip = getattr(self, "_strip", None)
        if strip is None:
            return
        self._strip = None
        for i in range(self._settings.length):
            strip.setPixelColor(i, 0)
        try:
            strip.show()
        except RuntimeError:
            pass  # the LEDs are being abandoned anyway; the error that matters was reported by show()


def _neutralise(strip: Any) -> None:
    """Make a PixelStrip whose begin() failed safe to leave to the garbage collector and to interpreter exit.

    Its cleanup would call ws2811_fini on a controller that never initialised. Dropping the atexit hook and the
    struct pointer turns every later cleanup into a no-op; the small struct it leaves allocated is freed by the
    process's exit, which is cheaper than any call into a library that just failed.
    """
    cleanup = getattr(strip, "_cleanup", None)
    if cleanup is not None:
        atexit.unregister(cleanup)
    try:
        strip._leds = None
        strip._channel = None
    except AttributeError:
        pass
