"""A calibration at the board: the question lit on the LEDs, key presses and NEXT/CANCEL as answers, the answers
saved after each one. Devices are passed in (the Pico's raw keys, the button panel, the strip), so the same code
runs on a real board and on the simulated one.

A phone may follow it (`watch` receives the page's view whenever it changes) and press NEXT or CANCEL from afar
(`remote` hands over its commands); those commands are answered here, on the calibration's own thread, exactly
like the board's buttons: the web server never touches the calibration.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from conquista.boardtools.calibration import Asked, Calibration, Question, Reply
from conquista.boardtools.calibration_view import CalibrationNews
from conquista.boardtools.profile_writer import write_atomically
from conquista.devices.events import ButtonEvent, Edge, PanelButton
from conquista.devices.interfaces import ButtonPanel, KeyReport, KeySource, LedStrip
from conquista.link.session import Health, HealthEvent

LIT = (255, 255, 255)
REMOTE_BUTTONS = {"next": PanelButton.NEXT, "cancel": PanelButton.CANCEL}   # what a phone may press


class CalibrationSession:
    def __init__(self, calibration: Calibration, keys: KeySource, panel: ButtonPanel, strip: LedStrip,
                 state_path: Path, say: Callable[[str], None], *,
                 watch: Callable[[dict[str, Any]], None] | None = None,
                 remote: Callable[[], Sequence[str]] | None = None) -> None:
        self.calibration = calibration
        self.keys = keys
        self.panel = panel
        self.strip = strip
        self.state_path = state_path
        self.say = say
        self.news = CalibrationNews()
        self._watch = watch
        self._remote = remote
        self._asked: Question | None = None
        self._shown: dict[str, Any] | None = None
        self._now = 0.0

    @property
    def done(self) -> bool:
        return self.calibration.done

    def ask(self, now: float) -> Question | None:
        """Light the LED being asked about (all dark while sensors are asked), and say the question once."""
        self._now = now
        question = self.calibration.question()
        if question != self._asked:
            frame = bytearray(3 * self.strip.length)
            if question is not None and question.kind is Asked.LED:
                frame[3 * question.index:3 * question.index + 3] = bytes(LIT)
            self.strip.show(frame)
            if question is not None:
                self.say(question.text)
            self._asked = question
        self.news.question(question, self._now)
        self._show()
        return question

    def pump(self, now: float) -> None:
        """Take every answer that came in since the last call: keys, the buttons, a phone's NEXT or CANCEL."""
        self._now = now
        for event in self.keys.drain():
            if isinstance(event, KeyReport):
                if event.pressed:
                    self._answer(self.calibration.key_pressed(event.key))
            elif isinstance(event, HealthEvent):   # the Pico's link: well again, or silent
                self._link(event)
        for panel_event in self.panel.poll():
            if isinstance(panel_event, ButtonEvent) and panel_event.edge is Edge.PRESS:
                self._button(panel_event.button)
        for command in self._remote() if self._remote is not None else ():
            button = REMOTE_BUTTONS.get(command)
            if button is not None:
                self._button(button)
        self.ask(now)

    def finished(self, text: str, ok: bool) -> None:
        """The end, as the phone shows it: the profile written, or why it could not be."""
        self.news.finished(text, ok)
        self._show()

    def _button(self, button: PanelButton) -> None:
        if button is PanelButton.NEXT:
            self._answer(self.calibration.next_pressed())
        elif button is PanelButton.CANCEL:
            self._answer(self.calibration.cancel_pressed())

    def _link(self, event: HealthEvent) -> None:
        health = event.health.value
        self.news.link = "" if event.health is Health.OK else f"the sensors' link is {health}: {event.reason}"
        self.say(f"sensors: {health} ({event.reason})")

    def _answer(self, reply: Reply) -> None:
        self.say(reply.text)
        self.news.reply(reply, self._now)
        if reply.accepted:
            write_atomically(self.state_path, json.dumps(self.calibration.answers()) + "\n")

    def _show(self) -> None:
        if self._watch is None:
            return
        view = self.news.view(self.calibration, self._now)
        if view != self._shown:
            self._shown = view
            self._watch(view)
