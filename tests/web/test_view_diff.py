"""The public view sent as differences (issue 40, web/view_diff.py): applied one after another to the first whole
view, the differences of a bots' game rebuild every view exactly, and weigh less than the views whole."""

from __future__ import annotations

import json
from itertools import pairwise

from conquista.table.gestures import Tap
from conquista.web.companion import Companion
from conquista.web.seats import SeatBook
from conquista.web.view_diff import apply, diff, diff_text
from conquista.web.wire import Snapshot
from conquista_sim.table import SimulatedTable
from tests.web.conftest import ORIGIN, Served, until


def _bot_views(seconds: float) -> list[str]:
    bots = frozenset({0, 1, 2, 3})
    table = SimulatedTable("italian", 4, 9, bots, think_time=0.2)
    companion = Companion(SeatBook(4, bots))
    views: list[str] = []
    companion.send = lambda item: views.append(item.public) if isinstance(item, Snapshot) else None
    table.add_phones(companion)
    table.advance(seconds)
    table.close()
    return views


def test_the_differences_of_a_bots_game_rebuild_every_view_exactly_and_weigh_less() -> None:
    views = _bot_views(60.0)
    assert len(views) > 50
    rebuilt = json.loads(views[0])
    whole = sent = 0
    for before, after in pairwise(views):
        text = diff_text(before, after)
        whole += len(after)
        if text is None:                     # the whole view is shorter: sent whole
            rebuilt = json.loads(after)
            sent += len(after)
        else:
            rebuilt = apply(rebuilt, json.loads(text))
            sent += len(text)
        assert rebuilt == json.loads(after)
    assert sent < whole / 4, (sent, whole)


def test_each_kind_of_change_is_rebuilt() -> None:
    old = {"log": ["a", "b", "c", "d"], "seats": [{"n": 1}, {"n": 2}], "gone": 1, "dice": [6, 5], "x": None}
    new = {"log": ["c", "d", "e"], "seats": [{"n": 1}, {"n": 3, "m": 0}], "dice": [4], "x": {"y": 1}, "z": []}
    ops = diff(old, new)
    assert apply(old, ops) == new
    assert ["<", ["log"], 2, ["e"]] in ops and ["-", ["gone"]] in ops and ["=", ["seats", 1, "n"], 3] in ops
    assert old["log"] == ["a", "b", "c", "d"]       # the old view is left as it was
    assert diff(new, new) == [] and apply(old, [["=", [], new]]) == new


def test_a_screen_that_asks_gets_the_whole_view_then_differences_and_a_reconnect_starts_whole(
        served: Served) -> None:
    board = served.board
    for _ in range(2):      # a reconnect is a new socket: the whole view again first
        with served.client.websocket_connect("/ws", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "diffs": True})
            view = until(ws, "public")["view"]
            for _ in range(2):      # an army placed: a count, the log and the status change
                game = board.referee.game
                board.referee.step(Tap(game.owner.index(game.to_move)), board.now)
                board.step()
                frame = until(ws, "public_diff")
                view = apply(view, frame["ops"])
                assert view == served.client.get("/api/public").json()


def test_a_seated_phone_gets_its_seat_view_as_differences_too_and_whole_again_on_reconnect(
        served: Served) -> None:
    board = served.board
    game = board.referee.game
    seat = game.owner.index(game.to_move)
    token = board.companion.seats.grant(seat).token
    for _ in range(2):      # a reconnect is a new socket: every view whole again first
        with served.client.websocket_connect("/ws", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "token": token, "diffs": True})
            view = until(ws, "seat")["view"]
            for _ in range(2):      # an army placed: the seat's counts and its turn change
                game = board.referee.game
                board.referee.step(Tap(game.owner.index(game.to_move)), board.now)
                board.step()
                frame = until(ws, "seat_diff")
                view = apply(view, frame["ops"])
                latest = board.companion.latest
                assert latest is not None and view == json.loads(latest.seats[seat])


def test_the_qr_code_is_made_once_and_answered_304_while_the_browser_holds_it(served: Served) -> None:
    first = served.client.get("/qr.svg")
    etag = first.headers["etag"]
    assert first.status_code == 200 and first.content.startswith(b"<?xml")
    assert first.headers["cache-control"] == "no-cache"
    again = served.client.get("/qr.svg", headers={"if-none-match": etag})
    assert again.status_code == 304 and not again.content and again.headers["etag"] == etag
    assert served.client.get("/qr.svg", headers={"if-none-match": '"other"'}).status_code == 200
