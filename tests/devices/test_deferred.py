"""The panel and buzzer stand-ins that open after the board's first frame (devices/deferred.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from conquista.devices.deferred import DeferredBuzzer, DeferredPanel
from conquista.devices.events import ButtonEvent, Edge, PanelButton, PanelEvent


class Panel:
    def __init__(self) -> None:
        self.listener: Callable[[PanelEvent], None] | None = None
        self.waiting: list[PanelEvent] = [ButtonEvent(PanelButton.ROLL, Edge.PRESS, 1.0)]
        self.closed = False

    def poll(self) -> list[PanelEvent]:
        waiting, self.waiting = self.waiting, []
        return waiting

    def set_listener(self, listener: Callable[[PanelEvent], None] | None) -> None:
        self.listener = listener

    def close(self) -> None:
        self.closed = True


class Piezo:
    def __init__(self) -> None:
        self.calls: list[object] = []

    def play(self, frequency_hz: float) -> None:
        self.calls.append(frequency_hz)

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


def test_the_panel_is_built_at_open_and_gets_the_listener_given_before() -> None:
    built: list[Panel] = []
    panel = DeferredPanel(lambda: built.append(Panel()) or built[-1])
    listener: Callable[[PanelEvent], None] = print
    panel.set_listener(listener)
    assert panel.poll() == [] and not built and not panel.opened
    panel.open()
    panel.open()                                   # once
    assert len(built) == 1 and panel.opened and built[0].listener is listener
    assert panel.poll() == [ButtonEvent(PanelButton.ROLL, Edge.PRESS, 1.0)]
    panel.set_listener(None)
    assert built[0].listener is None
    panel.close()
    assert built[0].closed and not panel.opened


def test_a_panel_closed_unopened_builds_nothing_and_cannot_open() -> None:
    built: list[Panel] = []
    panel = DeferredPanel(lambda: built.append(Panel()) or built[-1])
    panel.close()
    with pytest.raises(RuntimeError, match="closed before it was opened"):
        panel.open()
    assert not built


def test_a_tone_asked_before_the_buzzer_opens_sounds_when_it_opens() -> None:
    piezo = Piezo()
    buzzer = DeferredBuzzer(lambda: piezo)
    buzzer.play(440.0)
    buzzer.play(880.0)
    assert piezo.calls == [] and not buzzer.opened
    buzzer.open()
    buzzer.play(220.0)
    buzzer.stop()
    buzzer.close()
    assert piezo.calls == [880.0, 220.0, "stop", "close"]


def test_a_tone_stopped_before_the_buzzer_opens_stays_silent() -> None:
    piezo = Piezo()
    buzzer = DeferredBuzzer(lambda: piezo)
    buzzer.play(440.0)
    buzzer.stop()
    buzzer.open()
    assert piezo.calls == [] and buzzer.opened
