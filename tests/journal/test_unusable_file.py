"""Saved games are never lost to a journal file that cannot be used (issue 21 §1): a missing, empty, foreign or
half-created `games.sqlite3` beside a good backup is read from the backup, and restored from it before anything is
written; the unusable file is kept under a new name; a backup is never replaced by a copy that lacks its games."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.journal import JOURNAL_NAME, GameJournal, NotAJournalError, open_store
from tests.journal.helpers import attach, bot_referee, play

BACKUP = JOURNAL_NAME + ".backup"


def _keys(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return sorted(key for (key,) in conn.execute("SELECT key FROM games"))
    finally:
        conn.close()


@pytest.fixture(scope="module")
def two_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir holding two finished bot games, backed up when the journal closed."""
    data_dir = tmp_path_factory.mktemp("two")
    for seed in (1, 2):
        journal = GameJournal(data_dir)
        referee = bot_referee(seed)
        attach(journal, referee)
        play(referee, 100_000)
        assert referee.game.over
        journal.close()
    assert len(_keys(data_dir / BACKUP)) == 2
    return data_dir


def _files(data_dir: Path) -> dict[str, bytes]:
    """The files and their bytes, but SQLite's own -wal and -shm, which any reader of a WAL database may create."""
    return {p.name: p.read_bytes() for p in data_dir.iterdir() if not p.name.endswith(("-wal", "-shm"))}


def _empty(db: Path) -> None:
    db.write_bytes(b"")


def _missing(db: Path) -> None:
    db.unlink()


def _not_sqlite(db: Path) -> None:
    db.write_bytes(b"these bytes are not an SQLite database\n" * 40)


def _another_program(db: Path) -> None:
    db.unlink()
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()


def _half_created(db: Path) -> None:
    """An SQLite file whose journal tables were never written (a cut right after it was created)."""
    db.unlink()
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


BREAKS: dict[str, Callable[[Path], None]] = {
    "empty": _empty, "missing": _missing, "not sqlite": _not_sqlite, "another program": _another_program,
    "half created": _half_created,
}


def _broken(two_games: Path, tmp_path: Path, how: str) -> Path:
    data_dir = tmp_path / "data"
    shutil.copytree(two_games, data_dir)
    for side in data_dir.glob(JOURNAL_NAME + "-*"):
        side.unlink()
    BREAKS[how](data_dir / JOURNAL_NAME)
    return data_dir


@pytest.mark.parametrize("how", list(BREAKS))
def test_a_reader_reads_the_backup_and_moves_nothing(two_games: Path, tmp_path: Path, how: str) -> None:
    data_dir = _broken(two_games, tmp_path, how)
    before = _files(data_dir)
    store = open_store(data_dir, create=False)
    assert [g.id for g in store.games()] == [2, 1]
    (warning,) = store.warnings
    assert "cannot be used" in warning and BACKUP in warning and "restores the journal" in warning
    store.close()
    assert _files(data_dir) == before


@pytest.mark.parametrize("how", list(BREAKS))
def test_a_writer_restores_the_backup_keeps_the_file_and_adds_its_game(two_games: Path, tmp_path: Path,
                                                                       how: str) -> None:
    data_dir = _broken(two_games, tmp_path, how)
    original = (data_dir / JOURNAL_NAME).read_bytes() if (data_dir / JOURNAL_NAME).exists() else None
    journal = GameJournal(data_dir)
    assert any("restored from its backup" in w and "2 saved games" in w for w in journal.warnings)
    referee = bot_referee(3)
    attach(journal, referee)
    play(referee, 100_000)
    journal.close()
    store = open_store(data_dir, create=False)
    assert [g.id for g in store.games()] == [3, 2, 1] and store.warnings == []
    store.close()
    assert len(_keys(data_dir / BACKUP)) == 3        # the next backup holds the old games and the new one
    aside = data_dir / (JOURNAL_NAME + ".unusable")
    if original is None:
        assert not aside.exists()
    else:
        assert aside.read_bytes() == original        # kept byte for byte, never replaced


def test_the_cli_reproduction_of_the_issue(two_games: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    data_dir = _broken(two_games, tmp_path, "empty")
    assert main(["games", "--data-dir", str(data_dir)]) == 0
    out = capsys.readouterr()
    assert "finished" in out.out and "cannot be used (it is empty)" in out.err
    assert main(["sim", "--demo", "--players", "2", "--data-dir", str(data_dir), "--new", "--seed", "5"]) == 0
    capsys.readouterr()
    assert main(["games", "--data-dir", str(data_dir), "--json"]) == 0
    listed = capsys.readouterr().out
    assert '"id": 3' in listed and '"id": 2' in listed and '"id": 1' in listed
    assert len(_keys(data_dir / BACKUP)) == 3


def test_an_aside_name_in_use_is_never_overwritten(two_games: Path, tmp_path: Path) -> None:
    data_dir = _broken(two_games, tmp_path, "not sqlite")
    (data_dir / (JOURNAL_NAME + ".unusable")).write_bytes(b"an earlier one")
    GameJournal(data_dir).close()
    assert (data_dir / (JOURNAL_NAME + ".unusable")).read_bytes() == b"an earlier one"
    assert (data_dir / (JOURNAL_NAME + ".unusable-2")).read_bytes().startswith(b"these bytes")


def test_an_empty_file_beside_an_unusable_backup_keeps_the_backup_and_starts_anew(tmp_path: Path) -> None:
    (tmp_path / JOURNAL_NAME).write_bytes(b"")
    (tmp_path / BACKUP).write_bytes(b"garbage, not a backup")
    journal = GameJournal(tmp_path)
    assert any("kept as games.sqlite3.backup.unusable" in w and "a new journal starts" in w
               for w in journal.warnings)
    journal.close()
    assert (tmp_path / (BACKUP + ".unusable")).read_bytes() == b"garbage, not a backup"


def test_a_foreign_file_beside_an_unusable_backup_is_refused_naming_both(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / JOURNAL_NAME)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.close()
    (tmp_path / BACKUP).write_bytes(b"garbage, not a backup")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(NotAJournalError, match=r"another program\) and the backup games.sqlite3.backup is "
                                               r"unreadable too \(file is not a database\); both are left as they"):
        GameJournal(tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_backup_is_never_replaced_by_a_journal_lacking_its_games(two_games: Path, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    shutil.copytree(two_games, data_dir)
    conn = sqlite3.connect(data_dir / JOURNAL_NAME)      # game 1 vanishes from the journal (not from the backup)
    conn.execute("DELETE FROM actions WHERE game = 1")
    conn.execute("DELETE FROM games WHERE id = 1")
    conn.commit()
    conn.close()
    backup_before = (data_dir / BACKUP).read_bytes()
    store = open_store(data_dir)
    problem = store.backup()
    store.close()
    assert problem is not None and "lacks 1 of the 2 games the backup holds (game 1)" in problem
    assert (data_dir / BACKUP).read_bytes() == backup_before
    assert not list(data_dir.glob("*.tmp"))
