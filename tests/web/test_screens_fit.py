"""The screens, second pass (issue 29), in Chromium against a simulated table: the board fits every television
without scrolling and with counts read from across the room, the set-up menu shows no game, every board agrees on
the turn's clock however late it opened, a seat's phone offers only the buttons that act in each phase, mission
and cards open in an overlay within the screen, and a phone without a seat says who won.

One browser for the module; each test has its own table. With CI set, a missing browser fails the run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from conquista.rules.events import Phase
from tests.rules.helpers import position
from tests.web.live import LiveBoard
from tests.web.test_browser import PHONE, WAIT_MS, claim_seat

pytestmark = pytest.mark.timeout(180)
TV_SIZES = [(960, 540), (1280, 720), (1920, 1080), (3840, 2160)]
SHOWN_BUTTONS = """() => [...document.querySelectorAll('#buttons button[data-slot]')]
    .filter((b) => b.offsetParent !== null && getComputedStyle(b).visibility !== 'hidden').map((b) => b.textContent)"""


@pytest.fixture
def live() -> Iterator[LiveBoard]:
    board = LiveBoard(claim_timeout_s=5.0)
    board.start()
    yield board
    board.stop()


def _clock_seconds(page: Any) -> int:
    text = page.inner_text("#clock")
    found = re.match(r"(\d+):(\d\d)", text)
    assert found, text
    return int(found.group(1)) * 60 + int(found.group(2))


def test_the_board_fits_every_television_with_counts_a_fortieth_of_its_height(browser: Any,
                                                                              live: LiveBoard) -> None:
    page = browser.new_context(viewport={"width": 960, "height": 540}).new_page()
    page.goto(live.service.url + "board")
    page.wait_for_selector(".badge .armies", timeout=WAIT_MS)
    live.do(lambda: [live.table.tap(live.table.game.map.id(live.table.game.owner.index(0))) for _ in range(3)])
    page.wait_for_function("() => document.querySelectorAll('#log div').length > 0", timeout=WAIT_MS)
    for width, height in TV_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)     # the layout follows the new size
        got = page.evaluate("""() => {
            const count = document.querySelector('.badge .armies');
            const scale = count.getScreenCTM().a;
            const box = (sel) => document.querySelector(sel).getBoundingClientRect();
            const log = box('#log');
            const lines = [...document.querySelectorAll('#log > div')].map((d) => d.getBoundingClientRect())
                .filter((r) => r.bottom > log.top && r.top < log.bottom);
            return {width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
                    count: parseFloat(getComputedStyle(count).fontSize) * scale, qr: box('#qr').bottom,
                    turn: box('#turn').top, log: [log.top, log.bottom],
                    cut: lines.filter((r) => r.top < log.top - 0.5 || r.bottom > log.bottom + 0.5).length,
                    shown: lines.length}; }""")
        size = f"{width}×{height}"
        assert got["width"] <= width and got["height"] <= height, (size, got)        # no scrolling
        assert got["count"] >= 0.025 * height, (size, got)                             # read from the sofa
        assert got["qr"] <= height and got["turn"] >= 0, (size, got)                   # the QR code whole
        assert got["shown"] >= 1 and got["cut"] == 0, (size, got)                      # log lines whole


def test_the_set_up_menu_shows_a_dark_map_with_no_counts_or_owners(browser: Any, live: LiveBoard) -> None:
    from conquista.app.setup import menu_options
    from conquista.table.setup_menu import SetupMenu

    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.goto(live.service.url + "board")
    page.wait_for_selector(".badge .armies", timeout=WAIT_MS)
    live.do(lambda: live.table.referee.offer_menu(SetupMenu(menu_options(), rules="italian")))
    page.wait_for_function("() => document.body.classList.contains('menu')", timeout=WAIT_MS)
    page.wait_for_timeout(100)
    shown = page.evaluate("""() => ({
        counts: [...document.querySelectorAll('.badge .armies, .badge .letter')].filter((t) => t.textContent &&
            getComputedStyle(t).display !== 'none').length,
        discs: [...document.querySelectorAll('.badge:not(.hidden-badge)')].length,
        fills: [...new Set([...document.querySelectorAll('.land')].map((l) => getComputedStyle(l).fill))],
        turn: document.getElementById('turn').textContent})""")
    assert shown["counts"] == 0 and shown["discs"] == 0, shown
    assert shown["fills"] == ["rgb(32, 42, 51)"], shown                 # dark, one colour: no owners
    assert "set up" in shown["turn"] and "turn 0" not in shown["turn"], shown


def test_two_boards_opened_apart_show_the_boards_own_turn_clock(browser: Any, live: LiveBoard) -> None:
    first = browser.new_context(viewport={"width": 960, "height": 540}).new_page()
    first.goto(live.service.url + "board")
    first.wait_for_selector("#clock", timeout=WAIT_MS)
    # The board's clock moves on 30 s at once (the simulated table's clock, not a sleep); a board opened now and
    # the one open since before must both show the turn's time as the board counts it.
    live.do(lambda: live.table.advance(30.0, step=1.0))
    second = browser.new_context(viewport={"width": 960, "height": 540}).new_page()
    second.goto(live.service.url + "board")
    second.wait_for_function("() => /^0:[3-9]\\d/.test(document.getElementById('clock')?.textContent || '')",
                             timeout=WAIT_MS)
    first.wait_for_function("() => /^0:[3-9]\\d/.test(document.getElementById('clock').textContent)",
                            timeout=WAIT_MS)      # its next pong carries the board's now
    a, b = _clock_seconds(first), _clock_seconds(second)
    assert abs(a - b) <= 1 and a >= 30, (a, b)


def test_a_seated_phone_offers_only_the_buttons_that_act_in_each_phase(browser: Any, live: LiveBoard) -> None:
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live.service.url)
    claim_seat(live, phone, "red")

    def at(phase: Phase, **kw: Any) -> None:
        game = position("italian", 3, owners={"alaska": 0, "kamchatka": 1, "northwest_territory": 0},
                        armies={"alaska": 6}, phase=phase, **kw)
        live.do(lambda: live.table.referee.reset(game, live.table.clock.now()))

    def shown(expected: list[str]) -> None:
        phone.wait_for_function(f"() => JSON.stringify(({SHOWN_BUTTONS})().sort()) === "
                                f"JSON.stringify({sorted(expected)!r})", timeout=WAIT_MS)

    at(Phase.REINFORCE, state={"pool": 3})
    shown([])                                   # nothing placed yet: no BLITZ, no ROLL, no NEXT
    live.do(lambda: live.table.tap("alaska"))
    shown(["+", "all", "−", "Take back"])
    at(Phase.ATTACK)
    shown(["End attack"])
    live.do(lambda: (live.table.tap("alaska"), live.table.tap("kamchatka")))
    shown(["Blitz", "Cancel", "End attack", "Roll 3 dice", "−"])
    live.do(lambda: live.table.press("roll"))
    phone.wait_for_function("() => !/Roll 3 dice/.test(document.getElementById('buttons').textContent) || "
                            "document.getElementById('roll').textContent.length > 0", timeout=WAIT_MS)
    game = live.do(lambda: live.table.game)
    if game.phase is Phase.OCCUPY:              # conquered: moving in says how many, never "ROLL"
        labels = phone.evaluate(SHOWN_BUTTONS)
        assert any(re.fullmatch(r"Move \d+ in", label) for label in labels), labels
        assert "ROLL" not in labels and "Blitz" not in labels
    # The pad keeps its shape: hidden buttons hold their places, so the one under the finger never moves.
    places = """() => { const pad = document.getElementById('buttons').getBoundingClientRect();
        return [pad.height, ...[...document.querySelectorAll('#buttons button')].map((b) => {
            const r = b.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top - pad.top)]; })]; }"""
    before = phone.evaluate(places)
    at(Phase.FORTIFY)
    shown(["End turn"])
    assert phone.evaluate(places) == before


def test_mission_and_three_cards_open_in_an_overlay_within_the_phone(browser: Any, live: LiveBoard) -> None:
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live.service.url)
    claim_seat(live, phone, "red")
    game = position("italian", 3, owners={"alaska": 0, "kamchatka": 0, "peru": 0}, phase=Phase.REINFORCE,
                    hands={0: [0, 1, 2]}, state={"pool": 3})
    live.do(lambda: live.table.referee.reset(game, live.table.clock.now()))
    phone.wait_for_selector("#trade-open:not(.hidden)", timeout=WAIT_MS)
    hold = phone.locator("#secret-hold")
    hold.dispatch_event("pointerdown")
    phone.wait_for_selector("#secret:not(.hidden) #cards li", timeout=WAIT_MS)
    box = phone.evaluate("""() => {
        const r = (el) => el.getBoundingClientRect();
        const items = [...document.querySelectorAll('#cards li, #secret button.trade')].map((n) => r(n).bottom);
        return {box: r(document.getElementById('secret')), cards: document.querySelectorAll('#cards li').length,
                lowest: Math.max(...items), sets: document.querySelectorAll('#secret button.trade').length}; }""")
    assert box["cards"] == 3 and box["sets"] >= 1, box
    assert box["box"]["top"] >= 0 and box["box"]["bottom"] <= 844, box          # the overlay fits the screen
    assert box["lowest"] <= box["box"]["bottom"], box                           # the third card and the set seen
    hold.dispatch_event("pointerup")
    phone.wait_for_selector("#secret.hidden", state="attached", timeout=WAIT_MS)


def test_a_phone_without_a_seat_says_who_won_and_how(browser: Any, live: LiveBoard) -> None:
    from conquista.bots.simulate import play_game
    from conquista.rules.mapdata import load_map
    from conquista.rules.rulesets import load_ruleset

    finished = play_game(load_ruleset("italian"), load_map(), 3, ["greedy"], seed=7).game
    assert finished is not None and finished.over and finished.winner is not None
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live.service.url)
    phone.wait_for_selector("#join:not(.hidden)", timeout=WAIT_MS)
    live.do(lambda: live.table.referee.reset(finished, live.table.clock.now(), play=False))
    phone.wait_for_selector("#result:not(.hidden)", timeout=WAIT_MS)
    colour = finished.rules.colours[finished.winner]
    text = phone.inner_text("#result")
    assert f"{colour} won the game" in text and len(text.splitlines()) >= 2, text     # who, and how
    assert phone.evaluate("() => document.getElementById('result').getBoundingClientRect().top") < 200


def test_a_remote_seat_plays_from_a_compact_panel_in_its_own_words(browser: Any, live: LiveBoard) -> None:
    grant = live.do(lambda: live.companion.seats.grant(0, remote=True))
    page = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True).new_page()
    page.goto(live.service.url + f"board#t={grant.token}")
    page.wait_for_selector("#play:not(.hidden) #legal .pick", timeout=WAIT_MS)
    got = page.evaluate("""() => {
        const r = (n) => n.getBoundingClientRect();
        const panel = r(document.getElementById('play'));
        const turn = r(document.getElementById('turn'));
        window.scrollTo(0, 0);
        return {panel: panel.height, panelTop: panel.top, turnBottom: turn.bottom, turnTop: turn.top,
                pending: document.getElementById('pending').textContent,
                targets: [...document.querySelectorAll('#play button')].filter((b) => b.offsetParent !== null)
                    .map((b) => r(b).height)}; }""")
    assert got["panel"] <= 0.4 * 740, got                                   # not most of the screen
    assert got["turnTop"] >= 0 and got["turnBottom"] <= got["panelTop"], got   # the turn heading whole above it
    assert min(got["targets"]) >= 44, got
    assert "on the map" in got["pending"] and "on the board" not in got["pending"], got


NAME_CLASHES = """() => {
    const rect = (n) => n.getBoundingClientRect();
    const badges = [...document.querySelectorAll('svg.badges .badge')];
    const circles = badges.flatMap((b) => [...b.querySelectorAll('.disc, .tag')].map((c) => {
        const r = rect(c);
        return {id: b.dataset.id, x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2, r: r.width / 2}; }));
    const names = badges.map((b) => ({id: b.dataset.id, r: rect(b.querySelector('.name'))}));
    const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const hits = (c, r) => Math.hypot(c.x - Math.max(r.left, Math.min(c.x, r.right)),
                                      c.y - Math.max(r.top, Math.min(c.y, r.bottom))) < c.r;
    const clashes = [];
    for (const n of names) {
        for (const m of names) if (m.id < n.id && meets(n.r, m.r)) clashes.push(`${n.id} name / ${m.id} name`);
        for (const c of circles) if (c.id !== n.id && hits(c, n.r)) clashes.push(`${n.id} name / ${c.id} disc`);
    }
    return {clashes, names: names.length, empty: names.filter((n) => n.r.width < 1).length};
}"""


def test_no_territory_name_touches_another_name_or_another_territorys_disc(browser: Any, live: LiveBoard) -> None:
    for width, height in [(960, 540), (1920, 1080)]:
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        page.goto(live.service.url + "board")
        page.wait_for_selector(".badge .armies", timeout=WAIT_MS)
        got = page.evaluate(NAME_CLASHES)
        assert got["names"] == 42 and got["empty"] == 0, got
        assert got["clashes"] == [], (width, got["clashes"])      # e.g. East Africa on Congo's disc
        names = page.evaluate("() => [...document.querySelectorAll('.badge .name')].map((n) => n.textContent)")
        assert "East Africa" in names and "Western United States" in names     # a name on two lines reads whole
        page.context.close()


SHARE_SPY = """Object.defineProperty(navigator, 'share', {configurable: true,
    value: (data) => { window.__shared = data; return Promise.resolve(); }});"""
NO_CLIPBOARD = "Object.defineProperty(navigator, 'clipboard', {configurable: true, value: undefined});"


def test_the_host_copies_or_shares_a_remote_seats_link(browser: Any) -> None:
    """The clipboard where the browser grants it, the older copy command where it has no clipboard (a page on the
    network's address over http), the share sheet where the phone has one."""
    live = LiveBoard(first_seat_hosts=True)
    live.start()
    try:
        colours = live.do(lambda: live.table.game.rules.colours)
        context = browser.new_context(**PHONE, permissions=["clipboard-read", "clipboard-write"])
        host = context.new_page()
        host.goto(live.service.url)
        claim_seat(live, host, colours[0])
        for way, script in (("copy", ""), ("copy", NO_CLIPBOARD), ("share", SHARE_SPY)):
            if script:      # for the next load (the seat stays this phone's)
                context.add_init_script(script)
                host.reload()
            host.wait_for_selector("#host:not(.hidden)", timeout=WAIT_MS)
            host.click("[data-remote='1']")
            link = host.wait_for_selector("[data-link='1']", timeout=WAIT_MS).input_value()
            assert link.startswith(live.service.url + "board#t="), link
            button = host.locator(f"[data-{way}='1']")
            assert button.inner_text() == f"{way.capitalize()} the {colours[1]} link"
            assert button.bounding_box()["height"] >= 44
            button.click()
            if way == "share":
                host.wait_for_function("() => window.__shared !== undefined", timeout=WAIT_MS)
                assert host.evaluate("() => window.__shared.url") == link
                continue
            host.wait_for_function("() => document.querySelector('.copied').textContent === 'copied'",
                                   timeout=WAIT_MS)
            if not script:
                assert host.evaluate("() => navigator.clipboard.readText()") == link
        context.close()
    finally:
        live.stop()


def test_a_remote_seat_on_a_phone_picks_territories_with_targets_a_finger_can_hit(browser: Any,
                                                                                   live: LiveBoard) -> None:
    """The whole world on a phone has discs of 13 px: a finger's tap zooms in on the region first (discs of at
    least 44 px), the next one picks; the list of the territories that can be tapped has 44 px buttons."""
    grant = live.do(lambda: live.companion.seats.grant(0, remote=True))
    page = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True).new_page()
    page.goto(live.service.url + f"board#t={grant.token}")
    page.wait_for_selector("#play:not(.hidden) #legal .pick", timeout=WAIT_MS)
    picks = page.evaluate("() => [...document.querySelectorAll('#legal .pick')].map((b) => b.offsetHeight)")
    assert picks and min(picks) >= 44, picks
    mine = page.get_attribute("#legal .pick", "data-pick")
    disc = page.locator(f".badge[data-id={mine}] .disc")
    whole = page.locator("#whole-map")
    pool = live.do(lambda: live.table.game.pool)

    def tap_disc() -> float:
        box = disc.bounding_box()
        assert box is not None
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        return float(box["width"])

    assert tap_disc() < 44                                        # too small for a finger: this tap zooms
    page.wait_for_selector(".map-frame.zoomed", timeout=WAIT_MS)
    assert whole.is_visible() and whole.bounding_box()["height"] >= 44
    page.wait_for_timeout(300)
    assert live.do(lambda: live.table.game.pool) == pool          # nothing was placed
    assert tap_disc() >= 44                                       # this one picks
    page.wait_for_function(f"() => /armies to place: {pool - 1}/.test(document.getElementById('play').textContent)",
                           timeout=WAIT_MS)
    assert live.do(lambda: live.table.game.pool) == pool - 1
    whole.click()
    page.wait_for_selector(".map-frame:not(.zoomed)", timeout=WAIT_MS)
    assert disc.bounding_box()["width"] < 44 and not whole.is_visible()
