"""What reaches the referee, as typed values: a gesture at the board (conquista.table.gestures), a fault from a named
source, a seat claim from a phone and its refusal by the seat's phone, time passing. `Referee.step` takes them; the
gestures keep their own module because the recogniser makes them."""

from __future__ import annotations

from enum import Enum

from conquista.rules.records import frozen_record
from conquista.table.gestures import Gesture


class FaultSource(Enum):
    """Where a fault comes from, most important first: each source's fault is kept apart, so none clears
    another's (a link that recovers does not lift the host's pause)."""

    LINK = "link"          # the sensor link to the Pico: the game holds
    HOST = "host"          # paused from the host's phone: the game holds
    STORAGE = "storage"    # the journal cannot write: the ring says so, play goes on (kept in memory)


HOLDING = (FaultSource.LINK, FaultSource.HOST)   # the faults that stop the game; the ring shows the first


@frozen_record
class Fault:
    """A source's fault (`text`), or its end (None)."""

    source: FaultSource
    text: str | None


@frozen_record
class SeatClaim:
    """A phone (`screen`, its connection) asks for `seat`; the board grants it with the chord (ROLL and NEXT)."""

    screen: int
    seat: int


@frozen_record
class RefuseClaim:
    """The phone holding `seat` refuses the claim waiting for it."""

    seat: int


@frozen_record
class Tick:
    """Time passing: time-outs and the turn clock."""


Input = Gesture | Fault | SeatClaim | RefuseClaim | Tick
