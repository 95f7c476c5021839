"""What the referee needs from the board. Real adapters, the serial link and the simulator's fakes all satisfy these.

Inputs are pulled or pushed: `poll()` returns what happened since the last call, oldest first; `set_listener(fn)`
instead delivers each event as it happens, in the producer's thread (a gpiozero callback thread on a Pi, the
caller's own thread in the simulator). Every event carries the time of its edge in the referee's clock. Outputs
are plain calls. Every device is closed by whoever built it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from conquista.devices.events import PanelEvent, SensorEvent


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic clock; only differences mean anything."""
        ...


class SensorSource(Protocol):
    """Press and release of the territory sensors, by map index."""

    def poll(self) -> list[SensorEvent]: ...

    def set_listener(self, listener: Callable[[SensorEvent], None] | None) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class KeyReport(Protocol):
    """One key edge as the Pico link reports it (`conquista.link.session.KeyEvent` has these fields)."""

    @property
    def key(self) -> int: ...  # matrix key index, row * cols + col

    @property
    def pressed(self) -> bool: ...

    @property
    def host_time(self) -> float: ...  # when the host accepted it, in the referee's clock


class KeySource(Protocol):
    """Where matrix keys come from: the Pico link (`conquista.link.source.SerialSensorSource`) or a fake.

    `drain()` returns every event since the last call; those that are key reports (have `key`, `pressed`,
    `host_time`) become territory events in `MatrixSensorSource`, the others (the link's health changes) are
    handed to its `on_other` callback.
    """

    def drain(self) -> Sequence[object]: ...

    def close(self) -> None: ...


@runtime_checkable
class PushKeySource(KeySource, Protocol):
    """A KeySource that can also push its events as they happen (the simulator's FakeKeySource)."""

    def set_listener(self, listener: Callable[[object], None] | None) -> None: ...


class ButtonPanel(Protocol):
    """The ROLL, CANCEL and NEXT buttons, the encoder's push (ButtonEvent) and its detents (EncoderEvent)."""

    def poll(self) -> list[PanelEvent]: ...

    def set_listener(self, listener: Callable[[PanelEvent], None] | None) -> None: ...

    def close(self) -> None: ...


class LedStrip(Protocol):
    """The WS2812B chain. A frame is flat RGB bytes, 3 per LED in chain order, exactly 3 × length long.

    The strip applies the profile's brightness and current limit itself, so a caller can never overload the
    supply; what the caller passes is the colour it means.
    """

    @property
    def length(self) -> int: ...

    def show(self, frame: bytes | bytearray) -> None: ...

    def close(self) -> None: ...


class LedLink(Protocol):
    """The part of the Pico link that carries LED frames (`SerialSensorSource.show_leds`)."""

    def show_leds(self, colors: Sequence[tuple[int, int, int]]) -> bool: ...


class Buzzer(Protocol):
    """An optional piezo. The referee decides how long a tone lasts: it calls stop() when its clock says so."""

    def play(self, frequency_hz: float) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...
