"""The sensor source's event queue is bounded: a reader that stalls loses the oldest events, counted, never memory."""

from __future__ import annotations

import pytest

from conquista.cli.link_cmd import _print_counters
from conquista.link.session import KeyEvent, KeyOrigin
from conquista.link.source import SerialSensorSource


def _key(n: int) -> KeyEvent:
    return KeyEvent(n, True, KeyOrigin.LIVE, n, float(n), n)


def test_a_stalled_reader_drops_the_oldest_events_and_counts_them(capsys: pytest.CaptureFixture[str]) -> None:
    sensors = SerialSensorSource("loop://", max_queued=3)   # never started: events are fed as the link would
    sensors._events([_key(n) for n in range(5)])
    assert [e.key for e in sensors.drain() if isinstance(e, KeyEvent)] == [2, 3, 4]
    assert sensors.counters().queue_dropped == 2
    sensors._events([_key(9)])
    assert sensors.counters().queue_dropped == 2                 # room again: nothing more dropped
    _print_counters(sensors.counters(), as_json=False)
    assert "queue_dropped 2" in capsys.readouterr().out          # `link monitor` shows it with the other counters


def test_the_queue_bound_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_queued"):
        SerialSensorSource("loop://", max_queued=0)


def test_push_mode_queues_nothing_and_drops_nothing() -> None:
    delivered: list[object] = []
    sensors = SerialSensorSource("loop://", max_queued=8, on_event=delivered.append)
    sensors._events([_key(n) for n in range(20)])
    assert [e.key for e in delivered if isinstance(e, KeyEvent)] == list(range(20))   # every event, in order
    assert sensors.drain() == [] and sensors.get(timeout=0) is None
    assert sensors.counters().queue_dropped == 0                 # none was lost: the link's health says so
