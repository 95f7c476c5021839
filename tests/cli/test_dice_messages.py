"""What the dice audit and the end of a committed game tell the user (issue 21 §3): the command printed at the end
names the real game and works as printed; a saved game's audit says where its seed is; a log with too few rolls
says there was nothing to test instead of PASS."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from conquista.cli import main
from conquista.cli.table_dice import TableDice

ROOT = Path(__file__).resolve().parents[2]
COMMITTED_LOG = ROOT / "tests/dice/data/committed-italian.jsonl"


@pytest.fixture(scope="module")
def finished_committed_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A committed game played to its end by bots and saved; what `sim` printed."""
    tmp = tmp_path_factory.mktemp("committed")
    script = tmp / "s.txt"
    script.write_text("wait 600\n")
    data = tmp / "data"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["sim", "--script", str(script), "--seed", "4", "--bots", "red,blue,yellow", "--think", "0.05",
                     "--dice", "committed", "--data-dir", str(data)]) == 0
    return data, out.getvalue()


def test_the_end_of_a_committed_game_prints_a_command_that_works_as_printed(
        finished_committed_game: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    data, printed = finished_committed_game
    found = re.search(r"`conquista (dice audit \S+ --data-dir \S+ --verify-seed [0-9a-f]{64})`", printed)
    assert found, printed[-500:]
    assert f" --data-dir {data} " in found.group(1)   # the game's own directory (issue 39 §2)
    assert " ID " not in found.group(1) and found.group(1).startswith("dice audit 1 ")
    assert main(shlex.split(found.group(1))) == 0
    audit = capsys.readouterr().out
    assert "matches the commitment" in audit and audit.rstrip().endswith("PASS")


def test_the_audit_of_a_finished_saved_game_checks_the_seed_the_journal_kept(
        finished_committed_game: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 39 §3: once the game is over its seed is kept with it, so the audit needs no --verify-seed."""
    data, _ = finished_committed_game
    assert main(["dice", "audit", "1", "--data-dir", str(data)]) == 0
    audit = capsys.readouterr().out
    assert "matches the commitment" in audit and "committed deal and card draws: the seed deals this game" in audit
    assert "--verify-seed" not in audit and audit.rstrip().endswith("PASS")


def test_the_audit_of_a_finished_game_without_its_seed_kept_says_where_it_is(
        finished_committed_game: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A journal from before seeds were kept (the table dropped): the seed was shown at the end."""
    data, _ = finished_committed_game
    copy = tmp_path / "old"
    copy.mkdir()
    with sqlite3.connect(data / "games.sqlite3") as source, sqlite3.connect(copy / "games.sqlite3") as target:
        source.backup(target)
        target.execute("DROP TABLE revealed_seeds")
    assert main(["dice", "audit", "1", "--data-dir", str(copy)]) == 0
    audit = capsys.readouterr().out
    assert "not revealed in the log" not in audit
    assert "the journal kept no seed for this game; the seed was shown when it ended" in audit
    assert f"`conquista dice audit 1 --data-dir {copy} --verify-seed SEED`" in audit


def test_the_revealed_seed_without_a_saved_game_points_to_its_log() -> None:
    lines: list[str] = []
    dice = TableDice("committed", None, None, lines.append)
    dice.start_new()
    dice.finish(over=True)
    assert "`conquista dice audit GAME.jsonl --verify-seed" in lines[-1] and "not saved" in lines[-1]
    from conquista.journal import journal_path

    journal: Any = SimpleNamespace(game_id=12, forget_dice_secret=lambda: None, dice_header=None,
                                   new_dice_secret=None, path=journal_path())
    dice = TableDice("committed", None, journal, lines.append)
    dice.start_new()
    dice.finish(over=True)
    assert "`conquista dice audit 12 --verify-seed " in lines[-1]


def test_an_audit_with_too_few_rolls_says_there_is_nothing_to_test(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Physical dice typed in for a few battles: no test can run, and PASS would vouch for nothing."""
    lines = COMMITTED_LOG.read_text().splitlines()
    header = json.loads(lines[0])
    header["dice"] = {"source": "physical"}
    body = [line.replace('"committed"', '"physical"') for line in lines[1:12] if '"meta"' not in line]
    path = tmp_path / "physical.jsonl"
    path.write_text("\n".join([json.dumps(header), *body]) + "\n")
    assert main(["dice", "audit", str(path)]) == 0
    out = capsys.readouterr().out
    assert "tests run: none" in out
    assert out.rstrip().splitlines()[-1].startswith("NOTHING TO TEST: ")
    assert "PASS" not in out
