"""The calibration's page in Chromium at 390×844, following a simulated calibration: the territory to tap, what
was read, a refusal, the phone's "take back" and NEXT taken by the calibration, the end; the page fits the screen.

Set CONQUISTA_SCREENSHOTS to a folder to keep the pictures (sensors, LEDs, end)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conquista.web.calibration_app import CalibrationFeed, CalibrationService
from conquista.web.service import WebAddress
from tests.boardtools.calibrating import MAP, SteppedCalibration
from tests.web.test_browser import PHONE, WAIT_MS

pytestmark = pytest.mark.timeout(120)
WIDTH = 390




def shot(page: Any, name: str) -> None:
    folder = os.environ.get("CONQUISTA_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"calibrate-{name}.png"), full_page=True)


def fits(page: Any) -> None:
    width = page.evaluate("() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
    assert width <= WIDTH, f"the page is {width} px wide on a {WIDTH} px screen"


def pump_until(cal: SteppedCalibration, done: Callable[[], bool]) -> None:
    """The calibration's loop goes round until the phone's press has reached it (the POST is on its way)."""
    import time

    deadline = time.monotonic() + WAIT_MS / 1000
    while not done():
        assert time.monotonic() < deadline, "the phone's press never reached the calibration"
        cal.wait(0.01)
        time.sleep(0.01)


def test_a_phone_follows_the_calibration_and_takes_back_an_answer(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    feed = CalibrationFeed()
    cal = SteppedCalibration(tmp_path, watch=feed.publish, remote=feed.commands)
    with CalibrationService(feed, WebAddress("127.0.0.1", 0, explicit=True)) as service:
        service.start()
        service.wait_ready()
        page = browser.new_context(**PHONE).new_page()
        page.goto(service.url)
        cal.session.ask(cal.now)
        expect(page.locator("#target")).to_have_text("Alaska", timeout=WAIT_MS)
        expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)
        cal.answer(5)
        expect(page.locator("#sensors-n")).to_have_text("5 of 42", timeout=WAIT_MS)
        assert page.locator("#target").inner_text() == "Quebec"
        cal.tap(0)                       # Alaska's sensor again
        page.wait_for_selector("#refused:not(.hidden)", timeout=WAIT_MS)
        assert "already Alaska's" in page.locator("#refused").inner_text()
        assert page.locator("#next").is_hidden()      # NEXT only for LEDs
        fits(page)
        shot(page, "sensors")

        page.click("#cancel")
        pump_until(cal, lambda: len(cal.calibration.sensor_keys) == 4)
        expect(page.locator("#target")).to_have_text("Ontario", timeout=WAIT_MS)
        assert page.locator("#history li").first.inner_text().startswith("✓ took back Ontario")
        assert page.locator("#refused").is_hidden()

        cal.answer(MAP.size - 4)
        page.wait_for_selector("#next:not(.hidden):not([disabled])", timeout=WAIT_MS)
        assert page.locator("#target").inner_text() == "LED 0"
        owner = cal.builder._owner.get(0)
        page.click("#next")              # LED 0 on the panel, pressed from the phone
        pump_until(cal, lambda: len(cal.calibration.led_owners) == 1)
        if owner is not None:            # it was a territory's LED after all: take the phone's NEXT back
            page.click("#cancel")
            pump_until(cal, lambda: not cal.calibration.led_owners)
        expect(page.locator("#leds-n")).to_have_text(f"{len(cal.calibration.led_owners)} of 150", timeout=WAIT_MS)
        cal.answer(3)
        fits(page)
        shot(page, "leds")

        while not cal.session.done:
            cal.answer()
        cal.session.finished("wrote my-board.toml: 42 sensors, 150 LEDs; check it with "
                             "`conquista board check --board my-board.toml`", ok=True)
        page.wait_for_selector("#end.ok", timeout=WAIT_MS)
        assert "wrote my-board.toml" in page.locator("#end").inner_text()
        assert page.locator("#cancel").is_disabled() and page.locator("#next").is_hidden()
        fits(page)
        shot(page, "end")
    cal.close()
