"""A saved game's header (its log header line, ruleset, players, seats and seed) is checked like its rows: the
actions replay under it, so a header changed into another valid one would replay another game. Changed, it is
restored from the backup with a warning or refused by name; journals written before header checksums still open."""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.journal import JOURNAL_NAME, GameJournal, JournalError, open_for_play, open_store
from conquista.journal.integrity import read_game
from conquista.journal.schema import SCHEMA_VERSION
from tests.journal.helpers import as_untimed_chains, attach, bot_referee, play, raw_rows, replay_rows


@dataclass(frozen=True)
class Saved:
    data_dir: Path
    backed_up: str          # game 2's digest as the backup holds it
    backed_up_actions: int
    whole: str              # and as the journal holds it


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Saved:
    """A data dir with a finished game (1) and game 2, backed up at about 60 actions then played on to 120 and left
    without closing (a crash)."""
    data_dir = tmp_path_factory.mktemp("saved")
    journal = GameJournal(data_dir, clock=lambda: 0.0)   # a still clock: no backup but the ones asked for
    finished = bot_referee(1)
    attach(journal, finished)
    play(finished, 10_000)
    current = bot_referee(7, "italian", 3)
    attach(journal, current)
    play(current, 60 - len(current.game.log))
    assert journal.backup()
    backed_up, backed_up_actions = current.game.digest(), len(current.game.log)
    play(current, 60)
    assert not current.game.over
    return Saved(data_dir, backed_up, backed_up_actions, current.game.digest())


def renamed_ruleset(header: str) -> str:
    """The header as another valid one: the same parameters under another ruleset name, which the replay takes
    (and the game's digest with it)."""
    obj = json.loads(header)
    obj["ruleset_name"] = "italian-house"
    return json.dumps(obj)


def _copy(saved: Path, where: Path, statement: str = "", *, backup: bool = True) -> Path:
    shutil.copytree(saved, where)
    if not backup:
        (where / f"{JOURNAL_NAME}.backup").unlink()
    if statement:
        conn = sqlite3.connect(where / JOURNAL_NAME)
        with conn:
            header = conn.execute("SELECT header FROM games WHERE id = 2").fetchone()[0]
            conn.execute(statement, {"header": renamed_ruleset(header)} if ":header" in statement else {})
            assert conn.total_changes == 1
        conn.close()
    return where


EDITS = [
    "UPDATE games SET header = :header WHERE id = 2",
    "UPDATE games SET ruleset = 'classic' WHERE id = 2",
    "UPDATE games SET players = 4 WHERE id = 2",
    "UPDATE games SET seats = '[\"human\", \"greedy\", \"greedy\"]' WHERE id = 2",
    "UPDATE games SET seed = '42' WHERE id = 2",
]


def test_an_edited_header_is_restored_from_the_backup(saved: Saved, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    data_dir, backed_up = saved.data_dir, saved.backed_up
    copy = _copy(data_dir, tmp_path / "copy", EDITS[0])
    assert main(["replay", "2", "--json", "--reveal", "--data-dir", str(copy)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["digest"] == backed_up
    assert captured.err.count("\n") == 1
    assert "game 2 is damaged (its header does not match its checksum); restored from the backup" in captured.err
    assert main(["games", "--data-dir", str(copy), "--json"]) == 0
    captured = capsys.readouterr()
    assert {g["id"]: g["actions"] for g in json.loads(captured.out)}[2] == saved.backed_up_actions
    assert "game 2 is damaged (its header does not match its checksum)" in captured.err
    # Resumed, the journal is repaired: the backup's header and rows, and no warning after that.
    journal = GameJournal(copy)
    assert journal.resume(2).digest() == backed_up and len(journal.warnings) == 1
    journal.close()
    assert GameJournal(copy).warnings == []
    assert raw_rows(copy, 2)[0] == raw_rows(data_dir, 2)[0]


@pytest.mark.parametrize("statement", EDITS)
def test_an_edited_header_without_a_backup_is_refused_by_name(
        saved: Saved, tmp_path: Path, statement: str, capsys: pytest.CaptureFixture[str]) -> None:
    data_dir = saved.data_dir
    copy = _copy(data_dir, tmp_path / "copy", statement, backup=False)
    assert main(["replay", "2", "--json", "--reveal", "--data-dir", str(copy)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "game 2 is damaged (its header does not match its checksum)" in err
    assert "refused" in err
    assert main(["games", "--data-dir", str(copy), "--json"]) == 0
    captured = capsys.readouterr()
    assert {g["id"]: g["status"] for g in json.loads(captured.out)} == {1: "finished", 2: "damaged"}
    assert "game 2 is damaged" in captured.err
    # At the board: never offered, refused by name when asked for.
    warnings: list[str] = []
    start = open_for_play(copy, None, warnings.append)
    assert start.game is None and sum("game 2 is damaged (its header" in w for w in warnings) == 1
    start.journal.close()
    with pytest.raises(JournalError, match="game 2 is damaged"):
        open_for_play(copy, 2, warnings.append)


def test_the_game_being_played_writes_its_header_again_when_it_was_changed(tmp_path: Path) -> None:
    """The backup finds the header of the game being played changed on disk: the journal writes it again from
    memory, as it does the rows; a finished game's is restored from the old backup."""
    journal = GameJournal(tmp_path)
    finished, current = bot_referee(1), bot_referee(7, "italian", 3)
    attach(journal, finished)
    play(finished, 10_000)
    attach(journal, current)
    play(current, 100)
    assert journal.backup()
    store = journal.store
    assert store is not None
    for game_id in (1, 2):
        header = store.conn.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        store.conn.execute("UPDATE games SET header = ? WHERE id = ?", (renamed_ruleset(header), game_id))
    assert journal.backup()
    for game_id, referee in ((1, finished), (2, current)):
        header, rows, _status = raw_rows(tmp_path, game_id)
        assert replay_rows(header, rows).digest() == referee.game.digest()
        assert json.loads(header)["ruleset_name"] == referee.game.rules.name
    journal.close()
    assert {g.id for g in open_store(tmp_path, create=False).games()} == {1, 2}


def test_a_bot_taking_a_seat_keeps_the_header_whole(tmp_path: Path) -> None:
    journal = GameJournal(tmp_path)
    referee = bot_referee(7, "italian", 3)
    journal.seats = ("human", "human", "greedy")
    attach(journal, referee)
    play(referee, 30)
    journal.reseat(0, "random")
    play(referee, 10)
    journal.close()
    store = open_store(tmp_path, create=False)
    (info,) = store.games()
    assert info.seats == ("random", "human", "greedy") and store.warnings == []
    store.close()
    again = GameJournal(tmp_path)
    assert again.resume(1).digest() == referee.game.digest() and again.warnings == []
    again.close()


def _as_version_2(path: Path) -> None:
    """Make a journal (or backup) file what version 2 wrote: no header_sum."""
    conn = sqlite3.connect(path)
    as_untimed_chains(conn)
    conn.executescript("ALTER TABLE games DROP COLUMN header_sum; PRAGMA user_version = 2;")
    conn.close()


def test_a_version_2_journal_and_backup_open_and_get_header_checksums(saved: Saved,
                                                                      tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    data_dir, backed_up, whole = saved.data_dir, saved.backed_up, saved.whole
    copy = _copy(data_dir, tmp_path / "copy")
    for path in (copy / JOURNAL_NAME, copy / f"{JOURNAL_NAME}.backup"):
        _as_version_2(path)
    store = open_store(copy, create=False)
    assert [g.id for g in store.games()] == [2, 1] and store.warnings == []
    assert store.load(2)[1].digest() == whole
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    for game_id in (1, 2):
        game = read_game(store.conn, game_id)
        assert game is not None and game.header_sum == game.game_header.checksum()
    store.close()
    # Upgraded, a changed header is damage; the backup, still of version 2, restores the game.
    conn = sqlite3.connect(copy / JOURNAL_NAME)
    with conn:
        conn.execute("UPDATE games SET seats = '[\"greedy\", \"greedy\", \"greedy\"]' WHERE id = 2")
    conn.close()
    assert main(["replay", "2", "--json", "--reveal", "--data-dir", str(copy)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["digest"] == backed_up
    assert "game 2 is damaged (its header does not match its checksum); restored from the backup" in captured.err
    journal = GameJournal(copy)
    referee = bot_referee(7, "italian", 3)
    referee.reset(journal.resume(2), 100.0)
    attach(journal, referee)
    play(referee, 20, 100.0)
    journal.close()
    assert open_store(copy, create=False).load(2)[1].digest() == referee.game.digest()
    backup = sqlite3.connect(copy / f"{JOURNAL_NAME}.backup")
    assert backup.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    backup.close()
