"""The TV tells the table's story (issue 40), in Chromium against a simulated table at 960×540 and 1920×1080: the
defender's countdown, player panels with each seat's income, the end screen with 5 and 8 players fitting (and the
winner first on a phone), the colour-blind palette on the map's fills, and the bytes a TV receives while bots play
(differences, smaller than the whole views they rebuild). Screenshots of each state go to /tmp/shots-i40t/.

One browser for the module; each test has its own table. With CI set, a missing browser fails the run.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from conquista.rules.events import Phase
from conquista.table.colours import Palette, screen_hex_in
from conquista_sim.table import SimulatedTable
from tests.rules.helpers import position
from tests.web.conftest import ORIGIN, Served, until
from tests.web.live import LiveBoard
from tests.web.test_browser import WAIT_MS

pytestmark = pytest.mark.timeout(240)
TV = [(960, 540), (1920, 1080)]
SHOTS = "/tmp/shots-i40t"
SOUTH_AMERICA = ("venezuela", "peru", "brazil", "argentina")
FITS = """() => ({width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight})"""


@pytest.fixture
def live() -> Iterator[LiveBoard]:
    board = LiveBoard(players=3)
    board.start()
    yield board
    board.stop()


def _shot(page: Any, name: str, full: bool = False) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    size = page.viewport_size
    page.screenshot(path=f"{SHOTS}/{name}-{size['width']}x{size['height']}.png", full_page=full)


def _tv(browser: Any, live: LiveBoard, width: int, height: int) -> Any:
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(live.service.url + "board")
    page.wait_for_selector(".badge .armies", timeout=WAIT_MS)
    return page


def _reset(live: LiveBoard, game: Any) -> None:
    live.do(lambda: live.table.referee.reset(game, live.table.clock.now()))


@pytest.mark.parametrize(("width", "height"), TV)
def test_the_tv_counts_down_the_defenders_choice_of_dice(browser: Any, live: LiveBoard, width: int,
                                                        height: int) -> None:
    _reset(live, position("italian", 3, owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 10, "kamchatka": 5},
                          default_owner=2, current=0, phase=Phase.ATTACK, automatic_defence=False))
    page = _tv(browser, live, width, height)
    live.do(lambda: (live.table.tap("alaska"), live.table.tap("kamchatka"), live.table.press("roll")))
    assert live.do(lambda: live.table.game.phase) is Phase.DEFEND
    wait = page.wait_for_selector("#countdown [data-wait=defend]", timeout=WAIT_MS)
    first = wait.inner_text()
    assert "blue defends" in first and "to choose the dice" in first
    seconds = int(first.split(": ")[1].split(" s")[0])
    assert 0 < seconds <= 15
    page.wait_for_function(f"() => {{ const w = document.querySelector('#countdown [data-wait=defend]');"
                           f" return w && parseInt(w.textContent.split(': ')[1]) < {seconds}; }}", timeout=WAIT_MS)
    assert page.evaluate(FITS)["height"] <= height
    # The arrow from the attacker to its target stands over the map: across the map's edge (Alaska – Kamchatka) it
    # goes out of one side and in at the other, never over the whole world.
    widths = page.evaluate("() => [...document.querySelectorAll('.marks .arrow')].map((a) => a.getBBox().width)")
    assert len(widths) == 2 and max(widths) < 800, widths
    _shot(page, "defence")


def test_the_tv_counts_down_a_phones_seat_claim_until_roll_and_next_grant_it(browser: Any, live: LiveBoard) -> None:
    page = _tv(browser, live, 960, 540)
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(live.service.url)
    phone.get_by_role("button", name=re.compile("^blue$")).click()
    wait = page.wait_for_selector("#countdown [data-wait=claim]", timeout=WAIT_MS)
    first = " ".join(wait.inner_text().split())
    assert "a phone asks for blue: ROLL and NEXT at the board" in first, first
    seconds = int(first.rsplit("· ", 1)[1].split(" s")[0])
    assert 0 < seconds <= 30, first
    page.wait_for_function("() => { const w = document.querySelector('#countdown [data-wait=claim]');"
                           f" return w && parseInt(w.textContent.split('· ').pop()) < {seconds}; }}",
                           timeout=WAIT_MS)
    bar = page.evaluate("() => document.querySelector('#countdown [data-wait=claim] .bar').style.width")
    assert 0 < int(bar.rstrip("%")) <= 100, bar
    assert page.evaluate(FITS)["height"] <= 540 and page.evaluate(FITS)["width"] <= 960
    _shot(page, "claim-countdown")
    os.makedirs("/tmp/shots-i40r", exist_ok=True)
    phone.screenshot(path="/tmp/shots-i40r/phone-claiming-390x844.png")
    page.screenshot(path="/tmp/shots-i40r/tv-claim-countdown-960x540.png")
    live.do(lambda: live.table.press_together("roll", "next"))      # granted: the wait goes from the TV
    page.wait_for_selector("#countdown [data-wait=claim]", state="detached", timeout=WAIT_MS)
    phone.wait_for_function("() => document.getElementById('title').textContent.includes('you are blue')",
                            timeout=WAIT_MS)
    phone.context.close()


@pytest.mark.parametrize(("width", "height"), TV)
def test_the_player_panels_show_each_seats_figures_and_income(browser: Any, live: LiveBoard, width: int,
                                                             height: int) -> None:
    owners = {t: 0 for t in SOUTH_AMERICA} | {"alaska": 0, "kamchatka": 1}
    game = position("italian", 3, owners=owners, armies={"brazil": 6}, default_owner=2, current=0,
                    phase=Phase.ATTACK, hands={1: [0, 1]})
    _reset(live, game)
    page = _tv(browser, live, width, height)
    page.wait_for_function("() => document.querySelector('#players li[data-seat=\"0\"] .held')", timeout=WAIT_MS)
    for seat in range(3):
        panel = page.inner_text(f"#players li[data-seat='{seat}']")
        held = game.territory_count[seat]
        armies = sum(a for t, a in enumerate(game.armies) if game.owner[t] == seat)
        income = game.reinforcements_for(seat)
        figures = " ".join(panel.split())
        assert f"{held} terr." in figures and f"{armies} armies" in figures and f"+{income} next" in figures, figures
    assert game.reinforcements_for(0) == 5 // 3 + 2      # the continent's bonus is in the panel's income
    assert "South America +2" in page.inner_text("#players li[data-seat='0']")
    assert "2 cards" in page.inner_text("#players li[data-seat='1']")
    assert "playing" in page.inner_text("#players li[data-seat='0']")
    assert "next" in page.inner_text("#players li[data-seat='1'] .tag-next")
    assert page.evaluate(FITS)["height"] <= height
    _shot(page, "panels")


def _played_to_the_end(rules: str, players: int) -> Any:
    """A bots' game played to its end off screen (a few seconds): a luck report of hundreds of rolls."""
    table = SimulatedTable(rules, players, 9, frozenset(range(players)), think_time=0.01)
    try:
        for _ in range(200):
            if table.game.over:
                break
            table.advance(5)
        assert table.game.over
        return table.game
    finally:
        table.close()


@pytest.mark.parametrize("players", [5, 8])
def test_the_end_screen_fits_with_every_mission_whole_and_the_winner_first_on_a_phone(
        browser: Any, live: LiveBoard, players: int) -> None:
    rules = "italian" if players <= 6 else "lamorisse-1954"
    game = _played_to_the_end(rules, players)
    _reset(live, game)
    page = _tv(browser, live, 960, 540)
    page.wait_for_function("() => document.body.classList.contains('over')", timeout=WAIT_MS)
    page.wait_for_selector("#luck table", timeout=WAIT_MS)
    for width, height in [*TV, (390, 844)]:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)
        got = page.evaluate("""() => {
            const box = (n) => n.getBoundingClientRect();
            const luck = box(document.getElementById('luck'));
            const bottom = (sel) => [...document.querySelectorAll(sel)].map(box)
                .reduce((a, r) => Math.max(a, r.bottom), 0);
            const last = bottom('#luck tbody tr, #luck .luck-words li, #luck .verdict');
            // On a TV every mission is in its player's panel; on a phone in the report's list.
            const missions = [...document.querySelectorAll('.players .mission, #luck .missions li')]
                .filter((n) => n.offsetParent !== null);
            const side = box(document.querySelector('.players-box'));
            return {width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
                    luckBottom: luck.bottom, last, rows: document.querySelectorAll('#luck tbody tr').length,
                    map: box(document.getElementById('map-frame')).height,
                    winner: box(document.getElementById('turn')).top, report: luck.top,
                    turn: document.getElementById('turn').textContent, missions: missions.length,
                    missionBottom: missions.map(box).reduce((a, r) => Math.max(a, r.bottom), 0),
                    sideBottom: side.bottom}; }""")
        size = f"{width}×{height}"
        assert got["rows"] == players and "won the game" in got["turn"], (size, got)
        assert got["map"] > 50, (size, got)                               # the final map is shown
        assert got["missions"] == (players if game.missions else 0), (size, got)
        if height < 844:
            assert got["width"] <= width and got["height"] <= height, (size, got)   # one screen on a TV
            assert got["last"] <= got["luckBottom"] + 0.5, (size, got)              # the report whole
            assert got["missionBottom"] <= min(got["sideBottom"], height) + 0.5, (size, got)   # every mission
        else:
            assert got["width"] <= width and got["winner"] < got["report"] and got["winner"] < 200, (size, got)
        _shot(page, f"end{players}", full=height == 844)


@pytest.mark.parametrize(("width", "height"), TV)
def test_the_colour_blind_palette_fills_the_map(browser: Any, live: LiveBoard, width: int, height: int) -> None:
    live.do(lambda: setattr(live.table.referee, "palette", Palette.COLOUR_BLIND))
    _reset(live, position("italian", 5, owners={"alaska": 4, "peru": 1}, default_owner=3))
    page = _tv(browser, live, width, height)
    expected = {name: screen_hex_in(name, Palette.COLOUR_BLIND) for name in ("purple", "blue", "green")}
    assert expected["purple"] != screen_hex_in("purple", Palette.STANDARD)
    page.wait_for_function("""(want) => {
        const fill = (id) => document.querySelector(`[data-land=${id}]`).style.fill;
        const hex = (c) => '#' + c.match(/\\d+/g).map((n) => Number(n).toString(16).padStart(2, '0')).join('');
        return fill('alaska') && hex(fill('alaska')) === want.purple && hex(fill('peru')) === want.blue
            && hex(fill('brazil')) === want.green; }""", arg=expected, timeout=WAIT_MS)
    swatch = page.evaluate("() => getComputedStyle(document.querySelector('#players li[data-seat=\"4\"] .swatch'))"
                           ".backgroundColor")
    assert swatch == "rgb(180, 40, 170)"
    _shot(page, "colour-blind")


def test_a_tv_watching_bots_for_60_s_receives_differences_that_rebuild_the_view(browser: Any) -> None:
    bots = frozenset({0, 1, 2, 3})
    board = LiveBoard(players=4, seed=9, bots=bots)
    board.table.think_time = 0.3
    board.start()
    try:
        page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        page.add_init_script("""window.__bytes = {diff: 0, whole: 0, frames: 0, rebuilt: 0};
            const Native = window.WebSocket;
            window.WebSocket = function (...args) {
                const ws = new Native(...args);
                ws.addEventListener('message', (e) => {
                    const frame = JSON.parse(e.data);
                    if (frame.type === 'public_diff') { __bytes.diff += e.data.length; __bytes.frames += 1; }
                    if (frame.type === 'public') __bytes.whole += e.data.length;
                });
                return ws; };
            window.WebSocket.OPEN = Native.OPEN;
            document.addEventListener('conquista-frame', (e) => {
                if (e.detail.type === 'public') { window.__view = e.detail.view;
                    __bytes.rebuilt += JSON.stringify(e.detail.view).length; } });""")
        page.goto(board.service.url + "board")
        page.wait_for_selector(".badge .armies", timeout=WAIT_MS)
        time.sleep(60)
        got = page.evaluate("() => window.__bytes")
        assert got["frames"] > 20, got
        assert got["diff"] < got["rebuilt"] / 4, got          # the differences weigh far less than the views
        # The view the page rebuilt is the board's own, exactly: read when no move comes between the two reads.
        for _ in range(50):
            latest = board.companion.latest
            assert latest is not None
            page.wait_for_timeout(100)
            if board.companion.latest is latest:
                mine = page.evaluate("() => window.__view")
                if board.companion.latest is latest and mine == json.loads(latest.public):
                    break
        else:
            pytest.fail("the page's view never matched the board's")
    finally:
        board.stop()


def test_the_colour_blind_screen_palette_keeps_seats_the_neutral_army_and_the_sea_apart() -> None:
    vision = pytest.importorskip("tests.table.test_colour_vision")
    from conquista.table.colours import SCREEN_COLOUR_BLIND_RGB, SCREEN_NEUTRAL, SCREEN_RGB

    sea = (0x2F, 0x4C, 0x69)          # style.css's .map-frame

    def closest(palette: dict[str, tuple[int, int, int]], deficiency: str) -> float:
        return min(vision.screen_distances({**palette, "neutral": SCREEN_NEUTRAL, "sea": sea}, deficiency).values())

    for deficiency, floor in (("deuteranomaly", 10.9), ("protanomaly", 12.6), ("tritanomaly", 15.9)):
        assert closest(SCREEN_COLOUR_BLIND_RGB, deficiency) >= floor, deficiency
    # Better than the standard screen colours where those fail a colour-blind player: purple near the sea.
    assert closest(SCREEN_COLOUR_BLIND_RGB, "deuteranomaly") > closest(SCREEN_RGB, "deuteranomaly") + 3


def test_a_seat_claim_waiting_for_roll_is_counted_down_on_every_screen(served: Served) -> None:
    with served.client.websocket_connect("/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello"})
        until(ws, "map")
        assert served.client.get("/api/public").json()["countdowns"]["claim"] is None
        ws.send_json({"type": "claim", "seat": 1})
        served.board.step_when_queued()
        assert until(ws, "claim")["state"] == "asked"
        served.board.step()
        waits = served.client.get("/api/public").json()["countdowns"]
        asked = served.board.now
        assert waits["claim"]["seat"] == 1 and waits["claim"]["seconds"] == 30.0
        assert asked - 0.2 <= waits["claim"]["deadline"] - 30.0 <= asked, (waits, asked)
        assert waits["defend"] is None
