"""The territory sensors, a button panel and a buzzer opened after the board's first frame (issue 22: the first
frame first).

The first frame needs the LED strip and what decides the scene (the game, the journal); the sensors (the Pico's
serial link, or Pi GPIOs), the buttons and the piezo do not: the link's import and handshake, and gpiozero's import
and pin set-up, cost tens of milliseconds of a Pi Zero's start. These stand-ins take the board's calls until
`open()` builds the real device: an input has nothing to report before then (its listener is handed on), and a
tone asked for before then sounds when the buzzer opens, unless it was stopped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from conquista.devices.events import PanelEvent, SensorEvent
from conquista.devices.interfaces import ButtonPanel, Buzzer, SensorSource

Event = TypeVar("Event")


class _Input(Protocol[Event]):
    def poll(self) -> list[Event]: ...

    def set_listener(self, listener: Callable[[Event], None] | None) -> None: ...

    def close(self) -> None: ...


class _DeferredInput(Generic[Event]):
    """An input device (`ButtonPanel`, `SensorSource`) whose real device is built by `open()`."""

    refusal = "the input was closed before it was opened"

    def __init__(self, opener: Callable[[], _Input[Event]]) -> None:
        self._opener = opener
        self._device: _Input[Event] | None = None
        self._listener: Callable[[Event], None] | None = None

    @property
    def opened(self) -> bool:
        return self._device is not None

    def open(self) -> None:
        if self._device is None:
            self._device = self._opener()
            if self._listener is not None:
                self._device.set_listener(self._listener)

    def poll(self) -> list[Event]:
        return [] if self._device is None else self._device.poll()

    def set_listener(self, listener: Callable[[Event], None] | None) -> None:
        self._listener = listener
        if self._device is not None:
            self._device.set_listener(listener)

    def close(self) -> None:
        device, self._device = self._device, None
        self._opener = self._refuse
        if device is not None:
            device.close()

    def _refuse(self) -> _Input[Event]:
        raise RuntimeError(self.refusal)


class DeferredPanel(_DeferredInput[PanelEvent]):
    """`ButtonPanel` whose real panel is built by `open()`."""

    refusal = "the button panel was closed before it was opened"

    def __init__(self, opener: Callable[[], ButtonPanel]) -> None:
        super().__init__(opener)


class DeferredSensors(_DeferredInput[SensorEvent]):
    """`SensorSource` whose real source (the link and its key matrix, or the GPIO sensors) is built by `open()`."""

    refusal = "the territory sensors were closed before they were opened"

    def __init__(self, opener: Callable[[], SensorSource]) -> None:
        super().__init__(opener)


class DeferredBuzzer:
    """`Buzzer` whose real buzzer is built by `open()`; the tone asked for before then is played then."""

    def __init__(self, opener: Callable[[], Buzzer]) -> None:
        self._opener = opener
        self._buzzer: Buzzer | None = None
        self._pending: float | None = None

    @property
    def opened(self) -> bool:
        return self._buzzer is not None

    def open(self) -> None:
        if self._buzzer is None:
            self._buzzer = self._opener()
            if self._pending is not None:
                self._buzzer.play(self._pending)
                self._pending = None

    def play(self, frequency_hz: float) -> None:
        if self._buzzer is None:
            self._pending = frequency_hz
        else:
            self._buzzer.play(frequency_hz)

    def stop(self) -> None:
        if self._buzzer is None:
            self._pending = None
        else:
            self._buzzer.stop()

    def close(self) -> None:
        buzzer, self._buzzer = self._buzzer, None
        self._pending = None
        self._opener = _closed_buzzer
        if buzzer is not None:
            buzzer.close()


def _closed_buzzer() -> Buzzer:
    raise RuntimeError("the buzzer was closed before it was opened")
