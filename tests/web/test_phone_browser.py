"""The phone page in Chromium at 390×844: it fits the screen, one tap trades the chosen set, the dice of a roll are
shown, a dead connection shows "offline", the announcements' words, the luck report at the end of a game, and the
views rebuilt from differences (issue 40)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

from conquista.rules.events import Phase
from tests.rules.helpers import edited
from tests.web.live import LiveBoard
from tests.web.test_browser import PHONE, WAIT_MS, claim_seat, finish_setup

pytestmark = pytest.mark.timeout(240)
WIDTH = 390
SHOTS = "/tmp/shots-i40r"




@pytest.fixture
def live() -> Iterator[LiveBoard]:
    board = LiveBoard(first_seat_hosts=True)
    board.start()
    yield board
    board.stop()


def fits(page: Any) -> None:
    width = page.evaluate("() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
    assert width <= WIDTH, f"the page is {width} px wide on a {WIDTH} px screen"


def attack_once(live: LiveBoard) -> tuple[str, str]:
    """On the board loop: the player to move places every army on a territory next to an enemy, goes to the
    attack, selects that territory and the enemy, and rolls once."""
    def play() -> tuple[str, str]:
        table = live.table
        game = table.game
        me = game.current
        source = next(t for t in range(game.map.size) if game.owner[t] == me
                      and any(game.owner[n] != me for n in game.map.neighbours[t]))
        target = next(n for n in game.map.neighbours[source] if game.owner[n] != me)
        while table.game.pool:
            table.tap(game.map.id(source))
        if table.game.phase is not Phase.ATTACK:   # a set left to trade waits for NEXT; else the attack has begun
            table.press("next")
        assert table.game.phase is Phase.ATTACK
        table.tap(game.map.id(source))
        table.tap(game.map.id(target))
        table.press("roll")
        return game.map.id(source), game.map.id(target)

    return live.do(play)


def test_the_phone_fits_and_one_tap_trades_the_chosen_set(browser: Any, live: LiveBoard) -> None:
    player = finish_setup(live)
    game = live.do(lambda: live.table.game)
    colours = game.rules.colours
    join = browser.new_context(**PHONE).new_page()
    join.goto(live.service.url)
    join.wait_for_selector("#join:not(.hidden) button", timeout=WAIT_MS)
    fits(join)
    host_seat = (player + 1) % game.players
    host = browser.new_context(**PHONE).new_page()
    host.goto(live.service.url)
    claim_seat(live, host, colours[host_seat])
    host.wait_for_selector("#host:not(.hidden)", timeout=WAIT_MS)
    fits(host)
    # The host's buttons are for the other seats, named by colour; never for the host's own.
    assert host.locator(f"[data-leave='{host_seat}'], [data-remote='{host_seat}']").count() == 0
    assert host.locator(f"[data-leave='{player}']").inner_text() == f"{colours[player]} leaves (armies only defend)"

    # The player to move holds cards that make several sets; the phone lists them all.
    def deal_sets() -> list[tuple[int, ...]]:
        table = live.table
        now = table.game
        for start in range(0, 40):
            hand = list(range(start, start + 5))
            trial = edited(now, hands=[hand if s == player else [] for s in range(now.players)])
            if len(trial.valid_trades(player)) >= 2:
                table.referee.reset(trial, table.clock.now())
                return list(trial.valid_trades(player))
        raise AssertionError("no hand of five cards with two sets")

    sets = live.do(deal_sets)
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live.service.url)
    claim_seat(live, phone, colours[player])
    phone.wait_for_selector("#turn-banner:not(.hidden)", timeout=WAIT_MS)
    assert phone.title().startswith("● Your turn")
    fits(phone)
    phone.click("#trade-open")
    buttons = phone.locator("#secret button.trade")
    buttons.first.wait_for(timeout=WAIT_MS)
    assert buttons.count() == len(sets)
    fits(phone)
    chosen = buttons.nth(buttons.count() - 1)          # not the first, which ROLL at the board would trade
    cards = tuple(int(c) for c in chosen.get_attribute("data-cards").split(","))
    hand_before = live.do(lambda: list(live.table.game.hands[player]))
    chosen.click()
    phone.wait_for_selector("#secret", state="hidden", timeout=WAIT_MS)   # the secrets hide again at once
    deadline = time.monotonic() + 10
    while live.do(lambda: len(live.table.game.hands[player])) == len(hand_before) and time.monotonic() < deadline:
        time.sleep(0.05)
    hand_after = live.do(lambda: sorted(live.table.game.hands[player]))
    assert hand_after == sorted(set(hand_before) - set(cards))


def test_the_dice_of_a_roll_and_their_announcement(browser: Any, live: LiveBoard) -> None:
    player = finish_setup(live)
    game = live.do(lambda: live.table.game)
    colours = game.rules.colours
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live.service.url)
    claim_seat(live, phone, colours[player])
    board = browser.new_context().new_page()
    board.goto(live.service.url + "board")
    board.wait_for_selector("#speech-on", timeout=WAIT_MS)
    assert not board.is_checked("#speech-on")              # speech is off until someone wants it
    phone.wait_for_selector("#turn-banner:not(.hidden)", timeout=WAIT_MS)
    # The board must have drawn the view before the attack: a first view is the screen's start, not news to tell.
    board.wait_for_function("() => document.getElementById('turn').textContent.length > 0", timeout=WAIT_MS)
    before = live.do(lambda: live.companion.latest.public_dict())
    owners = {t["id"]: t["owner"] for t in before["territories"]}
    source, target = attack_once(live)
    attack, defence = live.do(lambda: live.table.referee.dice_values())
    attack = [d for d in attack if d is not None]
    defence = [d for d in defence if d is not None]
    phone.wait_for_selector("#roll:not(.hidden) .dice span", timeout=WAIT_MS)
    shown = phone.locator("#roll .dice span").all_inner_texts()
    assert shown == [str(d) for d in attack + defence]
    fits(phone)

    after = live.do(lambda: live.companion.latest.public_dict())
    lost = after["roll"]["lost"]
    a, d = colours[owners[source]], colours[owners[target]]
    names = {t.id: t for t in game.map.territories}
    unit = {1: "army"}

    def armies(n: int) -> str:
        return f"{n} {unit.get(n, 'armies')}"

    expected = (f"{a} attacks {names[target].name_en} from {names[source].name_en}: {a} loses {armies(lost[0])}, "
                f"{d} {armies(lost[1])}.")
    # The spectator heard the same words, for its screen reader, without speaking them.
    board.wait_for_function("want => document.getElementById('announce').textContent.includes(want)", arg=expected,
                            timeout=WAIT_MS)


def test_the_announcement_texts(browser: Any) -> None:
    """The words, in English and Italian, from two public views built by hand."""
    page = browser.new_context().new_page()
    live = LiveBoard()
    live.start()
    try:
        page.goto(live.service.url + "board")
        page.wait_for_selector("#speech-on", timeout=WAIT_MS)
    finally:
        live.stop()
    the_map = {"territories": [{"id": "brazil", "name": "Brazil", "name_it": "Brasile"},
                               {"id": "north_africa", "name": "North Africa", "name_it": "Africa del Nord"}]}
    seats = [{"colour": "red", "eliminated": False}, {"colour": "blue", "eliminated": False}]

    def view(owners: list[int], armies: list[int], rolls: int, lost: list[int], current: int = 0,
             eliminated: bool = False, over: bool = False) -> dict[str, Any]:
        return {"territories": [{"owner": o, "armies": n} for o, n in zip(owners, armies, strict=True)],
                "seats": [seats[0], {**seats[1], "eliminated": eliminated}], "current": current, "over": over,
                "winner": 0 if over else None, "neutral": None,
                "roll": {"count": rolls, "source": "brazil", "target": "north_africa", "lost": lost}}

    def say(before: dict[str, Any], after: dict[str, Any], lang: str) -> list[str]:
        said: list[str] = page.evaluate("([b, a, m, l]) => conquistaSpeech.announcements(b, a, m, l)",
                                        [before, after, the_map, lang])
        return said

    start = view([0, 1], [5, 2], 3, [0, 0])
    one = view([0, 1], [4, 1], 4, [1, 1])
    assert say(start, one, "en") == ["red attacks North Africa from Brazil: red loses 1 army, blue 1 army."]
    assert say(start, one, "it") == ["Rosso attacca Africa del Nord da Brasile: rosso perde 1 armata, blu 1 armata."]
    # A blitz (several rolls between two views): the armies tell the losses; the conquest, the elimination, the win.
    won = view([0, 0], [1, 3], 7, [0, 1], eliminated=True, over=True)
    assert say(start, won, "en") == ["red attacks North Africa from Brazil, 4 rolls: red loses 1 army, blue 2 armies.",
                                     "red conquers North Africa.", "blue is eliminated.", "red wins the game."]
    assert say(start, won, "it")[1:] == ["Rosso conquista Africa del Nord.", "Blu è eliminato.",
                                         "Rosso vince la partita."]
    turn = view([0, 1], [5, 2], 3, [0, 0], current=1)
    assert say(start, turn, "en") == ["blue's turn."] and say(start, turn, "it") == ["Turno di blu."]
    assert say(None, start, "en") == []                    # the first view: nothing happened yet


def test_offline_within_seconds_of_a_dead_connection(browser: Any, live: LiveBoard) -> None:
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live.service.url)
    phone.wait_for_function("() => document.getElementById('status').textContent === 'connected'", timeout=WAIT_MS)
    hub = live.service.hub
    assert hub is not None and hub.loop is not None
    # The server stops answering without closing anything (as when the Wi-Fi is gone): only the heartbeat can tell.
    hub.loop.call_soon_threadsafe(time.sleep, 15)
    phone.wait_for_function("() => /offline/.test(document.getElementById('status').textContent)", timeout=9000)
    phone.wait_for_function("() => document.getElementById('status').textContent === 'connected'", timeout=30_000)


def test_the_luck_report_at_the_end_of_a_game(browser: Any, live: LiveBoard) -> None:
    from conquista.bots.simulate import play_game
    from conquista.dice.luck import luck_report
    from conquista.rules.mapdata import load_map
    from conquista.rules.rulesets import load_ruleset

    finished = play_game(load_ruleset("italian"), load_map(), 3, ["greedy"], seed=7).game
    assert finished is not None and finished.over
    report = luck_report(finished)
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live.service.url)
    colour = live.do(lambda: live.table.game.rules.colours[0])
    claim_seat(live, phone, colour)
    board = browser.new_context().new_page()
    board.goto(live.service.url + "board")
    live.do(lambda: live.table.referee.reset(finished, live.table.clock.now(), play=False))
    for page in (phone, board):
        page.wait_for_selector("#luck:not(.hidden) tr[data-seat]", timeout=WAIT_MS)
        text = page.inner_text("#luck")
        for p in report.players:
            row = page.inner_text(f"#luck tr[data-seat='{p.seat}']")
            assert row.split("\t")[1].startswith(str(p.lost)) and f"{float(p.expected_lost):.1f}" in row
            assert p.words() in text
        # Every mission revealed: in the report on a phone, in each player's panel on the TV (issue 40).
        assert all(m in page.inner_text("body") for m in report.missions) and report.verdict in text
    fits(phone)


def test_the_set_up_form_fits_a_finger_and_nothing_is_missing(browser: Any) -> None:
    """The host's set-up controls are at least 44 px tall (a fingertip), and loading the page asks for nothing
    the server does not have (the favicon included)."""
    import random

    from conquista.app.host_setup import HostSetUp
    from conquista.dice.sources import SeededDice

    live = LiveBoard(first_seat_hosts=True)

    def plain() -> tuple[random.Random, SeededDice, int]:
        rng = random.Random(3)
        return rng, SeededDice(rng=rng), 3

    live.companion.new_game = HostSetUp(None, live.table.game.map, plain=plain)
    live.start()
    try:
        context = browser.new_context(**PHONE)
        host = context.new_page()
        failed: list[str] = []
        host.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        host.goto(live.service.url)
        claim_seat(live, host, live.do(lambda: live.table.game.rules.colours[0]))
        host.wait_for_selector("#new-game:not(.hidden) #new-seats select", timeout=WAIT_MS)
        heights = host.eval_on_selector_all(
            "#new-game select, #new-game input[type=number], #new-game button, #new-game label.option, "
            "#host > button, #buttons button, .speech label, .speech select",
            "nodes => nodes.map(n => [n.id || n.textContent.trim().slice(0, 30), n.getBoundingClientRect().height])")
        assert len(heights) >= 15
        small = [(name, h) for name, h in heights if h < 44]
        assert not small, f"controls under 44 px: {small}"
        fits(host)
        icon = context.request.get(live.service.url + "favicon.ico")
        assert icon.status == 200 and icon.headers["content-type"].startswith("image/svg")
        assert not failed, failed
    finally:
        live.stop()


def test_plus_repeats_while_held_and_all_places_the_rest(browser: Any, live: LiveBoard) -> None:
    player = finish_setup(live)
    game = live.do(lambda: live.table.game)
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live.service.url)
    claim_seat(live, phone, game.rules.colours[player])
    mine = live.do(lambda: game.map.id(game.owner.index(player)))
    live.do(lambda: live.table.referee.reset(edited(live.table.game, pool=20), live.table.clock.now()))
    live.do(lambda: live.table.tap(mine))                   # + and "all" add to the territory placed on last
    pool = live.do(lambda: live.table.game.pool)
    assert pool == 19
    phone.wait_for_function(f"() => document.getElementById('counts').textContent.includes('to place: {pool}')",
                            timeout=WAIT_MS)
    plus = phone.locator("#buttons [data-turn='1']")
    plus.dispatch_event("pointerdown")
    phone.wait_for_function(f"() => !document.getElementById('counts').textContent.includes('to place: {pool - 1}')"
                            f" && !document.getElementById('counts').textContent.includes('to place: {pool}')",
                            timeout=WAIT_MS)                # held: more than the one a tap adds
    plus.dispatch_event("pointerup")
    left = live.do(lambda: live.table.game.pool)
    assert 0 < left <= pool - 2
    phone.click("#buttons [data-all]")
    deadline = time.monotonic() + 10
    while live.do(lambda: live.table.game.pool) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live.do(lambda: live.table.game.pool) == 0


def test_a_script_that_loads_late_still_hears_the_first_frames(browser: Any, live: LiveBoard) -> None:
    """speech.js loads after the script that opens the socket: held back here, so that the map and the first view
    would arrive before it runs, it still announces the next roll (the socket opens once every script has run)."""
    finish_setup(live)
    board = browser.new_context().new_page()

    def late(route: Any) -> None:
        time.sleep(1.0)   # the page's other scripts have run and the socket would have had its first frames
        route.continue_()

    board.route("**/static/speech.js", late)
    board.goto(live.service.url + "board")
    board.wait_for_selector("#announce", state="attached", timeout=WAIT_MS)
    board.wait_for_function("() => document.getElementById('turn').textContent.length > 0", timeout=WAIT_MS)
    attack_once(live)
    board.wait_for_function("() => document.getElementById('announce').textContent.includes(' attacks ')",
                            timeout=WAIT_MS)


def test_a_phone_watching_bots_rebuilds_its_public_and_seat_views_from_differences(browser: Any) -> None:
    board = LiveBoard(players=4, seed=9, bots=frozenset({0, 1, 2, 3}))
    board.table.think_time = 0.3
    board.start()
    try:
        token = board.companion.seats.grant(0).token     # seat 0's private view, though a bot plays it
        page = browser.new_context(viewport={"width": WIDTH, "height": 844}).new_page()
        page.add_init_script("""window.__diffs = {public_diff: 0, seat_diff: 0}; window.__views = {};
            const Native = window.WebSocket;
            window.WebSocket = function (...args) {
                const ws = new Native(...args);
                ws.addEventListener('message', (e) => {
                    const type = JSON.parse(e.data).type;
                    if (type in __diffs) __diffs[type] += 1; });
                return ws; };
            window.WebSocket.OPEN = Native.OPEN;
            document.addEventListener('conquista-frame', (e) => { window.__views[e.detail.type] = e.detail.view; });""")
        page.goto(board.service.url + f"#t={token}")
        page.wait_for_selector("#title .swatch", timeout=WAIT_MS)
        time.sleep(20)
        got = page.evaluate("() => window.__diffs")
        assert got["public_diff"] > 5 and got["seat_diff"] > 5, got
        # The views the page rebuilt are the board's own, exactly: read when no move comes between the two reads.
        for _ in range(50):
            latest = board.companion.latest
            assert latest is not None
            page.wait_for_timeout(100)
            if board.companion.latest is latest:
                mine = page.evaluate("() => window.__views")
                if board.companion.latest is latest and mine["public"] == json.loads(latest.public) \
                        and mine["seat"] == json.loads(latest.seats[0]):
                    break
        else:
            pytest.fail("the phone's views never matched the board's")
        fits(page)
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/phone-diffs-bots-390x844.png")
    finally:
        board.stop()
