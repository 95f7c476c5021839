"""The hint on the phone in Chromium at 390×844: the seat to move asks "What would hard do?" and reads the answer
with the territories it names; the host's phone has the table's switches for hints."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.app.test_hint_loop import Latched
from tests.web.live import LiveBoard
from tests.web.test_browser import PHONE, WAIT_MS, claim_seat, finish_setup
from tests.web.test_phone_browser import fits

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def live() -> Iterator[LiveBoard]:
    board = LiveBoard(first_seat_hosts=True)
    board.start()
    yield board
    board.stop()


def test_the_seat_to_move_asks_what_hard_would_do(browser: Any, live: LiveBoard) -> None:
    player = finish_setup(live)
    colours = live.do(lambda: live.table.game.rules.colours)
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live.service.url)
    claim_seat(live, phone, colours[player])   # the first seat granted hosts: its phone has the switches too
    phone.wait_for_selector("#hint-ask:not(.off)", timeout=WAIT_MS)
    phone.wait_for_selector("#hints-host:not(.hidden)", timeout=WAIT_MS)
    assert phone.is_checked("#hints-allowed") and not phone.is_checked("#hints-leds")
    search = Latched()   # hard's search held until released: the phone shows it thinking meanwhile
    live.do(lambda: setattr(live.table.router.hints, "search", search))
    phone.click("#hint-ask")
    phone.wait_for_selector("#hint.thinking:not(.hidden):not(.error)", timeout=WAIT_MS)
    assert "thinking" in phone.inner_text("#hint") and phone.is_disabled("#hint-ask")
    shots = os.environ.get("CONQUISTA_SCREENSHOTS")
    if shots:
        phone.screenshot(path=os.path.join(shots, "hint-thinking-phone.png"), full_page=True)
    search.release.set()
    phone.wait_for_selector("#hint:not(.hidden):not(.thinking) mark[data-territory]", timeout=WAIT_MS)
    assert phone.is_enabled("#hint-ask")
    text = phone.inner_text("#hint")
    assert text.startswith("hard would ") and "Look at:" in text
    assert live.do(lambda: dict(live.table.referee.hints_asked)) == {player: 1}
    fits(phone)
    if shots:
        phone.screenshot(path=os.path.join(shots, "hint-phone.png"), full_page=True)
    phone.uncheck("#hints-allowed")
    phone.wait_for_selector("#hint-ask.off", state="attached", timeout=WAIT_MS)
    assert live.do(lambda: live.table.referee.hints_allowed) is False
