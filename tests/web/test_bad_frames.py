"""Hostile screens on the wire (issue 21 §3, Starlette's TestClient): a message nested 20,000 deep gets an error
frame and the socket stays up; a bad message is echoed only as a short escaped excerpt; a screen that does not read
its frames has a bounded queue and is closed when it next speaks."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from conquista.web.messages import MAX_MESSAGE
from tests.web.conftest import ORIGIN, Served, until
from tests.web.test_server import hello

pytestmark = pytest.mark.timeout(30)

DEEP = 20_000


@pytest.mark.parametrize("text", [
    "[" * DEEP + "]" * DEEP,
    '{"type": "claim", "seat": ' + "[" * DEEP + "]" * DEEP + "}",
    '{"a":' * (DEEP // 2) + "1" + "}" * (DEEP // 2),
])
def test_a_deeply_nested_message_gets_an_error_frame_and_the_socket_stays_up(served: Served, text: str) -> None:
    assert len(text) < MAX_MESSAGE
    with served.client.websocket_connect("/ws", headers=ORIGIN) as ws:
        hello(ws)
        ws.send_text(text)
        assert "nested too deeply" in until(ws, "error")["error"]
        ws.send_json({"type": "claim", "seat": 0})
        served.board.step_when_queued()
        assert until(ws, "claim")["state"] == "asked"   # still served: the error ended nothing
    assert served.hub.connections == {}


@pytest.mark.parametrize("message", [
    {"type": "claim", "seat": 0, "<script>" + "\n\x00" * 20_000: 1},
    {"type": "<img src=x>" + "x" * 60_000},
    {"type": "new_game", "rules": "italian", "players": 3, "bots": {"9" * 50_000: "greedy"}},
    {"type": "claim", "seat": 0, "zz": 1, "type2": 2},
])
def test_a_bad_message_is_echoed_only_as_a_short_escaped_excerpt(served: Served, message: dict[str, Any]) -> None:
    with served.client.websocket_connect("/ws", headers=ORIGIN) as ws:
        hello(ws)
        if message["type"] == "new_game":  # only a seated host may send it: the excerpt is then tested seated
            served.hub.connections[max(served.hub.connections)].seat = served.board.companion.host_seat
        ws.send_text(json.dumps(message))
        error = until(ws, "error")["error"]
    assert len(error) < 200, error
    assert "\n" not in error and "\x00" not in error


def test_a_screen_that_does_not_read_is_bounded_and_then_closed(served: Served,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import conquista.web.server as server

    monkeypatch.setattr(server, "MAX_FRAMES", 5)

    async def never_writes(_self: server.Connection) -> None:  # a screen whose socket buffer is full
        await asyncio.Event().wait()

    monkeypatch.setattr(server.Connection, "write_loop", never_writes)
    opened: list[server.Connection] = []
    open_connection = served.hub.open
    monkeypatch.setattr(served.hub, "open", lambda ws: opened.append(open_connection(ws)) or opened[-1])
    bad = json.dumps({"type": "claim", "seat": 0, "x" * 60_000: 1})
    with served.client.websocket_connect("/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello"})
        for _ in range(server.MAX_FRAMES + 3):
            ws.send_text(bad)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()                        # nothing was written: the first thing it gets is the close
        assert closed.value.code == 1008
    (conn,) = opened
    assert conn.stalled and len(conn.frames) <= server.MAX_FRAMES
    assert served.hub.connections == {}
