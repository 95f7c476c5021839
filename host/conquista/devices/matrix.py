"""Territory events from a key matrix: the Pico link reports keys, the board profile says which territory each is."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from conquista.devices.errors import DeviceError
from conquista.devices.events import Edge, SensorEvent
from conquista.devices.interfaces import KeyReport, KeySource, PushKeySource
from conquista.hardware.profile import BoardProfile, SensorKind


class MatrixSensorSource:
    """A `SensorSource` over any `KeySource` (the serial link, or the simulator's fake keys).

    A key with no territory (a spare cell of a home-made matrix) is dropped and counted in `unmapped`, so a
    wiring fault shows up in diagnostics instead of as a phantom tap. Events that are not key reports (the link's
    health changes) go to `on_other`, so the referee can show a fault on the status ring.

    Pull: `poll()` drains the key source. Push: `set_listener(fn)`; a key source that pushes (PushKeySource) is
    wired through, and one that only drains can push by calling `feed(event)`, e.g.
    `SerialSensorSource(on_event=matrix.feed)` (then use the listener only: poll() would see the same events
    again in the link's own queue).
    """

    def __init__(self, keys: KeySource, profile: BoardProfile,
                 on_other: Callable[[object], None] | None = None) -> None:
        if profile.sensors.kind is not SensorKind.SERIAL:
            raise DeviceError(f"{profile.source}: sensors.source is {profile.sensors.kind.value!r}, so the "
                              "territory sensors are Pi GPIOs (GpioSensorSource), not a key matrix")
        self._keys = keys
        self._on_other = on_other
        self._listener: Callable[[SensorEvent], None] | None = None
        table: list[int | None] = [None] * profile.sensors.keys
        for territory, key in enumerate(profile.sensors.key_of_territory):
            table[key] = territory
        self._territory_of_key = tuple(table)
        self.unmapped = 0
        # Whether each event type is a KeyReport, decided once per type: an isinstance check against a
        # runtime-checkable Protocol walks its members every time (about 7.6 µs, twice per tap).
        self._reports_keys: dict[type, bool] = {}

    def _map(self, event: object) -> SensorEvent | None:
        # Structural: the link's KeyEvent and the fakes' MatrixKeyEvent both carry key, pressed, host_time.
        kind = type(event)
        is_key = self._reports_keys.get(kind)
        if is_key is None:
            is_key = self._reports_keys[kind] = isinstance(event, KeyReport)
        if not is_key:
            if self._on_other is not None:
                self._on_other(event)
            return None
        report = cast(KeyReport, event)
        key = report.key
        table = self._territory_of_key
        territory = table[key] if 0 <= key < len(table) else None
        if territory is None:
            self.unmapped += 1
            return None
        return SensorEvent(territory, Edge.PRESS if report.pressed else Edge.RELEASE, report.host_time)

    def poll(self) -> list[SensorEvent]:
        out: list[SensorEvent] = []
        for event in self._keys.drain():
            mapped = self._map(event)
            if mapped is not None:
                out.append(mapped)
        return out

    def feed(self, event: object) -> None:
        """Take one key source event now and hand it to the listener (queued for nobody when none is set)."""
        mapped = self._map(event)
        listener = self._listener
        if mapped is not None and listener is not None:
            listener(mapped)

    def set_listener(self, listener: Callable[[SensorEvent], None] | None) -> None:
        self._listener = listener
        if isinstance(self._keys, PushKeySource):
            self._keys.set_listener(None if listener is None else self.feed)

    def close(self) -> None:
        self._keys.close()
