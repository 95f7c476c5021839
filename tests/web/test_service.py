"""The real server (uvicorn in a thread, the `websockets` library): message cap, no compression, takeover."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from conquista.web.messages import MAX_MESSAGE
from conquista.web.service import WebAddress, WebService
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
