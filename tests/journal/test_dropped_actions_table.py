"""A journal whose actions table was dropped, with no backup: resuming a game says at most one warning and the
error, on stderr (issue 30 item 11)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.journal import GameJournal
from tests.journal.helpers import attach, bot_referee, play


def test_resuming_from_a_journal_without_its_actions_says_a_warning_and_the_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for seed in (6, 7):
        journal = GameJournal(tmp_path)
        referee = bot_referee(seed)
        attach(journal, referee)
        play(referee, 40)
        journal.close()
    path = tmp_path / "games.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE actions")
    db.close()
    for backup in tmp_path.glob("games.sqlite3.backup*"):
        backup.unlink()
    script = tmp_path / "script.txt"
    script.write_text("wait 1\n")
    assert main(["sim", "--resume", "2", "--data-dir", str(tmp_path), "--script", str(script)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert 1 <= len(err) <= 2, err
    assert err[-1].startswith("conquista: error: ") and "game 2" in err[-1]
    assert all("game 1" not in line for line in err)
