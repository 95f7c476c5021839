"""`dice audit --verify-seed` checks the whole committed stream (issue 9 §2): the deal against `committed_deal`, each
card draw against the committed draw stream (the game replayed to know the pile), each roll; the first wrong line is
named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conquista.cli import main
from conquista.dice.audit import audit_log
from conquista.dice.chance import new_game
from conquista.dice.sources import CommittedDice
from conquista.rules.actions import Draw
from conquista.rules.engine import Game
from conquista.rules.gamelog import dump_lines
from conquista.rules.rulesets import load_ruleset
from conquista.rules.serialize import card_id, decode_action
from conquista.table.referee import Referee
from tests.journal.helpers import play
from tests.rules.helpers import MAP

SEED = bytes(range(100, 132))


@pytest.fixture(scope="module")
def committed_log() -> list[dict[str, Any]]:
    """A whole italian game (three greedy bots) with committed dice: deal, draws and rolls from SEED."""
    dice = CommittedDice(SEED)
    referee = Referee(new_game(load_ruleset("italian"), MAP, 3, dice), dice)
    play(referee, 3000)
    lines = [json.loads(line) for line in dump_lines(referee.game, dice.header())]
    assert dice.draws >= 3 and dice.rolls > 50
    return lines


def write(tmp_path: Path, lines: list[dict[str, Any]]) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    return path


def first_line(lines: list[dict[str, Any]], kind: str, nth: int = 0) -> int:
    return [i for i, line in enumerate(lines) if line.get("type") == kind][nth]


def test_an_honest_committed_game_verifies_deal_draws_and_rolls(committed_log: list[dict[str, Any]],
                                                                tmp_path: Path) -> None:
    report = audit_log(write(tmp_path, committed_log), verify_seed=SEED.hex())
    seed = report.seed
    assert seed is not None and report.passed, report.failures()
    draws = sum(line.get("type") == "draw" for line in committed_log)
    assert seed.deal_checked and seed.draws_checked == draws >= 3 and seed.rolls_checked == report.rolls
    assert seed.not_checked == "" and seed.first_chance_mismatch is None


def test_a_tampered_deal_is_named(committed_log: list[dict[str, Any]], tmp_path: Path) -> None:
    lines = json.loads(json.dumps(committed_log))
    deal = lines[1]
    deal["order"][0], deal["order"][1] = deal["order"][1], deal["order"][0]
    report = audit_log(write(tmp_path, lines), verify_seed=SEED.hex())
    assert report.seed is not None and report.seed.first_chance_mismatch is not None
    assert (report.seed.first_chance_mismatch.line, report.seed.first_chance_mismatch.kind) == (2, "deal")
    assert not report.passed and f"{tmp_path / 'game.jsonl'} line 2: the deal is not the one the seed deals " \
                                  f"(territory order" in report.failures()[0]


def test_a_tampered_draw_is_named(committed_log: list[dict[str, Any]], tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    lines = json.loads(json.dumps(committed_log))
    victim = first_line(lines, "draw", 1)
    # Another card of the pile it was drawn from: a draw the engine accepts, but not the stream's.
    game: Game | None = None
    for obj in lines[1:victim]:
        action = decode_action(obj, MAP)
        if game is None:
            game = Game(load_ruleset("italian"), MAP, 3, action)  # type: ignore[arg-type]
        else:
            game.apply(action)
    assert game is not None
    pile = game.deck if game.deck else game.discard
    logged = decode_action(lines[victim], MAP)
    assert isinstance(logged, Draw)
    other = next(card for card in pile if card != logged.card)
    lines[victim] = {"type": "draw", "card": card_id(MAP, other)}
    path = write(tmp_path, lines)
    report = audit_log(path, verify_seed=SEED.hex())
    mismatch = report.seed.first_chance_mismatch if report.seed is not None else None
    assert mismatch is not None and (mismatch.line, mismatch.kind, mismatch.index) == (victim + 1, "draw", 1)
    assert not report.passed
    assert main(["dice", "audit", str(path), "--verify-seed", SEED.hex()]) == 1
    out = capsys.readouterr().out
    assert f"{path} line {victim + 1}: committed card draw #1 is " in out and "FAIL" in out


def test_a_tampered_roll_is_named(committed_log: list[dict[str, Any]], tmp_path: Path) -> None:
    lines = json.loads(json.dumps(committed_log))
    victim = first_line(lines, "roll", 5)
    lines[victim]["attack"] = [7 - die for die in lines[victim]["attack"]]
    report = audit_log(write(tmp_path, lines), verify_seed=SEED.hex())
    assert report.seed is not None and report.seed.first_mismatch is not None
    assert report.seed.first_mismatch.line == victim + 1
    assert f"line {victim + 1}: committed roll #5" in report.failures()[0]


def test_the_first_wrong_line_comes_first(committed_log: list[dict[str, Any]], tmp_path: Path) -> None:
    lines = json.loads(json.dumps(committed_log))
    roll = first_line(lines, "roll", 0)
    lines[roll]["defend"] = [7 - die for die in lines[roll]["defend"]]
    lines[1]["first_player"] = (lines[1]["first_player"] + 1) % 3
    failures = audit_log(write(tmp_path, lines), verify_seed=SEED.hex()).failures()
    assert len(failures) == 2 and "line 2: the deal" in failures[0] and f"line {roll + 1}: committed roll" \
        in failures[1]


def test_a_log_committed_before_the_deal_was_is_checked_on_its_rolls(committed_log: list[dict[str, Any]],
                                                                      tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    lines = json.loads(json.dumps(committed_log))
    del lines[0]["dice"]["covers"]
    path = write(tmp_path, lines)
    report = audit_log(path, verify_seed=SEED.hex())
    assert report.passed and report.seed is not None and not report.seed.deal_checked
    assert "covers the rolls only" in report.seed.not_checked
    assert main(["dice", "audit", str(path), "--verify-seed", SEED.hex()]) == 0
    assert "committed deal and card draws: not checked" in capsys.readouterr().out
