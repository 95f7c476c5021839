"""Issue 40 on the phone, in Chromium at 390×844 and 360×740: every control keeps its box through the phases of a
turn, an end of a phase is never where the step before had a button (a double tap never ends two phases), and the
waits that need the phone have a countdown (the defender's dice choice, the seat claim)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest

from conquista.rules.events import Phase
from tests.rules.helpers import position
from tests.web.live import LiveBoard
from tests.web.test_browser import WAIT_MS, claim_seat

pytestmark = pytest.mark.timeout(240)
SIZES = [(390, 844), (360, 740)]
BOXES = """() => Object.fromEntries([...document.querySelectorAll('#buttons > button')].map((b) => {
    const r = b.getBoundingClientRect();
    const seen = getComputedStyle(b).visibility !== 'hidden' && b.offsetParent !== null;
    return [b.dataset.slot || b.dataset.fixed, {box: [r.left, r.top, r.width, r.height].map(Math.round), seen,
                                                label: b.textContent}]; }))"""


@pytest.fixture
def live() -> Iterator[LiveBoard]:
    board = LiveBoard(claim_timeout_s=30.0)
    board.start()
    yield board
    board.stop()


def _phone(browser: Any, size: tuple[int, int]) -> Any:
    return browser.new_context(viewport={"width": size[0], "height": size[1]}, is_mobile=True,
                               has_touch=True).new_page()


def _meets(a: list[int], b: list[int]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("page", ["phone", "remote"])
@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_every_control_keeps_its_box_through_a_turn(browser: Any, live: LiveBoard, size: tuple[int, int],
                                                    page: str) -> None:
    """On a seated phone, and on a remote seat's board page (its panel at the screen's foot)."""
    phone = _phone(browser, size)
    if page == "phone":
        phone.goto(live.service.url)
        claim_seat(live, phone, "red")
    else:
        grant = live.do(lambda: live.companion.seats.grant(0, remote=True))
        phone.goto(live.service.url + f"board#t={grant.token}")

    def at(phase: Phase, **kw: Any) -> None:
        game = position("italian", 3, owners={"alaska": 0, "kamchatka": 1, "northwest_territory": 0},
                        armies={"alaska": 6, "kamchatka": 1}, phase=phase, **kw)
        live.do(lambda: live.table.referee.reset(game, live.table.clock.now()))

    def step(wanted: str) -> dict[str, Any]:
        """The pad once the button labelled `wanted` is shown."""
        phone.wait_for_function("w => [...document.querySelectorAll('#buttons > button')].some((b) => "
                                "b.textContent === w && getComputedStyle(b).visibility !== 'hidden')",
                                arg=wanted, timeout=WAIT_MS)
        phone.wait_for_timeout(150)     # the hint's ask and the trade button follow the same frame
        boxes: dict[str, Any] = phone.evaluate(BOXES)
        return boxes

    # A set to trade in the hand: the last army placed, the reinforcement waits for NEXT (without one it goes on
    # to the attacks by itself, issue 39), so its end-of-phase button is seen.
    from conquista.rules.cards import card_symbol
    from tests.rules.helpers import MAP

    by_symbol: dict[str, int] = {}
    for t in range(MAP.size):
        by_symbol.setdefault(card_symbol(MAP, t), t)
    one_of_each = sorted(by_symbol.values())[:3]
    steps: list[tuple[str, dict[str, Any]]] = []
    at(Phase.REINFORCE, state={"pool": 3}, hands={0: one_of_each})
    live.do(lambda: live.table.tap("alaska"))
    steps.append(("placing", step("Take back")))
    live.do(lambda: (live.table.tap("alaska"), live.table.tap("alaska")))
    steps.append(("placed", step("End reinforcement")))
    live.do(lambda: live.table.press("next"))
    steps.append(("attack", step("End attack")))
    live.do(lambda: (live.table.tap("alaska"), live.table.tap("kamchatka")))
    steps.append(("attack chosen", step("Roll 3 dice")))
    at(Phase.FORTIFY)
    steps.append(("fortify", step("End turn")))

    first = steps[0][1]
    assert first.keys() >= {"roll", "blitz", "cancel", "less", "more", "all", "end_place", "end_attack", "end_turn",
                            "hint", "trade", "hold"}, first
    for name, boxes in steps:   # one box per control, whatever the phase, seen or not
        assert {k: v["box"] for k, v in boxes.items()} == {k: v["box"] for k, v in first.items()}, name
    bottom = max(v["box"][1] + v["box"][3] for v in first.values())
    assert bottom <= size[1], f"the pad ends at {bottom} px on a {size[1]} px screen"

    # An end of a phase is never over a button the step before showed.
    for (_, before), (name, after) in pairwise(steps):
        ends = [k for k in ("end_place", "end_attack", "end_turn") if after[k]["seen"] and not before[k]["seen"]]
        for end in ends:
            for slot, was in before.items():
                if was["seen"]:
                    assert not _meets(after[end]["box"], was["box"]), (name, end, slot)
    ends = {k: first[k]["box"] for k in ("end_place", "end_attack", "end_turn")}
    assert not _meets(ends["end_place"], ends["end_attack"]) and not _meets(ends["end_attack"], ends["end_turn"])
    labels = {name: sorted(v["label"] for v in boxes.values() if v["seen"]) for name, boxes in steps}
    assert "End reinforcement" in labels["placed"] and "End attack" not in labels["placed"], labels


def test_the_defender_and_the_claimer_see_their_countdowns(browser: Any, live: LiveBoard) -> None:
    phone = _phone(browser, SIZES[1])
    phone.goto(live.service.url)
    phone.get_by_role("button", name=re.compile("^blue$")).click()
    # The claim waits 30 s at the board: the phone that asked counts them down.
    phone.wait_for_selector("#claim-countdown:not(.hidden)", timeout=WAIT_MS)
    left = int(phone.inner_text("#claim-countdown").split(" ")[0])
    assert 20 <= left <= 30 and "ROLL + NEXT" in phone.inner_text("#claim-countdown")
    one_line = phone.evaluate("() => { const n = document.getElementById('claim-countdown'); "
                              "return n.scrollWidth <= n.clientWidth && n.getBoundingClientRect().height < 40; }")
    assert one_line
    live.do(lambda: live.table.press_together("roll", "next"))
    phone.wait_for_function("() => document.getElementById('title').textContent.includes('you are blue')",
                            timeout=WAIT_MS)
    assert phone.is_hidden("#claim-countdown")

    game = position("italian", 3, owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 10, "kamchatka": 5},
                    default_owner=2, current=0, phase=Phase.ATTACK, automatic_defence=False)
    live.do(lambda: live.table.referee.reset(game, live.table.clock.now()))
    live.do(lambda: (live.table.tap("alaska"), live.table.tap("kamchatka"), live.table.press("roll")))
    assert live.do(lambda: live.table.game.phase) is Phase.DEFEND
    phone.wait_for_function("() => /^\\d+ s left$/.test(document.getElementById('countdown')?.textContent)",
                            timeout=WAIT_MS)
    first = int(phone.inner_text("#countdown").split(" ")[0])
    assert 10 <= first <= 15, first
    assert "Defend" in phone.inner_text("#turn-banner .what")
    live.do(lambda: live.table.advance(8.0, step=1.0))
    phone.wait_for_function("f => parseInt(document.getElementById('countdown').textContent) <= f - 8",
                            arg=first, timeout=WAIT_MS)
    box = phone.evaluate("() => document.getElementById('turn-banner').getBoundingClientRect().height")
    assert box < 70, box                                 # one line: the countdown never wraps
    live.do(lambda: live.table.advance(8.0, step=1.0))   # the time is up: the board rolls the most for blue
    assert live.do(lambda: live.table.game.phase) is not Phase.DEFEND
    phone.wait_for_function("() => !/Defend/.test(document.getElementById('turn-banner').textContent)",
                            timeout=WAIT_MS)
    shots = "/tmp/shots-i40p"
    phone.screenshot(path=f"{shots}/test-after-defence-360.png")


def test_a_remote_seat_has_the_banner_and_the_hint(browser: Any, live: LiveBoard) -> None:
    grant = live.do(lambda: live.companion.seats.grant(0, remote=True))
    page = _phone(browser, SIZES[0])
    page.goto(live.service.url + f"board#t={grant.token}")
    game = position("italian", 3, owners={"alaska": 0, "kamchatka": 1, "northwest_territory": 0},
                    armies={"alaska": 6}, phase=Phase.REINFORCE, current=1, state={"pool": 3})
    live.do(lambda: live.table.referee.reset(game, live.table.clock.now()))
    page.wait_for_function("() => /you are red/.test(document.getElementById('seat-line')?.textContent)",
                           timeout=WAIT_MS)
    assert "Your turn" not in page.inner_text("#seat-line")
    assert page.evaluate("() => getComputedStyle(document.getElementById('hint-ask')).visibility") == "hidden"
    mine = position("italian", 3, owners={"alaska": 0, "kamchatka": 1, "northwest_territory": 0},
                    armies={"alaska": 6}, phase=Phase.REINFORCE, current=0, state={"pool": 3})
    live.do(lambda: live.table.referee.reset(mine, live.table.clock.now()))
    page.wait_for_function("() => /Your turn/.test(document.getElementById('seat-line').textContent)",
                           timeout=WAIT_MS)
    page.wait_for_selector("#hint-ask:not(.off)", timeout=WAIT_MS)
    page.wait_for_selector("#legal .pick", timeout=WAIT_MS)
    chip = "() => document.querySelector('#legal .pick').getBoundingClientRect().top"
    chips = [page.evaluate(chip)]          # nothing placed yet: no button but the hint's ask and the hold
    live.do(lambda: live.table.tap("alaska"))
    page.wait_for_function("() => [...document.querySelectorAll('#buttons > button')].some((b) => "
                           "b.textContent === 'Take back' && getComputedStyle(b).visibility !== 'hidden')",
                           timeout=WAIT_MS)
    chips.append(page.evaluate(chip))
    assert chips[0] == chips[1], chips          # the buttons came: the chips above them stayed put
    page.click("#hint-ask")
    page.wait_for_selector("#hint:not(.hidden):not(.thinking) mark[data-territory]", timeout=60_000)
    assert page.inner_text("#hint").startswith("hard would place")
    page.screenshot(path="/tmp/shots-i40p/test-remote-hint-390.png")
    # The page keeps room for the fixed panel: scrolled to the end, the log ends above it.
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(200)
    log, panel = page.evaluate("() => [document.getElementById('log').getBoundingClientRect().bottom, "
                               "document.getElementById('play').getBoundingClientRect().top]")
    assert log <= panel, (log, panel)


def test_an_attack_hint_names_both_places_apart_and_goes_at_the_move_in(browser: Any, live: LiveBoard) -> None:
    phone = _phone(browser, SIZES[1])
    phone.goto(live.service.url)
    claim_seat(live, phone, "red")
    game = position("italian", 3, owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 20, "kamchatka": 1},
                    default_owner=2, current=0, phase=Phase.ATTACK)
    live.do(lambda: live.table.referee.reset(game, live.table.clock.now()))
    phone.wait_for_selector("#hint-ask:not(.off)", timeout=WAIT_MS)
    phone.click("#hint-ask")
    phone.wait_for_selector("#hint:not(.hidden):not(.thinking) mark[data-territory]", timeout=60_000)
    text = phone.inner_text("#hint")
    if "hard would attack" in text:
        places = phone.inner_text("#hint .hint-places")
        assert re.search(r"Look at: \S.* → \S", places), places        # never "AlaskaKamchatka"
    live.do(lambda: (live.table.tap("alaska"), live.table.tap("kamchatka"), live.table.hold("roll")))
    assert live.do(lambda: live.table.game.phase) is Phase.OCCUPY
    phone.wait_for_selector("#hint", state="hidden", timeout=WAIT_MS)   # the attack's hint is gone at the move-in


def test_a_spectators_phone_shows_the_game(browser: Any, live: LiveBoard) -> None:
    phone = _phone(browser, SIZES[1])
    phone.goto(live.service.url)
    game = position("italian", 3, owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 10, "kamchatka": 1},
                    default_owner=2, current=0, phase=Phase.ATTACK)
    live.do(lambda: live.table.referee.reset(game, live.table.clock.now()))
    live.do(lambda: (live.table.tap("alaska"), live.table.tap("kamchatka"), live.table.press("roll")))
    phone.wait_for_selector("#watch:not(.hidden) #watch-roll:not(.hidden) .dice span", timeout=WAIT_MS)
    assert "red to play" in phone.inner_text("#watch-turn .what")
    players = phone.locator("#watch-players li").all_inner_texts()
    assert len(players) == 3 and "red" in players[0] and "terr." in players[0], players
    assert phone.locator("#watch-log li").count() >= 1
    assert phone.is_visible("#join")                      # and the seats to ask for, under the game
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= SIZES[1][0], width
    phone.screenshot(path="/tmp/shots-i40p/test-spectator-360.png", full_page=True)


def test_a_remote_seats_zoom_follows_the_play_and_whole_map_is_under_it(browser: Any, live: LiveBoard) -> None:
    grant = live.do(lambda: live.companion.seats.grant(0, remote=True))
    page = _phone(browser, SIZES[0])
    page.goto(live.service.url + f"board#t={grant.token}")
    page.wait_for_selector("#seat-line", timeout=WAIT_MS)
    page.wait_for_selector(".land", timeout=WAIT_MS)
    base = page.get_attribute("#map svg", "viewBox")
    frame = page.locator("#map-frame").bounding_box()
    assert frame
    page.touchscreen.tap(frame["x"] + 40, frame["y"] + 40)        # a finger on a small map zooms in: North America
    page.wait_for_function("b => document.querySelector('#map svg').getAttribute('viewBox') !== b", arg=base,
                           timeout=WAIT_MS)
    whole = page.locator("#whole-map").bounding_box()
    assert whole and whole["y"] >= frame["y"] + frame["height"] - 1, (whole, frame)   # under the map, not on it
    game = position("italian", 3, owners={"eastern_australia": 1, "western_australia": 2}, default_owner=0,
                    armies={"eastern_australia": 8}, current=1, phase=Phase.ATTACK)
    live.do(lambda: live.table.referee.reset(game, live.table.clock.now()))
    live.do(lambda: (live.table.tap("eastern_australia"), live.table.tap("western_australia")))
    inside = """() => { const v = document.querySelector('#map svg').getAttribute('viewBox').split(/[ ,]+/).map(Number);
        const b = document.querySelector('#map svg .land[data-land="eastern_australia"]');
        if (!b) return null; const r = b.getBBox();
        return r.x >= v[0] && r.y >= v[1] && r.x + r.width <= v[0] + v[2] && r.y + r.height <= v[1] + v[3]; }"""
    page.wait_for_function(inside, timeout=WAIT_MS)       # blue attacks in Oceania: the zoomed map went there
    assert page.get_attribute("#map svg", "viewBox") != base                   # at the same zoom, not the world
