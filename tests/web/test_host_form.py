"""The host's form shows only what applies (issue 40), in Chromium at 390×844: before a game no pause, no physical
dice, no players leaving and no game to stop; bots by level only; no remote link offered for a seat a phone holds;
no phone repeats the board's knob words during the set-up."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conquista.app.host_setup import HostSetUp
from conquista.app.setup import menu_options
from conquista.dice.sources import SeededDice
from conquista.table.setup_menu import SetupMenu
from tests.web.live import LiveBoard
from tests.web.test_browser import PHONE, WAIT_MS, claim_seat

pytestmark = pytest.mark.timeout(180)


def test_the_hosts_form_before_a_game_offers_only_what_applies(browser: Any) -> None:
    live = LiveBoard(first_seat_hosts=True)

    def plain() -> tuple[random.Random, SeededDice, int]:
        rng = random.Random(3)
        return rng, SeededDice(rng=rng), 3

    live.companion.new_game = HostSetUp(None, live.table.game.map, plain=plain)
    live.start()
    try:
        host = browser.new_context(**PHONE).new_page()
        host.goto(live.service.url)
        claim_seat(live, host, "red")
        seat = browser.new_context(**PHONE).new_page()
        seat.goto(live.service.url)
        claim_seat(live, seat, "blue")
        host.wait_for_selector("#host:not(.hidden) #pause:not(.hidden)", timeout=WAIT_MS)   # a game: a pause
        host.wait_for_selector("[data-remote='2']", timeout=WAIT_MS)
        assert host.locator("[data-remote='1']").count() == 0       # blue's phone holds blue
        live.do(lambda: live.table.referee.offer_menu(SetupMenu(menu_options(), rules="italian")))
        host.wait_for_selector("#new-game:not(.hidden)", timeout=WAIT_MS)
        host.wait_for_selector("#pause.hidden", state="attached", timeout=WAIT_MS)
        assert host.is_hidden("#dice") and host.is_hidden("#setup") and host.is_hidden("#leave-title")
        assert host.locator("[data-leave]").count() == 0
        levels = host.locator("#new-seats select[data-seat='1'] option").all_inner_texts()
        assert levels == ["a person", "bot: easy", "bot: normal", "bot: hard"], levels
        host.click("#new-start")
        assert host.inner_text("#new-start") == "Start it? Tap again"   # no game being played to stop
        seat.wait_for_function("() => /new game is being set up/.test(document.getElementById('pending')"
                               ".textContent)", timeout=WAIT_MS)
        for page in (host, seat):
            assert "knob" not in page.inner_text("body")
        host.screenshot(path="/tmp/shots-i40p/test-host-menu-390.png", full_page=True)
    finally:
        live.stop()
