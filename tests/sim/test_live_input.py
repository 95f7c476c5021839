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


def test_a_phones_command_wakes_the_board_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the pass that lets simulated time follow real time a minute away, a phone's trade is still taken and
    the terminal redrawn before anyone types: the companion's wake-up ends the wait."""
    from conquista.rules.events import Phase
    from conquista.web.companion import Companion, SeatTrade
    from conquista.web.seats import SeatBook
    from conquista_sim import live
    from tests.rules.helpers import position

    monkeypatch.setattr(live, "PASS_S", 60.0)
    game = position("italian", 3, phase=Phase.REINFORCE, hands={0: [0, 1, 2, 3, 4]})
    with SimulatedTable(game=game) as table:
        companion = Companion(SeatBook(3))
        companion.seats.grant(0)
        table.add_phones(companion)
        cards = game.valid_trades(0)[0]
        redrawn = threading.Event()

        def slow_read(prompt: str) -> str:
            companion.submit(SeatTrade(0, tuple(cards)))
            redrawn.wait(10)            # set by the redraw after the trade; without the wake-up, a minute away
            return "quit"

        read = LiveInput(table, slow_read, redraw=redrawn.set)
        companion.wake = read.wake
        before = table.clock.now()
        assert read("> ") == "quit"
        assert redrawn.is_set() and not game.valid_trades(0)
        assert table.clock.now() == before          # no simulated time passed: the wake-up alone did it
