"""Typed events from the board's inputs, and the small thread-safe queue every input adapter delivers them through.

Events carry the time of the edge in the referee's clock (seconds, the same timebase as `Clock.now()`), so the
referee can tell a tap from a long press without reading the clock itself.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from enum import Enum
from typing import Generic, TypeVar

from conquista.rules.records import frozen_record


class Edge(Enum):
    PRESS = "press"
    RELEASE = "release"


class PanelButton(Enum):
    """The buttons of the panel. Values are the names the simulator and scripts use."""

    ROLL = "roll"  # ROLL / CONFIRM
    CANCEL = "cancel"  # CANCEL / UNDO
    NEXT = "next"  # end the phase or turn
    ENCODER = "encoder"  # the push switch of the rotary encoder


@frozen_record(slots=True)
class SensorEvent:
    """A territory's sensor went down (PRESS) or up (RELEASE)."""

    territory: int  # map index
    edge: Edge
    time: float


@frozen_record(slots=True)
class MatrixKeyEvent:
    """A key of the sensor matrix went down or up, before the profile maps it to a territory.

    The field names are those of the Pico link's `conquista.link.session.KeyEvent`, so `MatrixSensorSource`
    reads either (see `interfaces.KeyReport`).
    """

    key: int  # matrix key index, row * cols + col
    pressed: bool
    host_time: float


@frozen_record(slots=True)
class ButtonEvent:
    """A button of the panel pressed or released, at `time` (the referee's clock)."""

    button: PanelButton
    edge: Edge
    time: float


@frozen_record(slots=True)
class EncoderEvent:
    """The encoder turned one detent: +1 clockwise, -1 counter-clockwise."""

    steps: int
    time: float


PanelEvent = ButtonEvent | EncoderEvent

E = TypeVar("E")


class EventQueue(Generic[E]):
    """Events from a producer thread (a gpiozero callback, a serial reader) to the referee, pulled or pushed.

    By default events wait until `poll()` drains them. With a listener set, each event goes to the listener at
    once, in the producer's thread; events already waiting are handed over first, in order, so none is lost
    when switching modes. A deque's append and popleft are atomic, so producers need no lock.
    """

    def __init__(self) -> None:
        self._events: deque[E] = deque()
        self._listener: Callable[[E], None] | None = None

    def put(self, event: E) -> None:
        listener = self._listener
        if listener is None:
            self._events.append(event)
        else:
            listener(event)

    def poll(self) -> list[E]:
        """Every event queued since the last poll, oldest first."""
        out: list[E] = []
        events = self._events
        while events:
            out.append(events.popleft())
        return out

    def set_listener(self, listener: Callable[[E], None] | None) -> None:
        self._listener = listener
        if listener is not None:
            for event in self.poll():
                listener(event)

    def clear(self) -> None:
        self._events.clear()
