"""`conquista simulate`: its fields, determinism, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conquista.cli import main

FIELDS = {"games", "seconds", "games_per_second", "actions_per_second", "mean_turns", "wins", "cut_at_turn_cap"}


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["simulate", *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


def test_json_fields_and_determinism(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--rules", "classic", "--players", "3", "--games", "6", "--seed", "9", "--bots", "greedy,random")
    first, second = _run(capsys, *args), _run(capsys, *args)
    assert FIELDS <= set(first)
    timing = {"seconds", "games_per_second", "actions_per_second"}
    assert {k: v for k, v in first.items() if k not in timing} == {k: v for k, v in second.items() if k not in timing}
    wins = first["wins"]
    assert isinstance(wins, list) and sum(wins) + first["cut_at_turn_cap"] == 6  # type: ignore[operator]


def test_different_seed_different_games(capsys: pytest.CaptureFixture[str]) -> None:
    a = _run(capsys, "--rules", "italian", "--players", "4", "--games", "5", "--seed", "1")
    b = _run(capsys, "--rules", "italian", "--players", "4", "--games", "5", "--seed", "2")
    assert (a["actions"], a["wins"]) != (b["actions"], b["wins"])


def test_turn_cap_cuts_games(capsys: pytest.CaptureFixture[str]) -> None:
    data = _run(capsys, "--rules", "italian", "--players", "6", "--games", "3", "--bots", "random", "--turn-cap", "3")
    assert data["cut_at_turn_cap"] == 3 and data["wins"] == [0] * 6


def test_saved_logs_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _run(capsys, "--rules", "french-1976-duel", "--players", "2", "--games", "2", "--save-logs", str(tmp_path))
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 2
    assert main(["replay", str(logs[0]), "--json"]) == 0


def test_save_logs_into_a_file_is_refused_before_any_game(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    # Regression: an existing file given as --save-logs raised FileExistsError after every game had been played.
    target = tmp_path / "logs"
    target.write_text("mine\n")
    assert main(["simulate", "--games", "2", "--save-logs", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(target) in err and "not a directory" in err
    assert target.read_text() == "mine\n"


def test_save_logs_says_what_it_wrote(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "new" / "logs"
    assert main(["simulate", "--games", "3", "--seed", "4", "--save-logs", str(target)]) == 0
    out = capsys.readouterr().out
    assert f"wrote 3 game logs (JSON Lines) to {target}: game-4-00000.jsonl .. game-4-00002.jsonl" in out
    assert len(list(target.glob("*.jsonl"))) == 3


def test_save_logs_with_json_keeps_stdout_one_object(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["simulate", "--games", "1", "--json", "--save-logs", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games"] == 1
    assert f"wrote 1 game log (JSON Lines) to {tmp_path}" in captured.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "nope"], "known rulesets: classic"),
        (["--rules", "classic", "--players", "7"], "2–6 players, not 7"),
        (["--rules", "french-1976-domination", "--players", "2"], "3–6 players, not 2"),
        (["--bots", "clever"], "known bots: easy, normal, hard, planner, greedy, random"),
        (["--games", "0"], "--games must be at least 1"),
        (["--games", "-3"], "--games must be at least 1"),
        (["--games", str(10**12)], "at most 1,000,000"),
        (["--turn-cap", "-1"], "--turn-cap must be 0"),
        # Regression: an empty --bots divided by zero when seats were handed out.
        (["--games", "2", "--bots", ""], "--bots '' names no bot"),
        (["--games", "2", "--bots", " , "], "names no bot"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["simulate", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_console_script_exit_code() -> None:
    proc = subprocess.run([sys.executable, "-m", "conquista", "simulate", "--players", "1"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1
