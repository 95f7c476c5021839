"""What the visual audit of issue 20 fixed, kept fixed (Chromium): at the end of a game a television shows the
luck report in the map's place, whole and large, with the last roll's dice on one row; a phone showing the public
board offers no QR code to scan (it is the phone)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.live import LiveBoard
from tests.web.test_browser import PHONE, WAIT_MS

pytestmark = pytest.mark.timeout(180)

TV = {"viewport": {"width": 1920, "height": 1080}}


def test_a_tv_shows_the_whole_luck_report_at_the_end_and_a_phone_no_qr_code(browser: Any) -> None:
    from conquista.bots.simulate import play_game
    from conquista.rules.mapdata import load_map
    from conquista.rules.rulesets import load_ruleset

    finished = play_game(load_ruleset("italian"), load_map(), 3, ["greedy"], seed=7).game
    assert finished is not None and finished.over
    live = LiveBoard()
    live.start()
    try:
        tv = browser.new_context(**TV).new_page()
        tv.goto(live.service.url + "board")
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(live.service.url + "board")
        for page in (tv, phone):
            page.wait_for_selector(".badge .armies", timeout=WAIT_MS)
        assert tv.is_visible("#qr") and not phone.is_visible("#qr")

        def dice() -> None:
            referee = live.table.referee
            referee.last_roll = ((6, 6, 5), (5, 2, 1))    # the most dice a roll shows: 3 against 3
            referee.version += 1

        live.do(dice)
        tv.wait_for_function("() => document.querySelectorAll('#dice .a, #dice .d').length === 6", timeout=WAIT_MS)
        tops = tv.evaluate("() => [...document.querySelectorAll('#dice span')].map(d => d.getBoundingClientRect().top)")
        assert len(tops) == 7 and len(set(tops)) == 1, tops    # 3 vs 3, on one row

        def end() -> None:
            referee = live.table.referee
            referee.reset(finished, live.table.clock.now(), play=False)
            referee.version += 1

        live.do(end)
        tv.wait_for_selector("#luck:not(.hidden) tr[data-seat]", timeout=WAIT_MS)
        tv.wait_for_function("() => document.getElementById('turn').textContent.includes('won the game')",
                             timeout=WAIT_MS)
        report = tv.evaluate("""() => {
            const box = document.getElementById('luck').getBoundingClientRect();
            const cell = document.querySelector('#luck td');
            return {top: box.top, bottom: box.bottom, cell: parseFloat(getComputedStyle(cell).fontSize),
                    dice: document.querySelectorAll('#dice span').length, text: document.body.innerText,
                    width: document.documentElement.scrollWidth,
                    height: document.documentElement.scrollHeight}; }""")
        assert report["bottom"] <= 1080 and report["top"] < 200, report        # all of it, no scrolling
        assert report["height"] <= 1080, report
        assert report["cell"] >= 20, report                                     # read from across the room
        assert report["dice"] == 0, report                                      # no stale dice at the end
        assert "***" not in report["text"] and "ROLL" not in report["text"], report["text"]
        assert report["width"] <= 1920
        phone.wait_for_selector("#luck:not(.hidden) tr[data-seat]", timeout=WAIT_MS)
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    finally:
        live.stop()
