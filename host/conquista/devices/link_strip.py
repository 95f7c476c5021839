"""The LED chain driven by the Pico (strip.driver = "pico"): frames go over the serial link.

This is the only way on a Pi 5, where rpi-ws281x does not run. The frame passes the same brightness and current
limit as on the Pi, so the Pico only latches bytes that are already safe for the supply.

The firmware puts each LED's three bytes on the wire in NeoPixel's GRB order (hardware/PROTOCOL.md, LED), so the
profile's `color_order` is honoured here: each (r, g, b) is sent rearranged so the wire carries the profile's
order, and a strip of RGB or BRG pixels shows the right colours on the Pico path too.
"""

from __future__ import annotations

from conquista.devices.current_limit import OutputStage
from conquista.devices.errors import DeviceError
from conquista.devices.interfaces import LedLink
from conquista.hardware.firmware_match import led_count_mismatch
from conquista.hardware.profile import StripDriver, StripSettings

FIRMWARE_WIRE_ORDER = "GRB"   # where the firmware's LedOutput puts the 1st, 2nd and 3rd byte it receives


def send_order(color_order: str) -> tuple[int, int, int]:
    """Which of (r, g, b) to send 1st, 2nd, 3rd so the firmware's GRB wire carries `color_order`."""
    # The firmware sends byte i of ours at wire position FIRMWARE_WIRE_ORDER.index("RGB"[i]); the wire should
    # carry at position p the colour color_order[p].
    wire = tuple("RGB".index(c) for c in color_order)
    picks = [0, 0, 0]
    for i, ch in enumerate("RGB"):
        picks[i] = wire[FIRMWARE_WIRE_ORDER.index(ch)]
    return picks[0], picks[1], picks[2]


class LinkStrip:
    """A `LedStrip` over anything with `show_leds(colors) -> bool` (`conquista.link.source.SerialSensorSource`).

    While the link is down a frame cannot be sent; it is counted in `dropped`, and `resend()` (called when the
    link is healthy again) shows the last frame, so the board is right again without the referee repainting.
    """

    def __init__(self, link: LedLink, settings: StripSettings) -> None:
        if settings.driver is not StripDriver.PICO:
            raise DeviceError(f"the board profile's strip.driver is {settings.driver.value!r}: the Pi drives these "
                              "LEDs with rpi-ws281x (Ws281xStrip), not the Pico")
        # The link's HELLO, when it has one (SerialSensorSource.firmware): a firmware driving another number of
        # LEDs is refused here, in one line, rather than showing a dark board.
        hello = getattr(link, "firmware", None)
        wrong = led_count_mismatch(settings.length, getattr(hello, "led_count", None))
        if wrong is not None:
            raise DeviceError(wrong)
        self._link = link
        self._order = send_order(settings.color_order)
        self._stage = OutputStage.from_strip(settings)
        self._last: list[tuple[int, int, int]] | None = None
        self.dropped = 0

    @property
    def length(self) -> int:
        return self._stage.length

    def show(self, frame: bytes | bytearray) -> None:
        emitted = self._stage.prepare(frame)
        a, b, c = self._order
        self._last = list(zip(emitted[a::3], emitted[b::3], emitted[c::3], strict=True))
        if not self._link.show_leds(self._last):
            self.dropped += 1

    def resend(self) -> bool:
        """Send the last frame again; False if there is none or the link is still down."""
        return self._last is not None and self._link.show_leds(self._last)

    def close(self) -> None:
        """Turn the LEDs off if the link is up; the link itself belongs to whoever opened it."""
        self._link.show_leds([(0, 0, 0)] * self.length)
