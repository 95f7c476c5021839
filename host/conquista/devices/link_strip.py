"""The LED chain driven by the Pico (strip.driver = "pico"): frames go over the serial link.

This is the only way on a Pi 5, where rpi-ws281x does not run. The frame passes the same brightness and current
limit as on the Pi, so the Pico only latches bytes that are already safe for the supply.
"""

from __future__ import annotations

from conquista.devices.current_limit import OutputStage
from conquista.devices.errors import DeviceError
from conquista.devices.interfaces import LedLink
from conquista.hardware.profile import StripDriver, StripSettings


class LinkStrip:
    """A `LedStrip` over anything with `show_leds(colors) -> bool` (`conquista.link.source.SerialSensorSource`).

    While the link is down a frame cannot be sent; it is counted in `dropped`, and `resend()` (called when the
    link is healthy again) shows the last frame, so the board is right again without the referee repainting.
    """

    def __init__(self, link: LedLink, settings: StripSettings) -> None:
        if settings.driver is not StripDriver.PICO:
            raise DeviceError(f"the board profile's strip.driver is {settings.driver.value!r}: the Pi drives these "
                              "LEDs with rpi-ws281x (Ws281xStrip), not the Pico")
        self._link = link
        self._stage = OutputStage.from_strip(settings)
        self._last: list[tuple[int, int, int]] | None = None
        self.dropped = 0

    @property
    def length(self) -> int:
        return self._stage.length

    def show(self, frame: bytes | bytearray) -> None:
        emitted = self._stage.prepare(frame)
        self._last = list(zip(emitted[0::3], emitted[1::3], emitted[2::3], strict=True))
        if not self._link.show_leds(self._last):
            self.dropped += 1

    def resend(self) -> bool:
        """Send the last frame again; False if there is none or the link is still down."""
        return self._last is not None and self._link.show_leds(self._last)

    def close(self) -> None:
        """Turn the LEDs off if the link is up; the link itself belongs to whoever opened it."""
        self._link.show_leds([(0, 0, 0)] * self.length)
