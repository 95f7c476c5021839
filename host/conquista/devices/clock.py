"""The real clock. Tests and the simulator use `conquista_sim.devices.FakeClock` instead."""

from __future__ import annotations

import time


class MonotonicClock:
    """`time.monotonic()`: never jumps when the Pi's wall clock is set by NTP after boot."""

    def now(self) -> float:
        return time.monotonic()
