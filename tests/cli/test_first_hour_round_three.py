"""What a newcomer meets in the messages, round three (issue 39): a ruleset for one count of players needs no
--players, and a refusal is the one line said; every command printed runs as printed."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.journal import GameJournal
from tests.journal.helpers import attach, bot_referee, play
from tests.terminal_session import CONQUISTA


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


PRINTED = re.compile(r"`([^`]*\bconquista [^`]*)`")
TEMPLATE = re.compile(r"\b[A-Z]{2,}\b")   # SEED, LOG, ID: a command's form, not one to run as it is


def _conquista(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CONQUISTA), *argv], capture_output=True, text=True, env=env, timeout=300,
                          check=False)


def test_every_command_printed_runs_as_printed(tmp_path: Path) -> None:
    """The commands a game saved in --data-dir D prints (the committed seed's audit at the end, a finished game's
    replay, the list of games) name D: run as printed, each finds the game (the default directory is empty)."""
    data = tmp_path / "D"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "elsewhere")}
    said = [_conquista("sim", "--demo", "--dice", "committed", "--seed", "4", "--data-dir", str(data), env=env),
            _conquista("sim", "--resume", "1", "--data-dir", str(data), env=env),
            _conquista("games", "show", "9", "--data-dir", str(data), env=env)]
    commands = [command for run in said for command in PRINTED.findall(run.stdout + run.stderr)
                if not TEMPLATE.search(command)]
    assert any(" dice audit 1" in command for command in commands), commands
    assert any(" replay 1" in command for command in commands), commands
    assert any(command.endswith(" games" + f" --data-dir {data}") for command in commands), commands
    for command in commands:
        run = subprocess.run(shlex.split(command), capture_output=True, text=True, env=env, timeout=300,
                             check=False)
        assert run.returncode == 0, (command, run.stderr)
        assert "no saved game" not in run.stdout + run.stderr, command


def test_a_script_prints_what_the_terminal_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 39 §10: `help`, `log 3`, `mission` and `cards` in --script print their lines (they did nothing)."""
    from conquista_sim.terminal import HELP

    script = tmp_path / "s.txt"
    script.write_text("wait 5\nlog 3\nhelp\nmission\ncards\n")
    assert main(["sim", "--rules", "italian", "--players", "3", "--bots", "blue,yellow", "--seed", "7",
                 "--script", str(script)]) == 0
    out = capsys.readouterr().out
    assert HELP in out and "red's mission: " in out and "red's cards:" in out
    # Printed once as it happened, and again by `log 3` (seed 7: yellow's placement is among the last three).
    assert out[:out.index(HELP)].count("yellow places 3 armies on Alaska") == 2


def test_replay_steps_back_and_refuses_a_turn_past_the_end() -> None:
    """Issue 39 §11: `-N` steps back (the board as it was), and `turn N` after the last turn is refused."""
    from rich.console import Console

    from conquista.bots.simulate import play_game
    from conquista.cli.replay_cmd import Jump, parse_jump, step
    from conquista.errors import ConquistaError
    from conquista.rules.mapdata import load_map
    from conquista.rules.rulesets import load_ruleset

    assert parse_jump("-3", 10, 100) == Jump(action=7) and parse_jump("-30", 10, 100) == Jump(action=1)
    with pytest.raises(ConquistaError, match="the game ends in turn 9: there is no turn 12"):
        parse_jump("turn 12", 4, 100, last_turn=9)
    game = play_game(load_ruleset("classic"), load_map(), 2, ["greedy"], "back", turn_cap=0).game
    assert game is not None
    typed = iter(["+9", "-5", f"turn {game.turn + 5}", "turn 2", "turn 1", "q"])
    console = Console(width=140, height=40, record=True, color_system=None)
    step(game, read=lambda prompt: next(typed), console=console)
    text = console.export_text()
    shown = [int(n) for n in re.findall(r"action (\d+)/\d+:", text)]
    turns = [int(t) for t in re.findall(r"· turn (\d+)\n", text)]
    assert shown[:3] == [1, 10, 5], shown
    assert f"there is no turn {game.turn + 5}" in text
    assert turns[3] == 2 and turns[4] == 1 and shown[4] < shown[3], (shown, turns)


def test_games_names_the_seats_and_deletes_one_after_asking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 39 §9: the list says who played which seat; `games delete N` asks (refuses without a terminal unless
    --yes), and removes the game from the journal and its backup alike."""
    import sqlite3

    data = tmp_path / "D"
    for seed in ("1", "2"):
        assert main(["sim", "--demo", "--seed", seed, "--bots", "red:hard,blue:easy", "--data-dir", str(data)]) == 0
    capsys.readouterr()
    assert main(["games", "--data-dir", str(data)]) == 0
    assert "red hard, blue easy, yellow normal" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main(["games", "delete", "1", "--data-dir", str(data)]) == 2
    assert "add --yes to delete it" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    assert main(["games", "delete", "1", "--data-dir", str(data)]) == 1
    monkeypatch.setattr("builtins.input", lambda prompt: "y")
    assert main(["games", "delete", "1", "--data-dir", str(data)]) == 0
    assert "deleted game 1 (italian, 3 players" in capsys.readouterr().out
    for name in ("games.sqlite3", "games.sqlite3.backup"):
        with sqlite3.connect(data / name) as conn:
            assert [gid for (gid,) in conn.execute("SELECT id FROM games")] == [2], name
            assert not conn.execute("SELECT 1 FROM actions WHERE game = 1").fetchone(), name
    assert main(["games", "delete", "2", "--yes", "--data-dir", str(data)]) == 0
    assert main(["games", "--data-dir", str(data)]) == 0
    assert "no saved games" in capsys.readouterr().out
