"""The real server (uvicorn in a thread, the `websockets` library): message cap, no compression, takeover."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from conquista.web.messages import MAX_MESSAGE
from conquista.web.service import WebAddress, WebService, bind
from tests.web.helpers import Board, make_board

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def running() -> Iterator[tuple[Board, WebService]]:
    board = make_board(record=False)
    with WebService(board.companion, WebAddress("127.0.0.1", 0, explicit=True)) as service:
        service.start()
        service.wait_ready()
        board.step()
        yield board, service


def ws_url(service: WebService) -> str:
    return f"ws://127.0.0.1:{service.port}/ws"


def test_server_answers_and_refuses_compression(running: tuple[Board, WebService]) -> None:
    board, service = running
    assert httpx.get(f"{service.url}api/public").json()["current"] == board.referee.game.current
    with connect(ws_url(service), origin=f"http://127.0.0.1:{service.port}") as ws:   # type: ignore[arg-type]
        assert ws.response is not None and "Sec-WebSocket-Extensions" not in ws.response.headers
        ws.send(json.dumps({"type": "hello"}))
        assert json.loads(ws.recv(timeout=5))["type"] == "map"


def test_a_message_over_64_kib_closes_the_connection(running: tuple[Board, WebService]) -> None:
    _board, service = running
    with connect(ws_url(service), origin=f"http://127.0.0.1:{service.port}",   # type: ignore[arg-type]
                 max_size=None) as ws:
        ws.send(json.dumps({"type": "hello"}))
        ws.recv(timeout=5)
        ws.send("x" * (MAX_MESSAGE + 10))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_wrong_origin_is_refused_at_the_handshake(running: tuple[Board, WebService]) -> None:
    _board, service = running
    with pytest.raises(Exception, match="403"), \
            connect(ws_url(service), origin="http://evil.example"):   # type: ignore[arg-type]
        pass


def test_the_installed_uvicorn_has_the_websocket_protocol_the_service_asks_for() -> None:
    import importlib
    import re
    import tomllib
    from importlib.metadata import version
    from pathlib import Path

    import uvicorn.config

    from conquista.web.service import WS_PROTOCOL

    module, _, name = uvicorn.config.WS_PROTOCOLS[WS_PROTOCOL].partition(":")
    assert getattr(importlib.import_module(module), name)
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text("utf-8"))
    floor = next(d for d in pyproject["project"]["dependencies"] if d.startswith("uvicorn"))
    wanted = tuple(int(n) for n in re.findall(r"\d+", floor))
    assert wanted >= (0, 35)          # websockets-sansio came in uvicorn 0.35
    assert tuple(int(n) for n in re.findall(r"\d+", version("uvicorn"))[:2]) >= wanted


def test_no_request_url_or_log_line_carries_the_seat_token(capfd: pytest.CaptureFixture[str],
                                                           caplog: pytest.LogCaptureFixture) -> None:
    """Through the real server, with every logger at DEBUG: the token travels only inside WebSocket frames."""
    import logging

    board = make_board(record=False)
    seen_paths: list[str] = []
    with caplog.at_level(logging.DEBUG), \
            WebService(board.companion, WebAddress("127.0.0.1", 0, explicit=True)) as service:
        service.start()
        service.wait_ready()
        board.step()
        hub = service.hub
        assert hub is not None
        origin = f"http://127.0.0.1:{service.port}"
        with connect(ws_url(service), origin=origin) as ws:   # type: ignore[arg-type]
            seen_paths.append(ws.request.path if ws.request is not None else "")
            ws.send(json.dumps({"type": "hello"}))
            ws.send(json.dumps({"type": "claim", "seat": 1}))
            board.step_when_queued()
            board.grant()
            token = ""
            while not token:
                frame = json.loads(ws.recv(timeout=5))
                token = frame.get("token", "") if frame["type"] == "granted" else ""
        with connect(ws_url(service), origin=origin) as again:   # type: ignore[arg-type]  # a reconnect
            seen_paths.append(again.request.path if again.request is not None else "")
            again.send(json.dumps({"type": "hello", "token": token}))
            while json.loads(again.recv(timeout=5))["type"] != "welcome":
                pass
        httpx.get(f"http://127.0.0.1:{service.port}/", timeout=5)
    out, err = capfd.readouterr()
    # The test's own client logs its frames at DEBUG (the token is in them, as on the wire); the server must not.
    server_side = [r for r in caplog.records if not r.name.startswith("websockets.client")]
    assert {r.name for r in server_side}, "nothing was logged: the check would prove nothing"
    logged = "\n".join(f"{record.name}: {record.getMessage()}" for record in server_side)
    assert token and seen_paths == ["/ws", "/ws"]
    assert token not in out and token not in err and token not in logged
    grant = board.companion.seats.grant(2)
    assert grant.token not in repr(grant) and "token" not in repr(grant)


def test_screens_connections_send_at_once_without_waiting_for_acks() -> None:
    """The server's socket is served as uvicorn serves it (the event loop's `create_server` on it): each accepted
    connection has TCP_NODELAY, or a screen's second view in a row would wait about 40 ms for a delayed ACK."""

    async def accepted_nodelay() -> int:
        listener = bind(WebAddress("127.0.0.1", 0, explicit=True))
        got: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def handle(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            got.set_result(writer.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(handle, sock=listener)
        async with server:
            _reader, writer = await asyncio.open_connection("127.0.0.1", listener.getsockname()[1])
            value = await asyncio.wait_for(got, 5)
            writer.close()
        return value

    assert asyncio.run(accepted_nodelay()) != 0
