"""The join URL's QR code on the simulator's terminal view: drawn when the terminal has room, and it encodes the
join URL (the modules read back from the screen are segno's `make_qr` of the URL, not a Micro QR)."""

from __future__ import annotations

import segno
from rich.console import Console

from conquista.web.qr import BORDER, from_lines, qr_lines
from conquista.web.service import qr_text
from conquista_sim import SimulatedTable
from conquista_sim.board_view import render
from conquista_sim.terminal import TerminalBoard

URL = "http://192.168.4.1:8080/"
CODE_CHARS = set("█▀▄ ")


def screen(table: SimulatedTable, width: int, height: int, url: str = URL) -> list[str]:
    console = Console(width=width, height=height, record=True, color_system=None)
    console.print(render(table, width, height, join_url=url))
    return console.export_text().splitlines()


def code_on(lines: list[str]) -> list[str]:
    """The QR code's lines as shown: the columns from the first full-block run of the code's width."""
    width = len(qr_lines(URL)[0])
    top = next(i for i, line in enumerate(lines) if "█" * width in line)
    column = lines[top].index("█" * width)
    return [line[column:column + width] for line in lines[top:top + len(qr_lines(URL))]]


def expected_modules(url: str) -> list[list[bool]]:
    code = segno.make_qr(url)
    assert not code.is_micro
    return [[bool(m) for m in row] for row in code.matrix_iter(border=BORDER)]


def test_the_terminal_code_is_the_join_url_s_qr_code() -> None:
    rows = from_lines(qr_lines(URL))
    want = expected_modules(URL)
    assert rows[:len(want)] == want and not any(any(row) for row in rows[len(want):])   # padding is light
    assert qr_text(URL).splitlines() == list(qr_lines(URL))


def test_a_large_terminal_shows_the_code_beside_the_board_with_the_url() -> None:
    with SimulatedTable("italian", 3, 1, bots=(1, 2)) as table:
        lines = screen(table, 200, 60)
        assert any(f"join from a phone: {URL}" in line for line in lines)
        shown = code_on(lines)
        assert all(set(line) <= CODE_CHARS for line in shown)
        assert from_lines(shown)[:len(expected_modules(URL))] == expected_modules(URL)
        assert len(lines) <= 60
        assert lines[1].startswith("│") and "█" in lines[1]                      # beside the map, not under it


def test_a_small_terminal_shows_only_the_url() -> None:
    with SimulatedTable("italian", 3, 1, bots=(1, 2)) as table:
        lines = screen(table, 80, 24)
        assert any(URL in line for line in lines)
        assert not any("█" * 20 in line for line in lines) and len(lines) <= 24


def test_a_tall_narrow_terminal_shows_the_code_under_the_board() -> None:
    with SimulatedTable("italian", 3, 1, bots=(1, 2)) as table:
        lines = screen(table, 134, 50)
        map_bottom = next(i for i, line in enumerate(lines) if line.startswith("╰"))
        shown = code_on(lines)
        top = next(i for i, line in enumerate(lines) if shown[0] in line)
        assert top > map_bottom and len(lines) <= 50


def test_no_url_no_code() -> None:
    with SimulatedTable("italian", 3, 1, bots=(1, 2)) as table:
        assert not any("join from a phone" in line for line in screen(table, 200, 60, url=""))


def test_the_interactive_board_draws_the_code_while_serving() -> None:
    with SimulatedTable("italian", 3, 1, bots=(1, 2)) as table:
        console = Console(width=200, height=60, record=True, color_system=None)
        TerminalBoard(table, console, speed=0, join_url=URL).draw()
        want = expected_modules(URL)
        assert from_lines(code_on(console.export_text().splitlines()))[:len(want)] == want
