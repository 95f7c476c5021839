"""What a newcomer meets in the messages, round three (issue 39): a ruleset for one count of players needs no
--players, and a refusal is the one line said."""

from __future__ import annotations

from pathlib import Path

import pytest

from conquista.cli import main
from conquista.journal import GameJournal
from tests.journal.helpers import attach, bot_referee, play


@pytest.fixture(scope="module")
def unfinished_italian(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data_dir = tmp_path_factory.mktemp("italian")
    journal = GameJournal(data_dir)
    referee = bot_referee(2, "italian", 3)
    attach(journal, referee)
    play(referee, 40)
    assert not referee.game.over
    journal.close()
    return data_dir


def test_a_ruleset_for_one_count_of_players_uses_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.txt"
    script.write_text("wait 1\n")
    assert main(["sim", "--rules", "french-1976-duel", "--script", str(script)]) == 0
    out = capsys.readouterr()
    assert "is for 2 players" not in out.err and "# " in out.out


def test_a_refused_count_is_said_before_the_journal_starts_a_new_game(
        unfinished_italian: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.txt"
    script.write_text("wait 1\n")
    assert main(["sim", "--rules", "french-1976-duel", "--players", "3", "--script", str(script),
                 "--data-dir", str(unfinished_italian)]) == 2
    err = capsys.readouterr().err
    assert "a new one starts" not in err
    assert err.strip().splitlines() == ["conquista: error: ruleset 'french-1976-duel' is for 2 players, not 3; "
                                        "use --players 2"]
