"""A bare `--resume` takes the last unfinished game in the data folder, whatever its ruleset and players (the
command line's defaults, italian for 3, are not a filter), says which it resumed, and says so in one line when
there is none (issue 30)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conquista.cli import main
from conquista.journal import GameJournal, open_store
from tests.journal.helpers import attach, bot_referee, play


def test_a_bare_resume_takes_the_last_unfinished_game_whatever_its_rules(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = GameJournal(tmp_path)        # a classic game for 2, unfinished: not the italian 3 of the defaults
    referee = bot_referee(6)
    attach(journal, referee)
    play(referee, 40)
    journal.close()
    (saved,) = open_store(tmp_path).games()
    script = tmp_path / "script.txt"
    script.write_text("wait 1\n")
    assert main(["sim", "--resume", "--data-dir", str(tmp_path), "--script", str(script), "--bots", "0,1",
                 "--think", "0.1"]) == 0
    err = capsys.readouterr().err
    assert f"resuming game {saved.id} (classic, 2 players, turn " in err and err.count("\n") == 1
    games = open_store(tmp_path).games()
    (after,) = games                        # played on, not a new game beside it
    assert after.id == saved.id and after.actions > saved.actions


def test_a_bare_resume_with_nothing_to_resume_says_so_in_one_line(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "script.txt"
    script.write_text("wait 1\n")
    assert main(["sim", "--resume", "--data-dir", str(tmp_path / "d"), "--script", str(script), "--bots", "1,2",
                 "--think", "0.1"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no unfinished game to resume, a new one starts" in err
