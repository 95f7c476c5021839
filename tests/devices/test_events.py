"""EventQueue: pulled or pushed, and nothing lost when switching between the two."""

from __future__ import annotations

from conquista.devices.events import Edge, EventQueue, SensorEvent


def ev(territory: int, time: float = 0.0) -> SensorEvent:
    return SensorEvent(territory, Edge.PRESS, time)


def test_poll_drains_in_order() -> None:
    queue: EventQueue[SensorEvent] = EventQueue()
    queue.put(ev(1))
    queue.put(ev(2))
    assert queue.poll() == [ev(1), ev(2)]
    assert queue.poll() == []


def test_listener_gets_waiting_events_first_then_live_ones() -> None:
    queue: EventQueue[SensorEvent] = EventQueue()
    got: list[SensorEvent] = []
    queue.put(ev(1))
    queue.set_listener(got.append)
    queue.put(ev(2))
    assert got == [ev(1), ev(2)]
    assert queue.poll() == []


def test_removing_the_listener_queues_again() -> None:
    queue: EventQueue[SensorEvent] = EventQueue()
    got: list[SensorEvent] = []
    queue.set_listener(got.append)
    queue.set_listener(None)
    queue.put(ev(3))
    assert got == []
    assert queue.poll() == [ev(3)]


def test_events_are_frozen_values() -> None:
    assert ev(1, 2.0) == SensorEvent(1, Edge.PRESS, 2.0)
    assert hash(ev(1)) == hash(SensorEvent(1, Edge.PRESS, 0.0))
