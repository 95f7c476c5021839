"""`conquista games`, `games show`, `replay ID [--step]`, and `conquista sim` with --data-dir/--resume/--new and
the resume prompt on the simulated board."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.dice.chance import new_game
from conquista.journal import GameJournal, offer_resume, open_for_play, open_store
from conquista.rules.gamelog import write_log
from conquista.rules.rulesets import load_ruleset
from conquista.table.effects import Answered
from conquista.table.referee import PROMPT_YES
from conquista_sim import SimulatedTable
from tests.journal.helpers import attach, bot_referee, play


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Path, str]:
    """A data dir with one unfinished game of 40-odd actions; returns it and the game's digest."""
    journal = GameJournal(tmp_path)
    referee = bot_referee(6)
    attach(journal, referee)
    play(referee, 40)
    journal.close()
    return tmp_path, referee.game.digest()


def test_games_lists_and_shows(saved: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    data_dir, digest = saved
    assert main(["games", "--data-dir", str(data_dir), "--json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert listed["id"] == 1 and listed["ruleset"] == "classic" and listed["players"] == 2
    assert listed["finished"] is False and listed["turn"] >= 1 and listed["last_played"].endswith("+00:00")
    assert main(["games", "--data-dir", str(data_dir)]) == 0
    out = capsys.readouterr().out
    assert "classic" in out and "playing" in out and "last played" in out
    assert main(["games", "--data-dir", str(data_dir), "show", "1", "--json", "--reveal"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["digest"] == digest and shown["state"]["rules"] == "classic"
    assert main(["games", "show", "1", "--data-dir", str(data_dir), "--reveal"]) == 0
    assert f"digest {digest}" in capsys.readouterr().out
    assert main(["games", "--data-dir", str(data_dir), "show", "9"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no saved game 9" in err


def test_games_on_an_empty_dir_and_on_a_file_that_is_not_a_journal(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--data-dir", str(tmp_path / "nothing"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert not (tmp_path / "nothing").exists()
    bad = tmp_path / "bad" / "games.sqlite3"
    bad.parent.mkdir()
    bad.write_text("my shopping list\n")
    assert main(["games", "--data-dir", str(bad.parent)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and "not a conquista game journal" in err


def test_replay_a_saved_game(saved: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    data_dir, digest = saved
    assert main(["replay", "1", "--data-dir", str(data_dir), "--reveal"]) == 0
    assert capsys.readouterr().out.rstrip().endswith(f"digest {digest}")
    assert main(["replay", "1", "--data-dir", str(data_dir), "--json", "--reveal"]) == 0
    assert json.loads(capsys.readouterr().out)["digest"] == digest
    assert main(["replay", "1", "--data-dir", str(data_dir), "--step", "--reveal"]) == 0   # not a terminal: all print
    out = capsys.readouterr().out
    actions = len(open_store(data_dir).load(1)[1].log)
    assert f"action {actions - 1}/{actions - 1}:" in out and out.count("dice ") == actions - 1
    assert out.rstrip().endswith(f"digest {digest}")


def test_replay_step_names_each_seat_by_its_colour_never_you(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Nobody plays a replay: the legend names the seats by colour, with what played them when the journal knows."""
    journal = GameJournal(tmp_path)
    referee = bot_referee(6)
    journal.seats = ("human", "greedy")
    attach(journal, referee)
    play(referee, 12)
    journal.close()
    steps = len(referee.game.log) - 1
    assert main(["replay", "1", "--data-dir", str(tmp_path), "--step", "--reveal"]) == 0
    out = capsys.readouterr().out
    assert out.count("seats: ■R red (person) ■B blue (greedy bot)") == steps
    assert not re.search(r"\byou\b", out) and "bots:" not in out
    # A log file does not say who played: the colours alone.
    log = tmp_path / "game.jsonl"
    write_log(log, referee.game)
    assert main(["replay", str(log), "--step", "--reveal"]) == 0
    out = capsys.readouterr().out
    assert out.count("seats: ■R red ■B blue\n") == steps and not re.search(r"\byou\b", out)


def test_sim_saves_with_data_dir_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "script.txt"
    script.write_text("wait 2\nalaska\nnext\n")
    base = ["sim", "--script", str(script), "--bots", "1,2", "--think", "0.1", "--data-dir", str(tmp_path)]
    assert main([*base, "--seed", "4"]) == 0
    first = open_store(tmp_path).games()
    assert len(first) == 1 and first[0].actions > 1
    assert main([*base, "--seed", "5", "--resume"]) == 0
    again = open_store(tmp_path).games()
    assert len(again) == 1 and again[0].actions > first[0].actions
    assert main([*base, "--seed", "6", "--new"]) == 0
    assert len(open_store(tmp_path).games()) == 2
    capsys.readouterr()
    assert main([*base, "--resume", "7"]) == 2
    assert "no saved game 7" in capsys.readouterr().err


def test_sim_without_a_journal_option_saves_nothing_for_scripts(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    script = tmp_path / "script.txt"
    script.write_text("wait 1\n")
    assert main(["sim", "--script", str(script), "--bots", "1,2", "--seed", "2"]) == 0
    assert not (tmp_path / "xdg").exists()


def _crashed_game(data_dir: Path) -> str:
    """A table game with a journal, dropped without closing (a power cut); returns the digest it showed."""
    journal = GameJournal(data_dir)
    table = SimulatedTable("italian", 3, seed=8, bots=(0, 1, 2), think_time=0.1, journal=journal)
    table.advance(20)
    digest = table.game.digest()
    table.close()
    return digest


@pytest.mark.parametrize("answer", ["roll", "cancel"])
def test_the_table_asks_roll_resumes_cancel_starts_new(tmp_path: Path, answer: str) -> None:
    shown = _crashed_game(tmp_path)
    warnings: list[str] = []
    start = open_for_play(tmp_path, None, warnings.append)
    assert start.offer is not None and start.game is not None and start.game.digest() == shown and not warnings
    with SimulatedTable(game=start.game, bots=(1, 2), think_time=0.1, journal=start.journal) as table:
        table.router.on(Answered, offer_resume(
            table.referee, start.journal, start.offer,
            lambda: new_game(load_ruleset("classic"), table.game.map, 2, random.Random(1))))
        table.advance(2)
        assert table.game.digest() == shown                  # nobody plays while the question is open
        assert PROMPT_YES in table.ring() and "ROLL resumes it" in table.status().pending
        table.tap(table.game.map.id(0))
        assert table.game.digest() == shown
        table.press(answer)
        table.advance(3)
        games = {g.id: g for g in open_store(tmp_path).games()}
        if answer == "roll":
            assert table.game.rules.name == "italian" and len(games) == 1 and games[1].status == "playing"
            assert table.game.log[: len(start.game.log)] == start.game.log
        else:
            assert table.game.rules.name == "classic" and games[1].status == "abandoned"
            if len(table.game.log) == 1:                     # nobody moved yet: the new game is not saved yet
                assert 2 not in games
                table.tap(next(t.id for t in table.game.map.territories
                               if table.game.owner[table.game.map.index(t.id)] == table.game.current))
                games = {g.id: g for g in open_store(tmp_path).games()}
            assert games[2].status == "playing" and games[2].actions == len(table.game.log) > 1
    start.journal.close()
