"""The server on the wire (Starlette's TestClient): origin and host checks, tokens, bad messages, takeover."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from conquista.table.colours import mark, screen_hex
from conquista.web.messages import MAX_MESSAGE
from tests.rules.helpers import edited
from tests.web.conftest import ORIGIN, Served, until

pytestmark = pytest.mark.timeout(30)


def claim(served: Served, ws: Any, seat: int) -> str:
    ws.send_json({"type": "claim", "seat": seat})
    served.board.step_when_queued()
    assert until(ws, "claim")["state"] == "asked"
    served.board.grant()
    granted = until(ws, "granted")
    assert granted["seat"] == seat
    token: str = granted["token"]
    return token


def hello(ws: Any, token: str | None = None) -> None:
    ws.send_json({"type": "hello"} if token is None else {"type": "hello", "token": token})
    until(ws, "map")


@pytest.mark.parametrize("headers", [{}, {"origin": "http://evil.example"}, {"origin": "null"},
                                     {"origin": "http://testserver.evil.example"}])
def test_websocket_from_another_origin_is_refused(served: Served, headers: dict[str, str]) -> None:
    with pytest.raises(WebSocketDisconnect) as refused, served.client.websocket_connect("/ws", headers=headers):
        pass
    assert refused.value.code == 1008


def test_unknown_host_is_refused_against_dns_rebinding(served: Served) -> None:
    assert served.client.get("/api/public", headers={"host": "rebind.example"}).status_code == 400
    with pytest.raises(WebSocketDisconnect), served.client.websocket_connect(
            "/ws", headers={"host": "rebind.example", "origin": "http://rebind.example"}):
        pass


def test_pages_send_no_referrer_and_game_views_are_not_kept(served: Served) -> None:
    for path in ("/", "/board", "/api/public", "/static/phone.js", "/qr.svg"):
        response = served.client.get(path)
        assert response.status_code == 200, path
        assert response.headers["referrer-policy"] == "no-referrer"
        kept = path != "/api/public"     # the QR code is kept and revalidated by its ETag (issue 40)
        assert response.headers["cache-control"] == ("no-cache" if kept else "no-store"), path


def test_static_files_are_compressed_and_revalidated(served: Served) -> None:
    """The map goes out gzipped; a reload asks with its ETag and is answered 304 without a body."""
    plain = served.client.get("/static/classic-42.svg", headers={"accept-encoding": "identity"})
    packed = served.client.get("/static/classic-42.svg", headers={"accept-encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.content == plain.content           # httpx unpacks it: the same map
    assert packed.num_bytes_downloaded < len(plain.content) / 2     # what went over the wire
    etag = packed.headers["etag"]
    again = served.client.get("/static/classic-42.svg", headers={"if-none-match": etag, "accept-encoding": "gzip"})
    assert again.status_code == 304 and not again.content
    for page in ("/", "/board"):
        tag = served.client.get(page).headers["etag"]
        assert served.client.get(page, headers={"if-none-match": tag}).status_code == 304
    view = served.client.get("/api/public", headers={"accept-encoding": "gzip"})
    assert view.headers["cache-control"] == "no-store" and "etag" not in view.headers


def test_api_public_lists_the_board_without_secrets(served: Served) -> None:
    game = served.board.referee.game
    view = served.client.get("/api/public").json()
    assert len(view["territories"]) == game.map.size
    colour = game.rules.colours[game.owner[3]]
    assert view["territories"][3] == {"id": game.map.id(3), "owner": game.owner[3], "colour": colour,
                                      "rgb": screen_hex(colour), "mark": mark(colour), "armies": game.armies[3]}
    assert view["neutral"] is None  # no neutral army but in the duel
    assert {"current", "phase", "pending", "dice", "log", "clock"} <= set(view)
    assert [s["cards"] for s in view["seats"]] == [len(h) for h in game.hands]
    text = json.dumps(view)
    assert not any(m in text for m in served.board.missions())


def test_qr_encodes_the_join_url(served: Served) -> None:
    response = served.client.get("/qr.svg")
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")


def test_claim_grant_reconnect_and_takeover(served: Served) -> None:
    with served.client.websocket_connect("/ws", headers=ORIGIN) as first:
        hello(first)
        token = claim(served, first, 1)
        view = until(first, "seat")["view"]
        assert view["seat"] == 1 and view["mission"]["text"] == served.board.missions()[1]
        with served.client.websocket_connect("/ws", headers=ORIGIN) as second:
            hello(second, token)
            assert until(second, "seat")["view"]["seat"] == 1      # a reconnect gets the full view
            assert until(first, "taken_over")["seat"] == 1
            first.send_json({"type": "press", "button": "next"})
            assert "seated" in until(first, "error")["error"]


def test_bad_token_gets_an_error_and_only_the_public_view(served: Served) -> None:
    with served.client.websocket_connect("/ws", headers=ORIGIN) as ws:
        hello(ws, "not-a-real-token")
        error = until(ws, "error")
        # The board's grant gesture is ROLL and NEXT together (`grant` in the simulator), never ROLL alone.
        assert error["code"] == "bad_token" and "ROLL and NEXT are pressed together" in error["error"], error
        assert until(ws, "public")["view"]["territories"]
        ws.send_json({"type": "press", "button": "roll"})
        assert "seated" in until(ws, "error")["error"]
    assert served.board.companion.inbox.empty()


BAD = [
    "not json",
    "[1, 2]",
    json.dumps({"type": "launch"}),
    json.dumps({"type": "claim", "seat": "one"}),
    json.dumps({"type": "claim", "seat": 1, "extra": True}),
    json.dumps({"type": "press", "button": "self-destruct"}),
    json.dumps({"type": "turn", "steps": 10_000}),
    json.dumps({"type": "tap", "territory": "atlantis"}),
    json.dumps({"type": "trade", "cards": [1, 2]}),
    json.dumps({"type": "pause", "paused": True}),
    json.dumps({"type": "claim", "seat": 1, "pad": "x" * (MAX_MESSAGE + 1)}),
]


def test_bad_messages_get_an_error_frame_and_change_nothing(served: Served) -> None:
    board = served.board
    with served.client.websocket_connect("/ws", headers=ORIGIN) as ws:
        hello(ws)
        token = claim(served, ws, board.referee.game.current)
        digest = board.referee.game.digest()
        for text in BAD:
            ws.send_text(text)
            error = until(ws, "error")["error"]
            assert error, text
        ws.send_bytes(b"\x00\x01")
        assert "text" in until(ws, "error")["error"]
    assert board.companion.inbox.empty()
    board.step()
    assert board.referee.game.digest() == digest and token


def test_first_message_must_be_a_hello(served: Served) -> None:
    with served.client.websocket_connect("/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "claim", "seat": 0})
        assert "hello" in until(ws, "error")["error"]
    assert served.board.companion.inbox.empty()


def test_a_flood_is_told_once_then_closed(served: Served) -> None:
    from conquista.web.server import FLOOD_CLOSE, RATE_BURST

    with served.client.websocket_connect("/ws", headers=ORIGIN) as ws:
        hello(ws)
        for _ in range(int(RATE_BURST) + 3 * FLOOD_CLOSE):   # enough to close even with a few refills
            ws.send_json({"type": "claim", "seat": 0})
        frames: list[dict[str, Any]] = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                frames.append(ws.receive_json())
        assert closed.value.code == 1008
    # Once per flood (the bucket refills a little while the flood is sent, on a slow machine more than once).
    errors = [f["error"] for f in frames if f["type"] == "error"]
    assert set(errors) == {"too many messages: slow down"} and len(errors) <= 10
    assert served.board.companion.inbox.qsize() < 100                 # what was refused never reached the board


def test_a_seat_acts_only_for_itself(served: Served) -> None:
    board = served.board
    game = board.referee.game
    other = (game.current + 1) % game.players
    with served.client.websocket_connect("/ws", headers=ORIGIN) as ws:
        hello(ws)
        claim(served, ws, other)
        before = len(game.log)
        ws.send_json({"type": "tap", "territory": game.map.id(game.owner.index(other))})
        ws.send_json({"type": "press", "button": "next"})
        ws.send_json({"type": "pause", "paused": True})     # not the host (the game came from the command line)
        assert "host" in until(ws, "error")["error"]
    board.step()
    assert len(board.referee.game.log) == before and not board.referee.fault


def test_spectator_frames_never_hold_a_mission_a_card_or_a_token(served: Served) -> None:
    board = served.board
    frames: list[dict[str, Any]] = []
    with served.client.websocket_connect("/ws", headers=ORIGIN) as spectator, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as phone:
        hello(spectator)
        hello(phone)
        token = claim(served, phone, 0)
        board.referee.reset(edited(board.referee.game, hands=[[5, 6, 7], [], []]), 0.0)
        me = board.referee.game.current
        board.step()
        phone.send_json({"type": "press", "button": "next"})
        board.step_when_queued()
        spectator.send_json({"type": "claim", "seat": 2})   # a marker: every frame before its answer was read
        board.step_when_queued()
        until(spectator, "claim", frames)
    text = json.dumps(frames)
    assert token not in text
    assert {f["type"] for f in frames} <= {"map", "public", "claim"}
    assert not any(m in text for m in board.missions())
    assert not any(word in text.lower() for word in ("infantry", "cavalry", "cannon", "jolly"))
    assert me >= 0


def test_no_server_means_no_public_view_yet() -> None:
    from conquista.web.server import create_app
    from tests.web.helpers import make_board

    board = make_board(record=False)
    app, _hub = create_app(board.companion, ["testserver"])
    with TestClient(app) as client:
        assert client.get("/api/public").status_code == 503


def test_a_remote_link_goes_only_to_the_host(served: Served) -> None:
    board = served.board
    board.companion.seats.first_seat_hosts = True
    with served.client.websocket_connect("/ws", headers=ORIGIN) as host, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as other:
        hello(host)
        hello(other)
        claim(served, host, 0)
        claim(served, other, 1)
        other.send_json({"type": "remote", "seat": 2})
        assert "host" in until(other, "error")["error"]
        host.send_json({"type": "remote", "seat": 2})
        board.step_when_queued()
        link = until(host, "remote_link")
        assert link["seat"] == 2 and board.companion.seats.seat_of(link["token"]) == 2
        with served.client.websocket_connect("/ws", headers=ORIGIN) as remote:
            hello(remote, link["token"])
            assert until(remote, "seat")["view"]["seat"] == 2


def test_a_screen_that_never_says_hello_is_closed(served: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    import conquista.web.server as server

    monkeypatch.setattr(server, "HELLO_TIMEOUT_S", 0.2)
    with served.client.websocket_connect("/ws", headers=ORIGIN) as ws, pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 1008
