"""The action log is the save format: golden transcripts replay exactly; corrupt logs name the line and reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conquista.bots.simulate import play_game
from conquista.cli import main
from conquista.errors import LogError
from conquista.rules.gamelog import read_log, write_log
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
EXPECTED = json.loads((GOLDEN / "expected.json").read_text())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_transcripts_replay_exactly(name: str) -> None:
    _header, game = read_log(GOLDEN / name)
    want = EXPECTED[name]
    assert game.over and game.winner == want["winner"] and game.turn == want["turns"]
    assert len(game.log) == want["actions"] and game.digest() == want["digest"]


def test_golden_transcripts_are_what_the_bots_play_today() -> None:
    """Same seed, same bots, same game: the engine and bots are deterministic. The bots play under the rules the
    transcript was recorded with (its header), so a later rule change to `italian` leaves this test's meaning."""
    rules = read_log(GOLDEN / "italian-3p.jsonl")[0].rules
    assert rules.elimination_trade_cards == "any" and not rules.mission_win_out_of_turn  # the rules of the day
    result = play_game(rules, load_map(), 3, ["greedy"], "golden-1", turn_cap=300)
    assert result.game is not None and result.game.digest() == EXPECTED["italian-3p.jsonl"]["digest"]


def _lines() -> list[str]:
    return (GOLDEN / "classic-2p.jsonl").read_text().splitlines()


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_corrupt_json_names_the_line(tmp_path: Path) -> None:
    lines = _lines()
    lines[10] = lines[10][:-3]
    with pytest.raises(LogError, match=r"game.jsonl, line 11: not valid JSON"):
        read_log(_write(tmp_path, lines))


def test_illegal_action_names_the_line_and_reason(tmp_path: Path) -> None:
    lines = _lines()
    roll = next(i for i, line in enumerate(lines) if '"roll"' in line)
    obj = json.loads(lines[roll])
    obj["attack"] = obj["attack"] + [6, 6, 6]
    lines[roll] = json.dumps(obj)
    with pytest.raises(LogError, match=rf"line {roll + 1}: roll .* this roll is"):
        read_log(_write(tmp_path, lines))


def test_unknown_territory_names_the_line(tmp_path: Path) -> None:
    lines = _lines()
    place = next(i for i, line in enumerate(lines) if '"place"' in line)
    lines[place] = lines[place].replace('"territory": "', '"territory": "atlantis_')
    with pytest.raises(LogError, match=rf"line {place + 1}: unknown territory 'atlantis_"):
        read_log(_write(tmp_path, lines))


def test_not_a_log(tmp_path: Path) -> None:
    with pytest.raises(LogError, match="not a conquista game log"):
        read_log(_write(tmp_path, ['{"hello": 1}']))
    with pytest.raises(LogError, match="cannot read the log"):
        read_log(tmp_path / "missing.jsonl")


def test_meta_lines_are_skipped(tmp_path: Path) -> None:
    lines = _lines()
    lines.insert(5, json.dumps({"meta": "note", "text": "a comment"}))
    _header, game = read_log(_write(tmp_path, lines))
    assert game.digest() == EXPECTED["classic-2p.jsonl"]["digest"]


def test_unfinished_game_round_trips(tmp_path: Path) -> None:
    result = play_game(load_ruleset("italian"), load_map(), 4, ["random"], "unfinished", turn_cap=5)
    assert result.cut and result.game is not None
    path = tmp_path / "cut.jsonl"
    write_log(path, result.game)
    _header, game = read_log(path)
    assert game.digest() == result.game.digest() and not game.over


def test_cli_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["replay", str(GOLDEN / "italian-3p.jsonl"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["digest"] == EXPECTED["italian-3p.jsonl"]["digest"]
    assert main(["replay", str(GOLDEN / "italian-3p.jsonl")]) == 0
    assert "wins: mission complete, " in capsys.readouterr().out
    bad = _write(tmp_path, [*_lines()[:3], "{oops"])
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 4" in err and "Traceback" not in err
