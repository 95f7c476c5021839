"""The terminal where the table's inputs meet (issue problems 7 and 8): it follows what phones do while nobody
types, the end of a game stays on screen and ROLL opens the menu, `quit` says where the game is saved, and the
prompt is back while the bots play."""

from __future__ import annotations

import threading
from pathlib import Path

from rich.console import Console

from conquista.app.setup import NewGameAtBoard
from conquista.journal import GameJournal
from conquista.rules.events import Phase
from conquista.web.companion import Companion, SeatTrade
from conquista.web.seats import SeatBook
from conquista_sim import SimulatedTable
from conquista_sim.live import LiveInput
from conquista_sim.terminal import TerminalBoard
from tests.app.test_setup_menu_app import deal
from tests.rules.helpers import position
from tests.sim.test_terminal import play


def test_the_terminal_follows_a_phones_trade_while_nobody_types() -> None:
    game = position("italian", 3, phase=Phase.REINFORCE, hands={0: [0, 1, 2, 3, 4]})
    with SimulatedTable(game=game) as table:
        companion = Companion(SeatBook(3))
        companion.seats.grant(0)
        table.add_phones(companion)
        cards = game.valid_trades(0)[0]
        assert "a set can be traded" in table.status().pending
        drawn: list[str] = []
        typed = threading.Event()

        def slow_read(prompt: str) -> str:
            companion.submit(SeatTrade(0, tuple(cards)))
            typed.wait(0.4)
            return "quit"

        read = LiveInput(table, slow_read, redraw=lambda: drawn.append(table.status().pending))
        assert read("> ") == "quit"
        assert drawn and "a set can be traded" not in drawn[-1]


def test_the_result_stays_and_roll_opens_the_menu_for_the_next_game() -> None:
    with SimulatedTable("classic", 2, seed=3, bots=(0, 1), think_time=0.2) as table:
        table.play_bots_until_over()
        assert table.game.over
        table.bots = ()
        NewGameAtBoard(deal, table.bot_seats, table.router, rules="italian", players=3).offer_after_game(table.referee,
                                                                                          lambda: None)
        out, _, _ = play(table, ["roll", "quit"], speed=0)
        assert "wins" in out
        assert table.referee.menu is not None                  # ROLL opened the set-up menu: nothing exited


def test_quit_says_where_the_game_is_saved_and_how_to_resume_it(tmp_path: Path) -> None:
    journal = GameJournal(tmp_path)
    with SimulatedTable("italian", 3, seed=1, journal=journal) as table:
        game = table.game
        table.tap(game.map.id(game.owner.index(game.current)))
        journal.flush()
        out, _, _ = play(table, ["quit"], width=200, speed=0)
        assert str(journal.path) in out.replace("\n", "") and f"--resume {journal.game_id}" in out
    journal.close()


def test_with_live_input_the_prompt_is_back_while_the_bots_play() -> None:
    for live, bot_still_to_move in ((False, False), (True, True)):
        with SimulatedTable("italian", 3, seed=4, bots=(0, 1), think_time=0.5) as table:
            assert table.game.to_move == 0                      # a bot's turn
            console = Console(width=80, height=24, record=True, color_system=None)
            board = TerminalBoard(table, console, speed=0, live=live)
            assert board.handle("help") is True
            board.handle("alaska")
            # Live: the command returned at once and the bots play on while the prompt waits (`quit` acts now).
            assert (table.game.to_move == 0) is bot_still_to_move
            assert board.handle("quit") is False
