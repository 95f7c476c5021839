"""The phone page when its seat is asked for or changes hands (issue 19): the join page marks a taken seat, the
phone holding it is told of a claim and refuses it with one tap, and a phone whose seat goes to a bot stops
showing it at once and says why."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.live import LiveBoard
from tests.web.test_browser import PHONE, WAIT_MS, claim_seat, finish_setup

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def live() -> Iterator[LiveBoard]:
    board = LiveBoard(first_seat_hosts=True)
    board.start()
    yield board
    board.stop()


def test_a_claimed_seat_is_refused_from_its_phone_and_marked_taken(browser: Any, live: LiveBoard) -> None:
    player = finish_setup(live)
    colour = live.do(lambda: live.table.game.rules.colours[player])
    holder = browser.new_context(**PHONE).new_page()
    holder.goto(live.service.url)
    claim_seat(live, holder, colour)
    stranger = browser.new_context(**PHONE).new_page()
    stranger.goto(live.service.url)
    taken = stranger.locator(f"#seats button[data-seat='{player}']")
    taken.wait_for(timeout=WAIT_MS)
    stranger.wait_for_function(f"() => document.querySelector(\"#seats button[data-seat='{player}']\")"
                               ".textContent.includes('(taken)')", timeout=WAIT_MS)
    taken.click()
    holder.wait_for_selector("#seat-asked:not(.hidden) button", timeout=WAIT_MS)
    holder.click("#seat-asked button")
    holder.wait_for_selector("#seat-asked", state="hidden", timeout=WAIT_MS)
    stranger.wait_for_function("() => /refused/.test(document.getElementById('notice').textContent)",
                               timeout=WAIT_MS)
    assert "you are" not in stranger.inner_text("#title")
    assert f"you are {colour}" in holder.inner_text("#title")


def test_a_seat_given_to_a_bot_leaves_its_phone_saying_why(browser: Any, live: LiveBoard) -> None:
    player = finish_setup(live)
    colour = live.do(lambda: live.table.game.rules.colours[player])
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live.service.url)
    claim_seat(live, phone, colour)
    phone.wait_for_selector("#turn-banner:not(.hidden)", timeout=WAIT_MS)

    def bot_takes_the_seat() -> None:                                # as a new game chosen at the board does
        table = live.table
        table.referee.start(table.game, table.clock.now(), "a new game starts", bots={player: "greedy"})
        table.refresh()   # its GameStarted routed to the phones

    live.do(bot_takes_the_seat)
    phone.wait_for_function(f"() => document.getElementById('notice').textContent.includes("
                            f"'no longer plays {colour}: a bot plays the {colour} seat now')", timeout=WAIT_MS)
    assert "you are" not in phone.inner_text("#title")


def test_a_phone_whose_seat_goes_to_a_bot_with_no_colour_free_says_none_is(browser: Any, live: LiveBoard) -> None:
    """Issue 36: no "tap a free colour below" when every seat is a bot's or a phone's (the way back is worded
    from the seats as the next public view has them, not as they were when the seat was lost)."""
    player = finish_setup(live)
    colour = live.do(lambda: live.table.game.rules.colours[player])
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live.service.url)
    claim_seat(live, phone, colour)
    phone.wait_for_selector("#turn-banner:not(.hidden)", timeout=WAIT_MS)

    def bots_take_every_seat() -> None:
        table = live.table
        table.referee.start(table.game, table.clock.now(), "a new game starts",
                            bots={seat: "greedy" for seat in range(table.game.players)})
        table.refresh()

    live.do(bots_take_every_seat)
    phone.wait_for_function("() => document.getElementById('notice').textContent.includes('No colour is free')",
                            timeout=WAIT_MS)
    notice = phone.inner_text("#notice")
    assert f"no longer plays {colour}" in notice and "tap a free colour" not in notice
