"""Each row's turn and time are covered by its checksum since journal version 4 (issue 21 §3): a changed time is
damage, restored from the backup or refused by name, and an absurd one (1e300) is one line, never an OverflowError
traceback. Version 3 journals are upgraded with their checksums computed again; a game damaged before stays
damaged."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.errors import GameDamaged
from conquista.journal import JOURNAL_NAME, GameJournal, open_store
from conquista.journal.integrity import chain_of, read_game
from conquista.journal.schema import SCHEMA_VERSION
from tests.journal.helpers import attach, bot_referee, play

BACKUP = JOURNAL_NAME + ".backup"


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A data dir with one finished bot game, backed up; and its digest."""
    data_dir = tmp_path_factory.mktemp("times")
    journal = GameJournal(data_dir, clock=lambda: 1_800_000_000.0)
    referee = bot_referee(4)
    attach(journal, referee)
    play(referee, 100_000)
    journal.close()
    return data_dir, referee.game.digest()


def _copy(source: Path, where: Path) -> Path:
    shutil.copytree(source, where)
    return where


def _set(db: Path, sql: str) -> None:
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(sql)
    conn.close()


@pytest.mark.parametrize("change", ["at = at + 3600", "turn = turn + 1", "at = 1e300", "at = -5", "at = 'noon'"])
def test_a_changed_turn_or_time_is_restored_from_the_backup(finished: tuple[Path, str], tmp_path: Path,
                                                            change: str, capsys: pytest.CaptureFixture[str]) -> None:
    source, digest = finished
    data_dir = _copy(source, tmp_path / "d")
    _set(data_dir / JOURNAL_NAME, f"UPDATE actions SET {change} WHERE game = 1 AND seq = 5")
    assert main(["games", "--data-dir", str(data_dir)]) == 0
    out = capsys.readouterr()
    assert "finished" in out.out
    (line,) = out.err.strip().splitlines()
    assert "game 1 is damaged" in line and "restored from the backup" in line
    store = open_store(data_dir, create=False)
    assert store.load(1)[1].digest() == digest
    store.close()


def test_an_absurd_time_in_the_backup_too_is_one_line_naming_the_game(finished: tuple[Path, str], tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    source, _ = finished
    data_dir = _copy(source, tmp_path / "d")
    for db in (JOURNAL_NAME, BACKUP):
        _set(data_dir / db, "UPDATE actions SET at = 1e300 WHERE game = 1 AND seq = 5")
    assert main(["games", "--data-dir", str(data_dir)]) == 0
    out = capsys.readouterr()
    assert "damaged" in out.out and "Traceback" not in out.err
    assert main(["games", "show", "1", "--data-dir", str(data_dir)]) != 0
    err = capsys.readouterr().err
    assert "game 1 is damaged (action 5's turn or time is not what the journal writes)" in err
    assert "Traceback" not in err and "OverflowError" not in err


def _as_version_3(db: Path) -> None:
    """Make a journal (or backup) what version 3 wrote: checksums of the actions only."""
    conn = sqlite3.connect(db)
    with conn:
        key = conn.execute("SELECT key FROM games WHERE id = 1").fetchone()[0]
        rows = conn.execute("SELECT seq, action FROM actions WHERE game = 1 ORDER BY seq").fetchall()
        chains = chain_of(key, [action for _, action in rows])
        conn.executemany("UPDATE actions SET chain = ? WHERE game = 1 AND seq = ?",
                         [(chain, seq) for (seq, _), chain in zip(rows, chains, strict=True)])
        conn.execute("PRAGMA user_version = 3")
    conn.close()


def _read_main(data_dir: Path) -> None:
    conn = sqlite3.connect(data_dir / JOURNAL_NAME)
    try:
        read_game(conn, 1)
    finally:
        conn.close()


def test_a_version_3_journal_is_upgraded_to_checksums_of_turn_and_time(finished: tuple[Path, str],
                                                                       tmp_path: Path) -> None:
    source, digest = finished
    data_dir = _copy(source, tmp_path / "d")
    for db in (JOURNAL_NAME, BACKUP):
        _as_version_3(data_dir / db)
    store = open_store(data_dir)
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert store.load(1)[1].digest() == digest and store.warnings == []
    store.close()
    _read_main(data_dir)                                     # whole under the new checksums
    _set(data_dir / JOURNAL_NAME, "UPDATE actions SET at = at + 1 WHERE game = 1 AND seq = 3")
    with pytest.raises(GameDamaged, match="action 3 does not match its checksum"):
        _read_main(data_dir)                                 # which now cover the time


def test_a_game_damaged_under_version_3_stays_damaged_once_upgraded(finished: tuple[Path, str],
                                                                    tmp_path: Path) -> None:
    source, digest = finished
    data_dir = _copy(source, tmp_path / "d")
    for db in (JOURNAL_NAME, BACKUP):
        _as_version_3(data_dir / db)
    _set(data_dir / JOURNAL_NAME, "UPDATE actions SET action = replace(action, '\"', ' \"') WHERE game = 1 AND seq = 9")
    store = open_store(data_dir)
    assert store.load(1)[1].digest() == digest                       # restored from the (version 3) backup
    assert any("game 1 is damaged" in w and "restored from the backup" in w for w in store.warnings)
    store.close()
    with pytest.raises(GameDamaged):                                 # never blessed by the upgrade
        _read_main(data_dir)
