"""The terminal's input while the board keeps running (sim with the web app): simulated time follows real time
until a line comes, and the end of input ends the prompt as input() would."""

from __future__ import annotations

import threading

import pytest

from conquista_sim.live import LiveInput
from conquista_sim.table import SimulatedTable


def test_the_board_runs_while_the_terminal_waits() -> None:
    typed = threading.Event()
    lines = iter(["roll"])

    def slow_read(prompt: str) -> str:
        typed.wait(0.3)            # nobody types for a while
        return next(lines)

    with SimulatedTable("italian", 3, seed=1) as table:
        before = table.clock.now()
        read = LiveInput(table, slow_read)
        assert read("> ") == "roll"
        assert table.clock.now() - before >= 0.2


def test_end_of_input_is_eof() -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    with SimulatedTable("italian", 3, seed=1) as table:
        read = LiveInput(table, closed)
        with pytest.raises(EOFError):
            read("> ")
