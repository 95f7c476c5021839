"""The owner's letter besides the colour (issue 20): on the phone (the seats to ask for, the title, the "your turn"
banner), on a remote seat's map and its list of territories, and on the public board, in Chromium at 390×844."""

from __future__ import annotations

from typing import Any

import pytest

from conquista.table.colours import mark
from tests.web.live import LiveBoard
from tests.web.test_browser import PHONE, WAIT_MS, claim_seat, finish_setup

pytestmark = pytest.mark.timeout(180)

LETTERS = "el => [...el.querySelectorAll('.swatch')].map(s => s.textContent)"


def test_every_colour_on_a_phone_carries_its_letter(browser: Any) -> None:
    live = LiveBoard(first_seat_hosts=True)
    live.start()
    try:
        player = finish_setup(live)
        game = live.do(lambda: live.table.game)
        colours = game.rules.colours[: game.players]
        letters = [mark(c) for c in colours]
        assert len(set(letters)) == len(letters)

        other = (player + 1) % game.players
        host = browser.new_context(**PHONE).new_page()     # the first seat granted hosts: it gives the remote link
        host.goto(live.service.url)
        claim_seat(live, host, colours[other])
        host.wait_for_selector("#host:not(.hidden)", timeout=WAIT_MS)

        # The player's seat given to a remote player first (no phone at the table holds it: a seat a phone holds
        # is not offered, issue 40).
        host.click(f"[data-remote='{player}']")
        link = host.wait_for_selector(f"[data-link='{player}']", timeout=WAIT_MS).input_value()
        remote = browser.new_context(**PHONE).new_page()
        remote.goto(link)
        remote.wait_for_selector("#legal [data-pick]", timeout=WAIT_MS)
        # The list of territories to tap: each with its owner's letter (all the player's own while placing).
        assert set(remote.eval_on_selector("#legal", LETTERS)) == {letters[player]}
        assert remote.eval_on_selector("#you", LETTERS) == [letters[player]]
        # The map: every territory's badge carries its owner's letter, as on the public board.
        owners = [letters[o] for o in game.owner]
        remote.wait_for_function("n => [...document.querySelectorAll('.badge .letter')].filter(t => t.textContent)"
                                 ".length === n", arg=len(owners), timeout=WAIT_MS)
        assert remote.eval_on_selector_all(".badge .letter", "ts => ts.map(t => t.textContent)") == owners
        assert remote.eval_on_selector("#players", LETTERS) == letters

        # Then a phone at the table asks for that seat (the board grants it: the remote link stops).
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(live.service.url)
        phone.wait_for_selector("#join:not(.hidden) button", timeout=WAIT_MS)
        assert phone.eval_on_selector("#seats", LETTERS) == letters            # the seats to ask for
        phone.click(f"#seats [data-seat='{player}']")                         # "red (taken)": the remote holds it
        phone.wait_for_function("() => /press ROLL/.test(document.getElementById('notice').textContent)",
                                timeout=WAIT_MS)
        live.do(lambda: live.table.press_together("roll", "next"))
        phone.wait_for_function(f"() => document.getElementById('title').textContent.includes('you are "
                                f"{colours[player]}')", timeout=WAIT_MS)
        assert phone.eval_on_selector("#title", LETTERS) == [letters[player]]   # "you are …"
        phone.wait_for_selector("#turn-banner:not(.hidden)", timeout=WAIT_MS)
        assert phone.eval_on_selector("#turn-banner", LETTERS) == [letters[player]]
        # The letter is drawn, not only present: a box of a readable size.
        box = phone.eval_on_selector("#turn-banner .swatch", "s => s.getBoundingClientRect().toJSON()")
        assert box["width"] >= 14 and box["height"] >= 14
    finally:
        live.stop()
