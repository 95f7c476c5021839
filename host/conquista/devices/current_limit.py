"""Brightness and the software current limit: what every frame passes through on its way to the LEDs.

The estimate of a frame's current is linear in its byte values: each LED draws `idle_ma_per_led`, plus
`ma_per_channel × value / 255` per colour channel. A frame over the supply's budget is scaled down uniformly
(colours keep their hue), with integer floors so the result can only err towards less current. The same code
serves the rpi-ws281x strip, the Pico-driven strip and the simulator, so what the simulator records is what the
LEDs would really emit.
"""

from __future__ import annotations

from conquista.hardware.profile import StripSettings
from conquista.rules.records import frozen_record

_IDENTITY = bytes(range(256))


@frozen_record
class PowerBudget:
    """What the LED supply may deliver, and what one LED draws: the limit a frame is scaled to."""

    supply_ma: float
    ma_per_channel: float
    idle_ma_per_led: float

    @classmethod
    def from_strip(cls, strip: StripSettings) -> PowerBudget:
        return cls(strip.supply_ma, strip.ma_per_channel, strip.idle_ma_per_led)

    def current_ma(self, frame: bytes | bytearray) -> float:
        """Estimated current of a flat RGB frame, in mA."""
        return self._current(len(frame) // 3, sum(frame))

    def _current(self, leds: int, channel_sum: int) -> float:
        # One formula, used both to estimate and to limit, so the limiter's guarantee holds for the estimate
        # exactly as computed in floating point.
        return leds * self.idle_ma_per_led + channel_sum * self.ma_per_channel / 255.0

    def limit(self, frame: bytes | bytearray) -> bytes:
        """The frame scaled down uniformly to fit the budget; a frame within the budget comes back unchanged."""
        total = sum(frame)
        leds = len(frame) // 3
        if self._current(leds, total) <= self.supply_ma:
            return bytes(frame)
        # The largest channel sum the budget allows, then corrected against the estimate itself, so float
        # rounding in the division can never let the scaled frame exceed the budget by a hair.
        allowed = int((self.supply_ma - leds * self.idle_ma_per_led) * 255.0 / self.ma_per_channel)
        allowed = max(0, min(allowed, total))
        while allowed > 0 and self._current(leds, allowed) > self.supply_ma:
            allowed -= 1
        # Each byte v becomes floor(v × allowed / total), so the new sum is at most `allowed`.
        table = bytes(v * allowed // total for v in range(256))
        return bytes(frame.translate(table))


class OutputStage:
    """Brightness then the current limit, for one strip; `prepare(frame)` gives the bytes to send to the LEDs."""

    def __init__(self, length: int, brightness: int, budget: PowerBudget) -> None:
        if not 0 <= brightness <= 255:
            raise ValueError(f"brightness must be 0..255, got {brightness}")
        self.length = length
        self.budget = budget
        self._dim = _IDENTITY if brightness == 255 else bytes(v * brightness // 255 for v in range(256))

    @classmethod
    def from_strip(cls, strip: StripSettings) -> OutputStage:
        return cls(strip.length, strip.brightness, PowerBudget.from_strip(strip))

    def prepare(self, frame: bytes | bytearray) -> bytes:
        if len(frame) != 3 * self.length:
            raise ValueError(f"a frame for this strip is {3 * self.length} bytes (3 per LED), got {len(frame)}")
        dimmed = frame.translate(self._dim)
        return self.budget.limit(dimmed)
