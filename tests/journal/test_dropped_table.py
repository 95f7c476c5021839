"""A journal that lost a table is damage too (SQLite's quick_check calls it sound): `conquista games` restores the
games from the backup and says so, never "no saved games" with exit 0; `dice audit ID` of a damaged game says on
stderr that it audits the backup's copy (issue 13 §1, "Damaged files")."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.journal import JOURNAL_NAME, GameJournal, open_store
from conquista.journal.integrity import read_game
from tests.journal.helpers import as_untimed_chains, attach, bot_referee, play


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir with one finished game (1) and one being played (2), both in the backup."""
    data_dir = tmp_path_factory.mktemp("saved")
    journal = GameJournal(data_dir)
    finished = bot_referee(1)
    attach(journal, finished)
    play(finished, 10_000)
    current = bot_referee(7, "italian", 3)
    attach(journal, current)
    play(current, 60)
    journal.close()
    return data_dir


def _copy(saved: Path, tmp_path: Path, *statements: str) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(saved, copy)
    conn = sqlite3.connect(copy / JOURNAL_NAME)
    with conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()
    return copy


@pytest.mark.parametrize("table", ["games", "actions"])
def test_a_dropped_table_lists_the_games_from_the_backup_and_says_so(
        saved: Path, tmp_path: Path, table: str, capsys: pytest.CaptureFixture[str]) -> None:
    copy = _copy(saved, tmp_path, f"DROP TABLE {table}")
    assert main(["games", "--data-dir", str(copy), "--json"]) == 0
    captured = capsys.readouterr()
    assert {g["id"] for g in json.loads(captured.out)} == {1, 2}
    assert f"its {table} table is missing" in captured.err and "restored from the backup" in captured.err
    assert "Traceback" not in captured.err
    assert main(["games", "--data-dir", str(copy)]) == 0
    captured = capsys.readouterr()
    assert "no saved games" not in captured.out and "restored from the backup" in captured.err
    # Opened to write, the journal is rebuilt: the games are back in the file, and no warning is left after that.
    journal = GameJournal(copy)
    assert any(f"its {table} table is missing" in w for w in journal.warnings)
    journal.close()
    assert {g.id for g in open_store(copy, create=False).games()} == {1, 2}
    assert GameJournal(copy).warnings == []


def test_a_dropped_table_without_a_backup_is_named_not_no_saved_games(
        saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = _copy(saved, tmp_path, "DROP TABLE games")
    (copy / f"{JOURNAL_NAME}.backup").unlink()
    assert main(["games", "--data-dir", str(copy)]) == 0
    captured = capsys.readouterr()
    # Nothing is left to list, but the damage is named: the person knows the games were lost, and where.
    assert "the journal is damaged (its games table is missing); there is no backup" in captured.err


def test_dice_audit_of_a_damaged_game_says_it_audits_the_backup(
        saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = _copy(saved, tmp_path, "DELETE FROM actions WHERE game = 1 AND seq >= 20")
    code = main(["dice", "audit", "1", "--data-dir", str(copy)])
    captured = capsys.readouterr()
    assert code in (0, 1) and "Traceback" not in captured.err
    assert "game 1 is damaged" in captured.err and "restored from the backup" in captured.err


@pytest.mark.parametrize("column", ["seed = 'x'", "seed = '" + "9" * 5000 + "'", "seats = '" + "[" * 100_000 + "'",
                                    "header = '" + "[" * 100_000 + "]" * 100_000 + "'", "key = 7"])
def test_garbage_in_a_games_row_is_damage_not_a_traceback(
        saved: Path, tmp_path: Path, column: str, capsys: pytest.CaptureFixture[str]) -> None:
    copy = _copy(saved, tmp_path, f"UPDATE games SET {column} WHERE id = 2")
    assert main(["games", "--data-dir", str(copy), "--json"]) == 0
    assert main(["replay", "2", "--data-dir", str(copy)]) in (0, 2)
    err = capsys.readouterr().err
    assert "Traceback" not in err and all(line.startswith("conquista") for line in err.splitlines())


def test_a_dropped_table_is_restored_from_a_backup_older_than_header_checksums(
        saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The backup was made by a version 2 journal (no header_sum): its games still restore, and the rebuilt journal
    gets their header checksums."""
    copy = _copy(saved, tmp_path, "DROP TABLE games")
    backup = sqlite3.connect(copy / f"{JOURNAL_NAME}.backup")
    as_untimed_chains(backup)
    backup.executescript("ALTER TABLE games DROP COLUMN header_sum; PRAGMA user_version = 2;")
    backup.close()
    assert main(["games", "--data-dir", str(copy), "--json"]) == 0
    captured = capsys.readouterr()
    assert {g["id"] for g in json.loads(captured.out)} == {1, 2} and "restored from the backup" in captured.err
    journal = GameJournal(copy)
    store = journal.store
    assert store is not None and any("its games table is missing" in w for w in journal.warnings)
    for game_id in (1, 2):
        game = read_game(store.conn, game_id)        # raises GameDamaged if its header_sum were not right
        assert game is not None and game.header_sum == game.game_header.checksum()
    journal.close()
    assert GameJournal(copy).warnings == []
