"""Territory sensors through the real serial link, for the simulated board (`conquista sim --sensors`).

"serial" starts a simulated Pico in this process (the firmware's own modules on a fake `machine`, on a loopback
port); a `socket://HOST:PORT` URL joins one started with `conquista sim-mcu`, whose keys you press there. Either
way the key events travel as COBS frames through the host's SerialSensorSource and the profile's matrix mapping,
exactly as on a board, and the link's health holds the game while it is down.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from conquista.devices.events import SensorEvent
from conquista.devices.matrix import MatrixSensorSource
from conquista.hardware.profile import BoardProfile, StripDriver
from conquista.link.session import Health, HealthEvent
from conquista.link.source import SerialSensorSource
from conquista_sim.pico import SimulatedPico

KEY_SETTLE_S = 0.03      # longer than the firmware's debounce, so a simulated press is seen as one


class LinkedSensors:
    """A SensorSource whose events come over the serial link; times are mapped onto the table's clock."""

    def __init__(self, profile: BoardProfile, url: str, table_clock: Callable[[], float],
                 on_fault: Callable[[str], None]) -> None:
        self.profile = profile
        self.pico: SimulatedPico | None = None
        if url == "serial":
            sensors = profile.sensors
            drives = profile.strip.length if profile.strip.driver is StripDriver.PICO else 0
            self.pico = SimulatedPico(rows=sensors.rows, cols=sensors.cols, debounce_ms=sensors.debounce_ms,
                                      led_count=drives, sensor=sensors.part.value).start()
            url = self.pico.url
        self._table_clock = table_clock
        self._on_fault = on_fault
        self.link = SerialSensorSource(url)
        try:
            self.link.start(wait_ready=5.0)
        except BaseException:
            self.close()
            raise
        self.matrix = MatrixSensorSource(self.link, profile, on_other=self._on_other)

    def _on_other(self, event: object) -> None:
        if isinstance(event, HealthEvent):
            self._on_fault("" if event.health is Health.OK else f"sensor link {event.health.value}: {event.reason}")

    def poll(self) -> list[SensorEvent]:
        # The link stamps events with the host's monotonic time; shift them onto the table's clock so press and
        # release keep their real distance (a tap versus a long press) whatever the simulated time is.
        events = self.matrix.poll()
        if not events:
            return events
        offset = self._table_clock() - time.monotonic()
        return [SensorEvent(e.territory, e.edge, e.time + offset) for e in events]

    def set_listener(self, listener: Callable[[SensorEvent], None] | None) -> None:
        raise NotImplementedError("the linked sensors are polled by the simulated table")

    def touch(self, territory: int, seconds: float) -> list[SensorEvent]:
        """Press and release a territory's key on the simulated Pico and wait until both edges came through."""
        if self.pico is None:
            raise RuntimeError("taps on an external sim-mcu are made in its own terminal (tap N)")
        key = self.profile.sensors.key_of_territory[territory]
        self.pico.press(key)
        time.sleep(max(seconds, KEY_SETTLE_S))
        self.pico.release(key)
        events: list[SensorEvent] = []
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            events.extend(self.poll())
            if any(e.edge.value == "release" and e.territory == territory for e in events):
                break
            time.sleep(0.005)
        return events

    def close(self) -> None:
        link = getattr(self, "link", None)
        if link is not None:
            link.close()
        if self.pico is not None:
            self.pico.stop()
