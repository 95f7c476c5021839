"""`conquista rules` lists lamorisse-1954 and `conquista simulate` plays it with eight greedy bots to the end."""

from __future__ import annotations

import json

import pytest

from conquista.cli import main


def test_rules_lists_the_1954_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    line = next(row for row in capsys.readouterr().out.splitlines() if row.startswith("lamorisse-1954"))
    assert "2-8 players" in line


def test_eight_greedy_bots_finish_every_game_before_the_turn_cap(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--rules", "lamorisse-1954", "--players", "8", "--bots", "greedy", "--games", "10",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cut_at_turn_cap"] == 0 and sum(data["wins"]) == 10


@pytest.mark.parametrize("players", [2, 7])
def test_other_table_sizes_finish_too(capsys: pytest.CaptureFixture[str], players: int) -> None:
    assert main(["simulate", "--rules", "lamorisse-1954", "--players", str(players), "--bots", "greedy,planner",
                 "--games", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cut_at_turn_cap"] == 0
