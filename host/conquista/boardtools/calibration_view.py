"""What the builder is shown while calibrating, on a phone as in the terminal: the question ("tap Alaska"), what
was read (which sensor key, which territory an LED went to), what is left, the errors (a key already taken, a
sensor that stays silent, the Pico's link) and the end.

Pure: the time is passed in. `CalibrationNews` follows what the session asked and was answered; `view()` is a
plain dict, the page's JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conquista.boardtools.calibration import Asked, Calibration, Question, Reply

SILENT_S = 20.0   # a question unanswered this long: the sensor being pressed may be silent
HISTORY = 8       # the answers and refusals the page lists, newest first


@dataclass(frozen=True)
class Said:
    text: str
    ok: bool          # an answer taken (True) or refused (False)


class CalibrationNews:
    """The session's news since it started: the replies, when the current question was asked, the link, the end."""

    def __init__(self) -> None:
        self.history: list[Said] = []
        self.asked: Question | None = None
        self.asked_at = 0.0
        self.link = ""            # the sensors' link when it is not well (the Pico silent or gone)
        self.end = ""             # the profile written, or why it could not be
        self.end_ok = False

    def question(self, question: Question | None, now: float) -> None:
        if question != self.asked:
            self.asked, self.asked_at = question, now

    def reply(self, reply: Reply, now: float) -> None:
        self.history = [Said(reply.text, reply.accepted), *self.history][:HISTORY]
        self.asked_at = now       # any answer, taken or not, shows the sensors are heard

    def finished(self, text: str, ok: bool) -> None:
        self.end, self.end_ok = text, ok

    def view(self, calibration: Calibration, now: float) -> dict[str, Any]:
        question = calibration.question()
        size = calibration.game_map.size
        sensors_done, leds_done = len(calibration.sensor_keys), len(calibration.led_owners)
        phase = "done" if question is None else question.kind.value
        return {
            "phase": phase,
            "question": question.text if question is not None else "",
            "target": self._target(calibration, question),
            "sensors": {"done": sensors_done, "total": size},
            "leds": {"done": leds_done, "total": calibration.led_count},
            "history": [{"text": said.text, "ok": said.ok} for said in self.history],
            "silent": self._silence(calibration, question, now),
            "link": self.link,
            "end": self.end,
            "end_ok": self.end_ok,
            "can_cancel": not self.end and (sensors_done + leds_done) > 0,
            "can_next": not self.end and question is not None and question.kind is Asked.LED,
        }

    @staticmethod
    def _target(calibration: Calibration, question: Question | None) -> str:
        if question is None:
            return ""
        if question.kind is Asked.SENSOR:
            return calibration.game_map.territories[question.index].name_en
        return f"LED {question.index}"

    def _silence(self, calibration: Calibration, question: Question | None, now: float) -> str:
        waited = now - self.asked_at
        if question is None or self.end or waited < SILENT_S:
            return ""
        if question.kind is Asked.SENSOR:
            name = calibration.game_map.territories[question.index].name_en
            return (f"nothing read for {waited:.0f} s. If {name} is pressed, its sensor is silent: check its "
                    "switch, its diode's direction and its row and column wires")
        return (f"nothing read for {waited:.0f} s. If no LED is lit, LED {question.index} or the wire before it is "
                "not connected; if one is lit, tap the territory under it or press NEXT")
