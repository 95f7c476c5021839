"""What a phone shows of a calibration: the question, what was read, what is left, the errors, the end; and a
phone's NEXT and CANCEL taken like the board's buttons, on the calibration's own thread."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conquista.boardtools.calibration_view import SILENT_S
from conquista.link.session import Health, HealthEvent
from tests.boardtools.calibrating import MAP, SteppedCalibration


def test_the_view_names_the_territory_what_was_read_and_what_is_left(tmp_path: Path) -> None:
    views: list[dict[str, Any]] = []
    cal = SteppedCalibration(tmp_path, watch=views.append)
    cal.session.ask(0.0)
    first = views[-1]
    assert (first["phase"], first["target"]) == ("sensor", "Alaska")
    assert first["question"] == "tap Alaska (1 of 42)"
    assert first["sensors"] == {"done": 0, "total": 42} and first["leds"]["done"] == 0
    assert not first["can_cancel"] and not first["can_next"] and first["history"] == []
    cal.answer()
    after = views[-1]
    key = cal.calibration.sensor_keys[0]
    assert after["target"] == "Northwest Territory" and after["sensors"]["done"] == 1
    assert after["history"] == [{"text": f"Alaska: key {key}", "ok": True}] and after["can_cancel"]
    cal.close()


def test_a_key_already_taken_is_shown_as_refused_and_changes_nothing(tmp_path: Path) -> None:
    views: list[dict[str, Any]] = []
    cal = SteppedCalibration(tmp_path, watch=views.append)
    cal.answer()
    cal.tap(0)          # Alaska's sensor again, while Northwest Territory is asked
    view = views[-1]
    assert view["history"][0]["ok"] is False and "already Alaska's" in view["history"][0]["text"]
    assert view["sensors"]["done"] == 1 and view["target"] == "Northwest Territory"
    cal.close()


def test_a_silent_sensor_is_named_after_a_while_and_forgotten_when_a_key_comes(tmp_path: Path) -> None:
    views: list[dict[str, Any]] = []
    cal = SteppedCalibration(tmp_path, watch=views.append)
    cal.answer(2)
    cal.wait(SILENT_S - 1)
    assert views[-1]["silent"] == ""
    cal.wait(2)
    silent = views[-1]["silent"]
    assert "Greenland" in silent and "diode" in silent
    cal.answer()
    assert views[-1]["silent"] == "" and views[-1]["target"] == "Alberta"
    cal.close()


class LinkNews:
    """The Pico link's key source as the session sees it, with the link's health changes the test adds."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.health: list[HealthEvent] = []

    def drain(self) -> list[object]:
        out: list[object] = [*self.health, *self.inner.drain()]
        self.health.clear()
        return out

    def close(self) -> None:
        self.inner.close()


def test_the_link_going_silent_is_shown_until_it_is_well(tmp_path: Path) -> None:
    views: list[dict[str, Any]] = []
    cal = SteppedCalibration(tmp_path, watch=views.append)
    link = LinkNews(cal.session.keys)
    cal.session.keys = link
    link.health.append(HealthEvent(Health.FAULT, "no frame for 2 s", 1.0))
    cal.wait(1)
    assert "fault" in views[-1]["link"] and "no frame" in views[-1]["link"]
    link.health.append(HealthEvent(Health.OK, "back", 2.0))
    cal.wait(1)
    assert views[-1]["link"] == ""
    cal.close()


def test_a_phones_cancel_and_next_go_through_the_calibration_like_the_buttons(tmp_path: Path) -> None:
    views: list[dict[str, Any]] = []
    pressed: list[str] = []

    def remote() -> list[str]:
        out = list(pressed)
        pressed.clear()
        return out

    cal = SteppedCalibration(tmp_path, watch=views.append, remote=remote)
    cal.answer(3)
    pressed.append("cancel")
    cal.wait(0.1)
    assert len(cal.calibration.sensor_keys) == 2 and views[-1]["target"] == "Greenland"
    assert views[-1]["history"][0]["text"].startswith("took back Greenland")
    pressed.append("next")      # NEXT means nothing while sensors are asked: refused, as at the board
    cal.wait(0.1)
    assert views[-1]["history"][0] == {"text": "NEXT answers only while an LED is lit", "ok": False}
    cal.answer(MAP.size - 2)
    assert views[-1]["phase"] == "led" and views[-1]["can_next"] and views[-1]["target"] == "LED 0"
    pressed.append("next")
    cal.wait(0.1)
    assert cal.calibration.led_owners == [-1] and views[-1]["leds"]["done"] == 1
    cal.close()


def test_the_end_is_shown_and_no_button_is_offered_after_it(tmp_path: Path) -> None:
    views: list[dict[str, Any]] = []
    cal = SteppedCalibration(tmp_path, watch=views.append)
    while not cal.session.done:
        cal.answer()
    assert views[-1]["phase"] == "done"
    cal.session.finished("wrote my-board.toml", ok=True)
    assert views[-1]["end"] == "wrote my-board.toml" and views[-1]["end_ok"]
    assert not views[-1]["can_cancel"] and not views[-1]["can_next"]
    cal.close()
