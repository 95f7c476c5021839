"""`conquista odds` and `conquista dice audit` through the real entry point."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.dice.sources import CommittedDice
from conquista.rules.odds import blitz_odds, odds_table
from conquista.rules.rulesets import load_ruleset

from . import logs

SEED = bytes.fromhex("c0ffee" * 10 + "00ff")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str) -> str:
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ------------------------------------------------------------------------------------------------- odds

def test_odds_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "10", "5")
    assert code == 0
    wins = blitz_odds(load_ruleset("italian"), 10, 5).attacker_wins
    assert f"{wins * 100:6.2f} %" in out
    assert "10 attacking (9 may fight) against 5 defending" in out


def test_odds_json_matches_the_module(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "12", "7", "--rules", "classic", "--stop-at", "3", "--json")
    assert code == 0
    data = json.loads(out)
    odds = blitz_odds(load_ruleset("classic"), 12, 7, stop_at=3)
    assert data["attacker_wins"] == odds.attacker_wins
    assert data["expected_attacker_losses"] == odds.expected_attacker_losses
    assert data["expected_defender_losses"] == odds.expected_defender_losses
    assert sum(data["defender_survivors"].values()) == pytest.approx(1.0)
    assert data["stop_at"] == 3 and "attacker_wins_exact" not in data


def test_odds_exact_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "6", "4", "--exact", "--json")
    assert code == 0
    data = json.loads(out)
    exact = blitz_odds(load_ruleset("italian"), 6, 4, exact=True)
    assert Fraction(data["attacker_wins_exact"]) == exact.attacker_wins
    assert data["attacker_wins"] == float(exact.attacker_wins)
    assert Fraction(data["expected_defender_losses_exact"]) == exact.expected_defender_losses


def test_odds_exact_text_prints_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "2", "1", "--exact")
    assert code == 0 and "= 5/12" in out


def test_odds_edge_cases_have_answers(capsys: pytest.CaptureFixture[str]) -> None:
    assert json.loads(run(capsys, "odds", "1", "3", "--json")[1])["attacker_wins"] == 0.0
    assert json.loads(run(capsys, "odds", "4", "0", "--json")[1])["attacker_wins"] == 1.0


def test_odds_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--table", "6", "--rules", "french-1976")
    assert code == 0
    rows = [line for line in out.splitlines() if line[:3].strip().isdigit()]
    assert len(rows) == 6
    table = odds_table(load_ruleset("french-1976"), 6)
    assert rows[3].split()[1:] == [f"{p * 100:.1f}" for p in table[3]]


def test_odds_table_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--table", "5", "--json", "--exact")
    assert code == 0
    cells = json.loads(out)["attacker_wins"]
    assert [Fraction(c) for c in cells[4]] == list(odds_table(load_ruleset("italian"), 5, exact=True)[4])


def test_odds_table_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    picture = tmp_path / "odds.png"
    code, out, _ = run(capsys, "odds", "--table", "10", "--plot", str(picture))
    assert code == 0 and f"heatmap written to {picture}" in out
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_odds_plot_without_matplotlib(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # A None entry in sys.modules makes the import fail as if the package were not installed.
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    code, _, err = run(capsys, "odds", "--table", "4", "--plot", str(tmp_path / "x.png"))
    assert "pip install 'conquista[plot]'" in one_line_error(code, err)
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["odds", "5"], "give ATTACKING and DEFENDING"),
        (["odds"], "give ATTACKING and DEFENDING"),
        (["odds", "5", "3", "--table", "4"], "not both"),
        (["odds", "5", "3", "--stop-at", "0"], "--stop-at must be at least 1"),
        (["odds", "0", "3"], "ATTACKING counts the armies on a territory, at least 1"),
        (["odds", "5", "-1"], "DEFENDING must be 0 or more"),
        (["odds", "5", "3", "--plot", "x.png"], "--plot draws the table"),
        (["odds", "--table", "0"], "--table N needs N of at least 1"),
        (["odds", "5", "3", "--rules", "monopoly"], "unknown ruleset 'monopoly'"),
        (["odds", "five", "3"], "invalid int value"),
    ],
)
def test_odds_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    try:
        code, _, err = run(capsys, *argv)
    except SystemExit as exc:  # argparse's own errors leave through SystemExit(2)
        code, err = int(exc.code or 0), capsys.readouterr().err
    assert message in one_line_error(code, err)


# ------------------------------------------------------------------------------------------- dice audit

def committed_log(tmp_path: Path, reveal: bool = True) -> tuple[Path, list[dict[str, object]]]:
    source = CommittedDice(SEED)
    lines = [logs.header(source="committed", commitment=source.commitment), *logs.battle_lines(source, 120)]
    if reveal:
        lines.append(source.reveal_record())
    return logs.write(tmp_path / "game.jsonl", lines), lines


def test_audit_passes_an_honest_log(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, _ = committed_log(tmp_path)
    code, out, _ = run(capsys, "dice", "audit", str(path))
    assert code == 0
    assert "gives all 120 committed rolls" in out
    assert out.strip().endswith("PASS")


def test_audit_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, _ = committed_log(tmp_path, reveal=False)
    code, out, _ = run(capsys, "dice", "audit", str(path), "--verify-seed", SEED.hex(), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["passed"] is True and data["rolls"] == 120
    assert data["seed"]["rolls_checked"] == 120 and data["seed"]["first_mismatch"] is None
    assert set(data["faces"]) == {"attack", "defend"}
    assert sum(data["faces"]["attack"]["counts"].values()) == data["faces"]["attack"]["dice"]
    assert len(data["roll_outcomes"]) == 120


def test_audit_names_a_tampered_roll(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, lines = committed_log(tmp_path)
    rolls = [i for i, line in enumerate(lines) if line.get("type") == "roll"]
    victim = lines[rolls[33]]
    assert isinstance(victim["defend"], list)
    victim["defend"] = [1] * len(victim["defend"]) if victim["defend"][0] != 1 else [2] * len(victim["defend"])
    logs.write(path, lines)
    code, out, _ = run(capsys, "dice", "audit", str(path))
    assert code == 1
    assert f"{path} line {rolls[33] + 1}: committed roll #33" in out
    assert "FAIL" in out


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        ("not a log\n", [], "not a conquista game log"),
        (None, ["--verify-seed", "ab" * 32], "does not match the commitment"),
        (None, ["--verify-seed", "xyz"], "--verify-seed 'xyz' is not a hexadecimal string"),
    ],
)
def test_audit_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               content: str | None, extra: list[str], message: str) -> None:
    path, _ = committed_log(tmp_path, reveal=False)
    if content is not None:
        path.write_text(content, "utf-8")
    code, out, err = run(capsys, "dice", "audit", str(path), *extra)
    assert message in one_line_error(code, err)
    assert out == ""


def test_dice_without_action(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "dice")
    assert "choose an action" in one_line_error(code, err)
