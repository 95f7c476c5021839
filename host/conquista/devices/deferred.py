"""A button panel and a buzzer opened after the board's first frame (issue 22: the first frame first).

The first frame needs the LED strip and what decides the scene (the game, the journal); the buttons and the piezo
are gpiozero devices, whose import and pin set-up cost tens of milliseconds of a Pi Zero's start. These stand-ins
take the board's calls until `open()` builds the real device: the panel has no presses to report before then (its
listener is handed on), and a tone asked for before then sounds when the buzzer opens, unless it was stopped.
"""

from __future__ import annotations

from collections.abc import Callable

from conquista.devices.events import PanelEvent
from conquista.devices.interfaces import ButtonPanel, Buzzer


class DeferredPanel:
    """`ButtonPanel` whose real panel is built by `open()`."""

    def __init__(self, opener: Callable[[], ButtonPanel]) -> None:
        self._opener = opener
        self._panel: ButtonPanel | None = None
        self._listener: Callable[[PanelEvent], None] | None = None

    @property
    def opened(self) -> bool:
        return self._panel is not None

    def open(self) -> None:
        if self._panel is None:
            self._panel = self._opener()
            if self._listener is not None:
                self._panel.set_listener(self._listener)

    def poll(self) -> list[PanelEvent]:
        return [] if self._panel is None else self._panel.poll()

    def set_listener(self, listener: Callable[[PanelEvent], None] | None) -> None:
        self._listener = listener
        if self._panel is not None:
            self._panel.set_listener(listener)

    def close(self) -> None:
        panel, self._panel = self._panel, None
        self._opener = _closed_panel
        if panel is not None:
            panel.close()


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


def _closed_panel() -> ButtonPanel:
    raise RuntimeError("the button panel was closed before it was opened")


def _closed_buzzer() -> Buzzer:
    raise RuntimeError("the buzzer was closed before it was opened")
