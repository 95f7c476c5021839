"""The tournament ending in Chromium: the host's form switches it on (and chooses the board's LED colours), the
public board at 1920×1080 and a phone at 390×844 show the clock and the points, and the announcements' words for
its stages and closing rolls. Screenshots go to build/shots/ when CONQUISTA_SHOTS is set (to look at them)."""

from __future__ import annotations

import dataclasses
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from conquista.table.colours import Palette
from tests.web.live import LiveBoard
from tests.web.test_browser import PHONE, WAIT_MS, claim_seat

pytestmark = pytest.mark.timeout(240)
SHOTS = os.environ.get("CONQUISTA_SHOTS")
FULL_HD = {"viewport": {"width": 1920, "height": 1080}}




def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=False)


def test_the_host_switches_it_on_and_the_screens_show_the_clock_and_points(browser: Any) -> None:
    from conquista.app.host_setup import HostSetUp
    from conquista.dice.sources import SeededDice

    live = LiveBoard(first_seat_hosts=True)

    def plain() -> tuple[random.Random, SeededDice, int]:
        rng = random.Random(3)
        return rng, SeededDice(rng=rng), 3

    live.companion.new_game = HostSetUp(None, live.table.game.map, plain=plain)
    live.start()
    try:
        host = browser.new_context(**PHONE).new_page()
        host.goto(live.service.url)
        claim_seat(live, host, live.do(lambda: live.table.game.rules.colours[0]))
        host.wait_for_selector("#new-game:not(.hidden)", timeout=WAIT_MS)
        assert not host.is_checked("#new-tournament") and host.input_value("#new-palette") == "standard"
        host.check("#new-tournament")
        host.select_option("#new-palette", "colour-blind")
        host.locator("#new-tournament").scroll_into_view_if_needed()
        shot(host, "host-form-390x844.png")
        width = host.evaluate("() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
        assert width <= 390
        if SHOTS:
            host.set_viewport_size(FULL_HD["viewport"])
            host.locator("#new-tournament").scroll_into_view_if_needed()
            shot(host, "host-form-1920x1080.png")
            host.set_viewport_size(PHONE["viewport"])
        host.click("#new-start")
        host.click("#new-start")
        deadline = time.monotonic() + 10
        while not live.do(lambda: live.table.game.rules.tournament_ending) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert live.do(lambda: (live.table.game.rules.tournament_ending, live.table.referee.palette)) == (
            True, Palette.COLOUR_BLIND)
        host.wait_for_function("() => /tournament ending: on/.test(document.getElementById('setup').textContent)",
                               timeout=WAIT_MS)
        assert "LED colours: colour-blind" in host.inner_text("#setup")
        # The phone shows the clock counting down, and the points.
        host.wait_for_function("() => /tournament clock 1:(29|30):\\d\\d · points: red \\d+/"
                               ".test(document.getElementById('tournament').textContent)", timeout=WAIT_MS)
        host.evaluate("() => window.scrollTo(0, 0)")
        shot(host, "phone-clock-390x844.png")
        board = browser.new_context(**FULL_HD).new_page()
        board.goto(live.service.url + "board")
        board.wait_for_function("() => /tournament clock 1:(29|30):\\d\\d · points: red \\d+, blue \\d+/"
                                ".test(document.getElementById('tournament').textContent)", timeout=WAIT_MS)
        assert board.is_visible("#tournament")
        shot(board, "board-clock-1920x1080.png")
        # The clock runs out (the board's time of play, a fake clock here): the board shows the round instead.
        referee = live.table.referee
        live.do(lambda: setattr(referee, "tournament", dataclasses.replace(referee.tournament, before=90 * 60.0)))
        live.do(lambda: live.table.advance(0.1))
        board.wait_for_function("() => /second-to-last round · points/"
                                ".test(document.getElementById('tournament').textContent)", timeout=WAIT_MS)
        board.wait_for_function("() => /the tournament clock runs out/.test(document.body.textContent)",
                                timeout=WAIT_MS)
        shot(board, "board-second-to-last-1920x1080.png")
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(live.service.url + "board")
        phone.wait_for_function("() => /second-to-last/.test(document.getElementById('tournament').textContent)",
                                timeout=WAIT_MS)
        shot(phone, "board-390x844.png")
    finally:
        live.stop()


def test_the_announcements_of_the_tournament(browser: Any) -> None:
    page = browser.new_context().new_page()
    live = LiveBoard()
    live.start()
    try:
        page.goto(live.service.url + "board")
        page.wait_for_selector("#speech-on", timeout=WAIT_MS)
    finally:
        live.stop()
    seats = [{"colour": "red", "eliminated": False}, {"colour": "blue", "eliminated": False}]

    def view(stage: str, closing: dict[str, Any] | None = None, over: bool = False) -> dict[str, Any]:
        return {"territories": [], "seats": seats, "current": 0, "over": over, "winner": 0 if over else None,
                "neutral": None, "roll": None,
                "tournament": {"stage": stage, "closing_number": 5, "closing": closing, "points": [1, 2]}}

    def say(before: dict[str, Any], after: dict[str, Any], lang: str) -> list[str]:
        said: list[str] = page.evaluate("([b, a, l]) => conquistaSpeech.announcements(b, a, {territories: []}, l)",
                                        [before, after, lang])
        return said

    assert say(view("clock"), view("second_to_last"), "en") == [
        "The tournament clock has run out: this is the second-to-last round."]
    assert say(view("second_to_last"), view("last"), "it") == ["L'ultimo giro."]
    rolled = view("closing", {"count": 1, "dice": [6, 3]})
    assert say(view("last"), rolled, "en") == ["Closing roll: 6 and 3, the game goes on.",
                                              "From now on a closing roll of 5 or under ends the game."]
    ended = view("over", {"count": 2, "dice": [1, 2]}, over=True)
    assert say(rolled, ended, "en") == ["Closing roll: 1 and 2, the game ends.", "red wins the game."]
    assert say(view("clock"), view("clock"), "en") == []
