"""`conquista replay` ends a finished game with its luck report, in words and in its JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.dice.luck import luck_report
from conquista.rules.gamelog import read_log

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.mark.parametrize("name", ["italian-3p", "lamorisse-1954-8p"])
def test_replay_prints_the_luck_report(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = GOLDEN / f"{name}.jsonl"
    game = read_log(path)[1]
    report = luck_report(game)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\n".join(report.lines()) in out
    assert all(p.words() in out for p in report.players) and "The dice: " in out
    assert main(["replay", str(path), "--json"]) == 0
    luck = json.loads(capsys.readouterr().out)["luck"]
    assert luck == report.to_json()
    # Every army lost in a battle is someone's: the report loses none (with fleets too).
    assert sum(p.lost for p in report.players) <= game.lost_total
    assert sum(p.lost for p in report.players) == sum(p.destroyed for p in report.players)
