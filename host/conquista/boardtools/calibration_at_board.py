"""A calibration at the board: the question lit on the LEDs, key presses and NEXT/CANCEL as answers, the answers
saved after each one. Devices are passed in (the Pico's raw keys, the button panel, the strip), so the same code
runs on a real board and on the simulated one."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conquista.boardtools.calibration import Asked, Calibration, Question, Reply
from conquista.boardtools.profile_writer import write_atomically
from conquista.devices.events import ButtonEvent, Edge, PanelButton
from conquista.devices.interfaces import ButtonPanel, KeyReport, KeySource, LedStrip

LIT = (255, 255, 255)


class CalibrationSession:
    def __init__(self, calibration: Calibration, keys: KeySource, panel: ButtonPanel, strip: LedStrip,
                 state_path: Path, say: Callable[[str], None]) -> None:
        self.calibration = calibration
        self.keys = keys
        self.panel = panel
        self.strip = strip
        self.state_path = state_path
        self.say = say
        self._asked: Question | None = None

    @property
    def done(self) -> bool:
        return self.calibration.done

    def ask(self) -> Question | None:
        """Light the LED being asked about (all dark while sensors are asked), and say the question once."""
        question = self.calibration.question()
        if question != self._asked:
            frame = bytearray(3 * self.strip.length)
            if question is not None and question.kind is Asked.LED:
                frame[3 * question.index:3 * question.index + 3] = bytes(LIT)
            self.strip.show(frame)
            if question is not None:
                self.say(question.text)
            self._asked = question
        return question

    def pump(self) -> None:
        """Take every answer that came in since the last call."""
        for event in self.keys.drain():
            if isinstance(event, KeyReport) and event.pressed:
                self._answer(self.calibration.key_pressed(event.key))
        for panel_event in self.panel.poll():
            if isinstance(panel_event, ButtonEvent) and panel_event.edge is Edge.PRESS:
                if panel_event.button is PanelButton.NEXT:
                    self._answer(self.calibration.next_pressed())
                elif panel_event.button is PanelButton.CANCEL:
                    self._answer(self.calibration.cancel_pressed())
        self.ask()

    def _answer(self, reply: Reply) -> None:
        self.say(reply.text)
        if reply.accepted:
            write_atomically(self.state_path, json.dumps(self.calibration.answers()) + "\n")
