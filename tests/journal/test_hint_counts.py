"""The hints each seat asked for survive a power cut (issue 31 §3): the journal keeps them in its `hints` table, a
resumed game's luck report still counts the hints asked before it, a journal written before hints resumes with none,
and a count the journal never writes is left out by name."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from conquista.app.build import build_table, follow_journal
from conquista.dice.luck import luck_report
from conquista.dice.sources import SeededDice
from conquista.hardware.profile import load_profile
from conquista.journal import JOURNAL_NAME, GameJournal
from conquista.journal.hint_counts import read_hint_counts
from conquista.table.gestures import Tap
from conquista.table.referee import Referee
from conquista.web.companion import SeatHint
from conquista_sim.devices import MemoryStrip
from tests.web.helpers import Board, make_board


def ask(board: Board, connection: int) -> None:
    """The seat to move asks a hint from its phone, and gets it (hard searches in its own thread)."""
    seat = board.referee.game.to_move
    assert isinstance(seat, int)
    board.companion.submit(SeatHint(seat, connection))
    assert board.step_until_answered(connection).given


def place(board: Board) -> None:
    """The seat to move puts an army on one of its territories, at the board."""
    game = board.referee.game
    board.now += 0.1
    board.referee.step(Tap(game.owner.index(game.current)), board.now)
    board.step()


def played_with_hints(data_dir: Path) -> tuple[int, dict[int, int]]:
    """A game journaled from its deal, in which seats ask hints between placements; the power goes (the journal
    is only closed, as the board's loop never ends cleanly). Returns the game's id and the counts."""
    board = make_board()
    journal = GameJournal(data_dir)
    board.journal_to(journal)
    ask(board, 5)
    place(board)
    ask(board, 5)
    place(board)
    ask(board, 6)
    asked = dict(board.referee.hints_asked)
    assert sum(asked.values()) == 3
    game_id = journal.game_id
    assert game_id is not None
    journal.close()
    return game_id, asked


def resumed(data_dir: Path, game_id: int) -> tuple[Referee, GameJournal]:
    """`play --resume`'s way: the journal rebuilds the game, and the table is built to follow it."""
    journal = GameJournal(data_dir)
    game = journal.resume(game_id)
    profile = load_profile(None, game.map)
    table = build_table(game, profile, SeededDice(1), MemoryStrip.from_profile(profile), journal=journal)
    return table.referee, journal


def test_a_resumed_games_luck_report_counts_the_hints_asked_before(tmp_path: Path) -> None:
    game_id, asked = played_with_hints(tmp_path)
    referee, journal = resumed(tmp_path, game_id)
    assert referee.hints_asked == asked
    lines = luck_report(referee.game, hints=referee.hints_asked).lines()
    colours = referee.game.rules.colours
    for seat, count in asked.items():
        assert f"  {colours[seat]} asked for {count} hint{'s' if count != 1 else ''}" in lines
    assert journal.warnings == []
    journal.close()


def test_hints_asked_after_a_resume_add_to_the_saved_ones(tmp_path: Path) -> None:
    game_id, asked = played_with_hints(tmp_path)
    journal = GameJournal(tmp_path)
    game = journal.resume(game_id)
    board = make_board()                               # phones on a board that plays the resumed game
    board.referee.reset(game, board.now)
    follow_journal(board.referee, journal, board.router)
    ask(board, 7)
    seat = game.to_move
    assert isinstance(seat, int)
    journal.close()
    again, journal = resumed(tmp_path, game_id)
    assert again.hints_asked[seat] == asked.get(seat, 0) + 1
    journal.close()


def test_a_journal_written_before_hints_resumes_with_none(tmp_path: Path) -> None:
    game_id, _asked = played_with_hints(tmp_path)
    with sqlite3.connect(tmp_path / JOURNAL_NAME) as conn:
        conn.execute("DROP TABLE hints")   # as a journal that never had one
    conn.close()
    referee, journal = resumed(tmp_path, game_id)
    assert referee.hints_asked == {} and journal.warnings == []
    assert not any("asked for" in line for line in luck_report(referee.game, hints=referee.hints_asked).lines())
    journal.close()


@pytest.mark.parametrize(("seat", "count", "said"), [(9, 2, "names no seat"), (0, -1, "not a number of hints"),
                                                    (0, "two", "not a number of hints"), ("red", 1, "names no seat")])
def test_a_count_the_journal_never_writes_is_left_out_by_name(tmp_path: Path, seat: object, count: object,
                                                               said: str) -> None:
    game_id, asked = played_with_hints(tmp_path)
    with sqlite3.connect(tmp_path / JOURNAL_NAME) as conn:
        conn.execute("DELETE FROM hints WHERE seat = ?", (0 if seat == 0 else -1,))
        conn.execute("INSERT INTO hints (game, seat, asked) VALUES (?, ?, ?)", (game_id, seat, count))
    conn.close()
    referee, journal = resumed(tmp_path, game_id)
    (warning,) = journal.warnings
    assert str(tmp_path / JOURNAL_NAME) in warning and f"game {game_id}'s hint count" in warning and said in warning
    kept = {s: c for s, c in asked.items() if s != 0 or seat != 0}
    assert referee.hints_asked == kept
    journal.close()


def test_counts_read_back_are_those_written(tmp_path: Path) -> None:
    game_id, asked = played_with_hints(tmp_path)
    with sqlite3.connect(tmp_path / JOURNAL_NAME) as conn:
        counts, warnings = read_hint_counts(conn, game_id, 3, "here")
    conn.close()
    assert dict(counts) == asked and warnings == []
