from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from conquista.web.server import Hub, create_app
from tests.web.helpers import Board, make_board
from tests.web.test_browser import ARGS, CHROMIUM, _missing

ORIGIN = {"origin": "http://testserver"}


class Served:
    def __init__(self, board: Board, client: TestClient, hub: Hub) -> None:
        self.board = board
        self.client = client
        self.hub = hub


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, one per test module (skipped without it, failed under CI)."""
    why = _missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests need Chromium under CI: {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def served() -> Iterator[Served]:
    board = make_board(record=False)
    app, hub = create_app(board.companion, ["testserver"], "http://127.0.0.1:8080/")
    with TestClient(app) as client:
        board.step()
        yield Served(board, client, hub)


def until(ws: Any, kind: str, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Read frames until one of `kind` (pytest-timeout ends a test that waits for a frame that never comes)."""
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if seen is not None:
            seen.append(frame)
        if frame["type"] == kind:
            return frame
