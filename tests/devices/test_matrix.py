"""MatrixSensorSource maps the link's key indices to territories through the profile."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from conquista.devices import matrix
from conquista.devices.events import Edge, MatrixKeyEvent, SensorEvent
from conquista.devices.interfaces import KeyReport
from conquista.devices.matrix import MatrixSensorSource
from conquista.hardware.profile import BoardProfile
from conquista_sim.devices import FakeClock, FakeKeySource


def test_keys_become_territory_events(profile: BoardProfile) -> None:
    clock = FakeClock(5.0)
    keys = FakeKeySource(clock)
    source = MatrixSensorSource(keys, profile)
    brazil = profile.game_map.index("brazil")
    key = profile.sensors.key_of_territory[brazil]
    keys.press(key)
    clock.advance(0.25)
    keys.release(key)
    assert source.poll() == [SensorEvent(brazil, Edge.PRESS, 5.0), SensorEvent(brazil, Edge.RELEASE, 5.25)]
    assert source.poll() == []


def test_cell_row_and_col_give_the_key_index(profile: BoardProfile) -> None:
    # cell [1, 3] in a 6×7 matrix is key 1 * 7 + 3 = 10 (the convention the firmware numbers keys by).
    assert profile.territory_of_key(10) == profile.game_map.index("brazil")


def test_key_outside_the_map_is_counted_not_reported(profile: BoardProfile) -> None:
    keys = FakeKeySource(FakeClock())
    source = MatrixSensorSource(keys, profile)
    keys.press(99)
    assert source.poll() == []
    assert source.unmapped == 1


@dataclass(frozen=True)
class LinkLikeKey:
    """Shaped like conquista.link.session.KeyEvent: more fields than a MatrixKeyEvent, the same three used."""

    key: int
    pressed: bool
    origin: str
    fw_ms: int | None
    host_time: float
    seq: int | None


@dataclass(frozen=True)
class LinkLikeHealth:
    health: str
    reason: str
    host_time: float


class ScriptedLink:
    def __init__(self, events: list[object]) -> None:
        self.events = events
        self.closed = False

    def drain(self) -> list[object]:
        out, self.events = self.events, []
        return out

    def close(self) -> None:
        self.closed = True


def test_link_events_are_read_structurally_and_health_goes_aside(profile: BoardProfile) -> None:
    health = LinkLikeHealth("fault", "silent for 0.5 s", 3.0)
    link = ScriptedLink([LinkLikeKey(0, True, "live", 10, 2.0, 1), health, MatrixKeyEvent(0, False, 4.0)])
    others: list[object] = []
    source = MatrixSensorSource(link, profile, on_other=others.append)
    territory = profile.territory_of_key(0)
    assert territory is not None
    assert source.poll() == [SensorEvent(territory, Edge.PRESS, 2.0), SensorEvent(territory, Edge.RELEASE, 4.0)]
    assert others == [health]
    source.close()
    assert link.closed


def test_listener_mode_through_a_pushing_key_source(profile: BoardProfile) -> None:
    keys = FakeKeySource(FakeClock())
    source = MatrixSensorSource(keys, profile)
    got: list[SensorEvent] = []
    source.set_listener(got.append)
    keys.press(0)
    keys.press(98)
    territory = profile.territory_of_key(0)
    assert territory is not None
    assert got == [SensorEvent(territory, Edge.PRESS, 0.0)]
    assert source.poll() == []
    source.set_listener(None)
    keys.release(0)
    assert source.poll() == [SensorEvent(territory, Edge.RELEASE, 0.0)]


def test_feed_pushes_from_a_drain_only_link(profile: BoardProfile) -> None:
    # As with SerialSensorSource(on_event=matrix.feed): the link calls feed on its own thread.
    source = MatrixSensorSource(ScriptedLink([]), profile)
    got: list[SensorEvent] = []
    source.set_listener(got.append)
    source.feed(LinkLikeKey(8, True, "live", 1, 7.5, 3))
    source.feed(LinkLikeHealth("ok", "", 7.6))
    territory = profile.territory_of_key(8)
    assert territory is not None
    assert got == [SensorEvent(territory, Edge.PRESS, 7.5)]


def test_the_key_report_protocol_is_checked_once_per_event_type(profile: BoardProfile,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # The runtime Protocol check cost 7.6 µs, twice per tap: the source decides once per type and remembers.
    checks: list[type] = []

    class CountingCheck(type):
        def __instancecheck__(cls, instance: object) -> bool:
            checks.append(type(instance))
            return isinstance(instance, KeyReport)

    monkeypatch.setattr(matrix, "KeyReport", CountingCheck("CountedKeyReport", (), {}))
    health = LinkLikeHealth("fault", "down", 1.0)
    events: list[object] = [MatrixKeyEvent(0, True, 0.5), health, LinkLikeKey(0, False, "live", 1, 2.0, 1)] * 3
    others: list[object] = []
    source = MatrixSensorSource(ScriptedLink(events), profile, on_other=others.append)
    territory = profile.territory_of_key(0)
    assert territory is not None
    assert source.poll() == [SensorEvent(territory, Edge.PRESS, 0.5), SensorEvent(territory, Edge.RELEASE, 2.0)] * 3
    assert others == [health] * 3
    assert checks == [MatrixKeyEvent, LinkLikeHealth, LinkLikeKey]
