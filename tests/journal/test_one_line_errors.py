"""A journal that cannot give the game asked for says so in one line, naming the file and the game (issue 21 §3):
it used to print the same news two or three times, and a journal whose tables were dropped ended in a misleading
"no saved game 2"."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.journal import JOURNAL_NAME, GameJournal
from tests.journal.helpers import attach, bot_referee, play

BACKUP = JOURNAL_NAME + ".backup"


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished game 1 and an unfinished game 2, both in the backup."""
    data_dir = tmp_path_factory.mktemp("saved")
    for seed, actions in ((1, 100_000), (2, 60)):
        journal = GameJournal(data_dir)
        referee = bot_referee(seed, "italian", 3)
        attach(journal, referee)
        play(referee, actions)
        journal.close()
    return data_dir


def _copy(saved: Path, tmp_path: Path, sql: str) -> Path:
    data_dir = tmp_path / "d"
    shutil.copytree(saved, data_dir)
    for db in (JOURNAL_NAME, BACKUP):
        conn = sqlite3.connect(data_dir / db)
        with conn:
            conn.execute(sql)
        conn.close()
    return data_dir


def _resume(data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    script = tmp_path / "quit.txt"
    script.write_text("quit\n")
    assert main(["sim", "--resume", "2", "--data-dir", str(data_dir), "--script", str(script)]) == 2
    return [line for line in capsys.readouterr().err.splitlines() if "game 2" in line or "journal" in line]


def test_a_game_damaged_in_the_backup_too_is_refused_once(saved: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    data_dir = _copy(saved, tmp_path, "UPDATE actions SET action = 'x' WHERE game = 2 AND seq = 5")
    (line,) = _resume(data_dir, tmp_path, capsys)
    assert line.startswith("conquista: error: ") and str(data_dir / JOURNAL_NAME) in line
    assert "game 2 is damaged (action 5 does not match its checksum)" in line and "refused" in line
    assert main(["games", "show", "2", "--data-dir", str(data_dir)]) == 2
    assert sum("game 2 is damaged" in line for line in capsys.readouterr().err.splitlines()) == 1


def test_dropped_tables_name_the_damaged_game_not_a_missing_one(saved: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    data_dir = _copy(saved, tmp_path, "DROP TABLE actions")
    lines = _resume(data_dir, tmp_path, capsys)
    assert sum("game 2" in line for line in lines) == 1
    (error,) = [line for line in lines if line.startswith("conquista: error: ")]
    assert "game 2 is damaged (0 of its 61 actions are readable)" in error and "no saved game" not in error
    assert main(["games", "--data-dir", str(data_dir)]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines()[1:] if line.split()[6:7] == ["damaged"]] == ["2", "1"]


def test_a_journal_that_cannot_be_opened_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a-file").write_text("")
    lines = _resume(tmp_path / "a-file" / "data", tmp_path, capsys)
    assert lines == [f"conquista: error: {tmp_path / 'a-file' / 'data' / JOURNAL_NAME}: cannot open the journal "
                     f"(Not a directory); game 2 cannot be resumed from it: check --data-dir"]
