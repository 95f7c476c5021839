"""The pages as served: every id once per page, and the board's own lines outside the seat panel (which is hidden
on the public board), so what board.js writes there is seen."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from conquista.web.server import _static
from tests.web.conftest import Served

pytestmark = pytest.mark.timeout(30)

VOID = {"meta", "link", "img", "input", "br", "hr", "source"}


class Ids(HTMLParser):
    """Each element's id with the ids of the elements around it."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.found: list[tuple[str, tuple[str, ...]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        own = dict(attrs).get("id") or ""
        if own:
            self.found.append((own, tuple(self.stack)))
        if tag not in VOID:
            self.stack.append(own)

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack:
            self.stack.pop()


def ids_of(html: str) -> Ids:
    parser = Ids()
    parser.feed(html)
    return parser


@pytest.mark.parametrize("path", ["/", "/board"])
def test_every_id_is_on_its_page_once(served: Served, path: str) -> None:
    found = [own for own, _around in ids_of(served.client.get(path).text).found]
    assert found and len(found) == len(set(found)), sorted(own for own in found if found.count(own) > 1)


def test_the_board_writes_its_turn_lines_outside_the_hidden_seat_panel(served: Served) -> None:
    around = dict(ids_of(served.client.get("/board").text).found)
    script = open(_static("board.js"), encoding="utf-8").read()
    # "you" belongs to the seat panel: board.js writes it only for a remote seat, when #play is shown; "clock" is
    # made by board.js itself inside #turn.
    written = set(re.findall(r'getElementById\("([\w-]+)"\)', script)) - {"you", "clock"}
    assert {"turn", "board-pending", "message"} <= written
    for own in written:
        assert own in around, f"board.js writes #{own}, which board.html lacks"
        assert "play" not in around[own], f"board.js writes #{own} inside #play, hidden on the public board"
