"""The journal file: round trips, listing, refusing files that are not a journal, the XDG default."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from conquista.journal import (
    JOURNAL_NAME,
    GameJournal,
    JournalError,
    NotAJournalError,
    default_data_dir,
    open_store,
)
from conquista.journal.schema import PAGE_SIZE
from conquista.rules.events import Phase
from tests.journal.helpers import attach, bot_referee, play, raw_rows, replay_rows


def test_every_action_is_journaled_and_replays_to_the_same_state(tmp_path: Path) -> None:
    clock = iter(range(1000, 100_000))
    journal = GameJournal(tmp_path, clock=lambda: float(next(clock)))
    referee = bot_referee(3)
    attach(journal, referee)
    play(referee, 400)
    header, rows, status = raw_rows(tmp_path, 1)
    assert len(rows) == len(referee.game.log) and status == ("finished" if referee.game.over else "playing")
    assert replay_rows(header, rows).digest() == referee.game.digest()
    store = open_store(tmp_path, create=False)
    (info,) = store.games()
    assert (info.id, info.ruleset, info.players, info.actions, info.turn) == (
        1, "classic", 2, len(referee.game.log), referee.game.turn)
    assert info.last_played > info.created
    assert store.load(1)[1].digest() == referee.game.digest()
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE
    store.close()
    journal.close()


def test_games_list_most_recent_first_and_latest_unfinished(tmp_path: Path) -> None:
    journal = GameJournal(tmp_path)
    first, second = bot_referee(1), bot_referee(2)
    attach(journal, first)
    play(first, 10_000)
    assert first.game.over
    attach(journal, second)
    play(second, 30)
    store = journal.store
    assert store is not None
    assert [(g.id, g.finished) for g in store.games()] == [(2, False), (1, True)]
    latest = store.latest_unfinished()
    assert latest is not None and latest.id == 2
    journal.abandon()
    assert store.latest_unfinished() is None and store.info(2).status == "abandoned"
    with pytest.raises(JournalError, match="no saved game 7"):
        store.info(7)
    journal.close()


def test_resume_continues_the_same_rows(tmp_path: Path) -> None:
    journal = GameJournal(tmp_path)
    referee = bot_referee(6)
    attach(journal, referee)
    play(referee, 50)
    assert not referee.game.over
    # no close(): as after a crash
    again = GameJournal(tmp_path)
    saved = again.latest_unfinished()
    assert saved is not None
    game = again.resume(saved.id)
    assert game.digest() == referee.game.digest()
    referee.reset(game, 100.0)
    attach(again, referee)
    play(referee, 50, 100.0)
    header, rows, _ = raw_rows(tmp_path, saved.id)
    assert replay_rows(header, rows).digest() == referee.game.digest()
    assert len(open_store(tmp_path).games()) == 1


@pytest.mark.parametrize("content", [b"hello, not a journal\n", b"\x00" * 100, b"SQLite format 2\x00" + b"x" * 100])
def test_a_file_that_is_not_a_database_is_refused_naming_it(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / JOURNAL_NAME
    path.write_bytes(content)
    with pytest.raises(NotAJournalError) as info:
        GameJournal(tmp_path)
    message = str(info.value)
    assert str(path) in message and "not a conquista game journal" in message and "\n" not in message
    assert path.read_bytes() == content                   # never written over


def test_another_programs_database_and_a_newer_journal_are_refused(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_NAME
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(NotAJournalError, match="another program"):
        open_store(tmp_path)
    other = tmp_path / "newer"
    GameJournal(other).close()
    conn = sqlite3.connect(other / JOURNAL_NAME)
    conn.execute("PRAGMA user_version = 9")
    conn.close()
    with pytest.raises(NotAJournalError, match="newer conquista"):
        open_store(other)
    (tmp_path / "dir" / JOURNAL_NAME).mkdir(parents=True)
    with pytest.raises(NotAJournalError, match="a directory"):
        open_store(tmp_path / "dir")


def test_an_empty_file_is_a_journal_whose_creation_was_cut_short(tmp_path: Path) -> None:
    (tmp_path / JOURNAL_NAME).write_bytes(b"")
    journal = GameJournal(tmp_path)
    referee = bot_referee(1)
    attach(journal, referee)
    play(referee, 1)
    assert not journal.fault and journal.game_id == 1


def test_readers_do_not_create_a_journal(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no saved games here"):
        open_store(tmp_path / "none", create=False)
    assert not (tmp_path / "none").exists()


def test_default_data_dir_follows_xdg() -> None:
    assert default_data_dir({"XDG_DATA_HOME": "/data", "HOME": "/home/p"}) == Path("/data/conquista")
    assert default_data_dir({"HOME": "/home/p"}) == Path("/home/p/.local/share/conquista")
    # A relative XDG_DATA_HOME is invalid by the spec and ignored.
    assert default_data_dir({"XDG_DATA_HOME": "rel", "HOME": "/home/p"}) == Path("/home/p/.local/share/conquista")


def test_a_duel_left_in_the_neutral_turn_resumes_there(tmp_path: Path) -> None:
    journal = GameJournal(tmp_path)
    referee = bot_referee(4, rules="french-1976-duel")
    attach(journal, referee)
    while referee.game.phase is not Phase.NEUTRAL_ATTACK:
        play(referee, 1)
    journal.close()
    again = GameJournal(tmp_path)
    saved = again.latest_unfinished()
    assert saved is not None
    resumed = again.resume(saved.id)
    assert resumed.digest() == referee.game.digest() and resumed.to_move == 1 - resumed.current
    again.close()


def test_a_whole_duel_is_journaled_and_replays(tmp_path: Path) -> None:
    """The header carries the ruleset, so the neutral army's turns replay from the journal."""
    journal = GameJournal(tmp_path)
    referee = bot_referee(4, rules="french-1976-duel")
    attach(journal, referee)
    play(referee, 10_000)
    journal.close()
    header, rows, status = raw_rows(tmp_path, 1)
    head = json.loads(header)
    assert status == "finished" and head["ruleset_name"] == "french-1976-duel" and head["ruleset"]["neutral_army"]
    assert replay_rows(header, rows).digest() == referee.game.digest()
