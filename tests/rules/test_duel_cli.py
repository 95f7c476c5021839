"""The duel at the command line: `rules` lists it, `simulate` plays it (and classic with the neutral army from a
ruleset file of one's own), its logs replay, read in words and pass the dice audit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.rules.gamelog import read_log
from conquista.table.logview import describe_game

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "french-1976-duel-2p.jsonl"


def test_rules_lists_the_duel(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("french-1976-duel "))
    assert " 2 players " in line and "neutral army" in line
    assert main(["rules", "french-1976-duel", "--json"]) == 0
    params = json.loads(capsys.readouterr().out)
    assert params["neutral_army"] is True and params["neutral_reinforcement_rounding"] == "down"


def test_simulate_the_duel_and_replay_its_logs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["simulate", "--rules", "french-1976-duel", "--players", "2", "--games", "3", "--bots",
                 "greedy,random", "--save-logs", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cut_at_turn_cap"] == 0 and sum(data["wins"]) == 3
    for log in sorted(tmp_path.glob("*.jsonl")):
        header, game = read_log(log)
        assert header.rules.name == "french-1976-duel" and game.over
        assert main(["replay", str(log), "--json"]) == 0
        capsys.readouterr()


def test_classic_with_a_neutral_army_from_a_ruleset_file(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    rules = tmp_path / "classic-neutral.toml"
    rules.write_text('extends = "classic"\nneutral_army = true\n')
    assert main(["simulate", "--rules", str(rules), "--players", "2", "--games", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cut_at_turn_cap"] == 0
    assert main(["simulate", "--rules", str(rules), "--players", "3", "--games", "1"]) == 2
    assert "two-player game" in capsys.readouterr().err


def test_a_duel_log_passes_the_dice_audit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "audit", str(GOLDEN), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["passed"] is True and report["rolls"] > 100


def test_a_duel_log_in_words_names_the_neutral_army() -> None:
    _, game = read_log(GOLDEN)
    lines = list(describe_game(game))
    assert lines[0] == "french-1976-duel, 2 players: red 14 territories, blue 14 territories, neutral 14 territories"
    text = "\n".join(lines)
    assert "the neutral army receives" in text and "acts for the neutral army" in text
    assert "neutral conquers" in text and "yellow" not in text
