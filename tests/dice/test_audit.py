"""The dice audit: honest logs pass, biased sources and tampered rolls are caught, bad input is one clear line."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from conquista.dice.audit import AuditError, audit_log, audit_records
from conquista.dice.sources import CommittedDice, SeededDice
from conquista.rules.odds import roll_odds

from . import logs

SEED = bytes.fromhex("5eed" * 16)
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FIXTURE = Path(__file__).resolve().parent / "data" / "committed-italian.jsonl"


def committed_game(rolls: int = 300, reveal: bool = True, seed: bytes = SEED) -> list[dict[str, Any]]:
    source = CommittedDice(seed)
    lines = [logs.header(source="committed", commitment=source.commitment), *logs.battle_lines(source, rolls)]
    if reveal:
        lines.append(source.reveal_record())
    return lines


def roll_lines(lines: list[dict[str, Any]]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.get("type") == "roll"]


class LoadedDefence:
    """A defender's die that shows 6 a quarter of the time (1/6 when fair): the faces give it away."""

    name = "loaded"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def roll(self, attack: int, defend: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        r = self.rng
        red = tuple(r.randint(1, 6) for _ in range(attack))
        blue = tuple(6 if r.random() < 0.1 else r.randint(1, 6) for _ in range(defend))
        return red, blue


class MirroredDice:
    """Every face of each colour is uniform, but each blue die mirrors a red one (7 - red): 1 vs 1 the attacker
    wins half the time instead of 15/36. Only the outcome test against the exact odds can see it."""

    name = "mirrored"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def roll(self, attack: int, defend: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        red = tuple(self.rng.randint(1, 6) for _ in range(attack))
        blue = tuple(7 - red[i % attack] if i < attack else self.rng.randint(1, 6) for i in range(defend))
        return red, blue


# ------------------------------------------------------------------------------------------- honest logs

def test_honest_committed_game_passes_and_every_roll_is_verified(tmp_path: Path) -> None:
    lines = committed_game()
    report = audit_log(logs.write(tmp_path / "game.jsonl", lines))
    assert report.passed, report.failures()
    assert report.rolls == 300 and report.rolls_by_source == {"committed": 300}
    assert report.seed is not None and report.seed.seed_from.startswith("line ")
    assert report.seed.rolls_checked == 300 and report.seed.first_mismatch is None
    assert report.faces[0].dice == sum(len(line["attack"]) for line in lines if line.get("type") == "roll")


def test_seed_given_on_the_command_line_verifies_an_unrevealed_log(tmp_path: Path) -> None:
    path = logs.write(tmp_path / "game.jsonl", committed_game(reveal=False))
    assert audit_log(path).seed is None
    report = audit_log(path, verify_seed=SEED.hex())
    assert report.seed is not None and report.seed.seed_from == "--verify-seed"
    assert report.seed.rolls_checked == 300 and report.passed


@pytest.mark.parametrize("name", sorted(p.name for p in GOLDEN.glob("*.jsonl")))
def test_the_engines_golden_logs_pass(name: str) -> None:
    report = audit_log(GOLDEN / name)
    assert report.rolls > 100
    assert report.passed, report.failures()


def test_committed_fixture_still_verifies() -> None:
    """A log written once with a fixed seed: if the committed scheme ever changes, old games stop verifying."""
    report = audit_log(FIXTURE)
    assert report.seed is not None and report.seed.rolls_checked == report.rolls > 0
    assert report.passed


def test_each_roll_is_reported_with_the_exact_probability_of_its_outcome() -> None:
    lines = [logs.header(), {"type": "roll", "attack": [6, 3, 2], "defend": [5, 4], "source": "seeded"},
             {"type": "roll", "attack": [2], "defend": [2, 1, 1], "source": "seeded"}]
    report = audit_records(logs.records(lines))
    first, second = report.roll_outcomes
    assert (first.line, first.attacker_losses, first.defender_losses) == (2, 1, 1)
    assert first.probability == Fraction(2611, 7776)
    assert (second.attacker_losses, second.defender_losses) == (1, 0)
    assert second.probability == roll_odds(1, 3, exact=True)[1, 0]
    combo = {(c.attack_dice, c.defend_dice): c for c in report.combinations}
    assert combo[3, 2].rolls == 1 and not combo[3, 2].tested


def test_other_lines_are_ignored() -> None:
    base = [logs.header(), *logs.battle_lines(SeededDice(3), 50, chatter=False)]
    chatty = [logs.header(), *logs.battle_lines(SeededDice(3), 50, chatter=True),
              {"meta": "note", "text": "coffee break"}, {"type": "future_action", "x": 1}]
    a, b = audit_records(logs.records(base)), audit_records(logs.records(chatty))
    assert a.faces == b.faces and a.combinations == b.combinations


# ------------------------------------------------------------------------------------------ biased dice

def test_a_loaded_die_is_caught_by_its_faces() -> None:
    lines = [logs.header(source="loaded"), *logs.battle_lines(LoadedDefence(1), 3000)]
    report = audit_records(logs.records(lines))
    assert not report.passed
    failures = report.failures()
    assert any(f.startswith("defend dice faces are not uniform") for f in failures), failures
    assert not any(f.startswith("attack dice faces") for f in failures)


def test_mirrored_dice_pass_the_faces_but_not_the_odds() -> None:
    lines = [logs.header(source="mirrored"), *logs.battle_lines(MirroredDice(2), 3000)]
    report = audit_records(logs.records(lines))
    assert all(f.tested and f.p_value >= report.threshold for f in report.faces)
    assert not report.passed
    assert any("outcomes differ from the exact odds" in f for f in report.failures())


def test_fair_seeded_dice_of_the_same_size_pass() -> None:
    # The same sample sizes as the two tests above, with fair dice: the audit does not cry wolf.
    for seed in range(3):
        lines = [logs.header(), *logs.battle_lines(SeededDice(seed), 3000)]
        report = audit_records(logs.records(lines))
        assert report.passed, report.failures()


# -------------------------------------------------------------------------------------- tampered rolls

@pytest.mark.parametrize("victim", [0, 57, 299])
def test_a_tampered_roll_is_caught_and_named(tmp_path: Path, victim: int) -> None:
    lines = committed_game()
    position = roll_lines(lines)[victim]
    roll = lines[position]
    original = list(roll["attack"])
    roll["attack"] = [6] * len(original) if original != [6] * len(original) else [1] * len(original)
    report = audit_log(logs.write(tmp_path / "game.jsonl", lines))
    assert report.seed is not None and report.seed.mismatches == 1
    mismatch = report.seed.first_mismatch
    assert mismatch is not None
    assert (mismatch.line, mismatch.index) == (position + 1, victim)
    assert list(mismatch.expected[0]) == original
    assert not report.passed
    assert f"line {position + 1}: committed roll #{victim}" in report.failures()[-1]


def test_the_first_of_several_tampered_rolls_is_named() -> None:
    lines = committed_game()
    positions = roll_lines(lines)
    for victim in (40, 12, 200):
        lines[positions[victim]]["defend"] = [7 - die for die in lines[positions[victim]]["defend"]]
    report = audit_records(logs.records(lines))
    assert report.seed is not None and report.seed.first_mismatch is not None
    assert report.seed.first_mismatch.index == 12 and report.seed.mismatches >= 2


def test_swapped_rolls_are_caught() -> None:
    lines = committed_game()
    positions = roll_lines(lines)
    i, j = positions[10], positions[11]
    lines[i], lines[j] = lines[j], lines[i]
    report = audit_records(logs.records(lines))
    assert report.seed is not None and report.seed.first_mismatch is not None
    assert report.seed.first_mismatch.index == 10


# -------------------------------------------------------------------------------------------- bad input

def bad(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.jsonl"
    path.write_text(text, "utf-8")
    return path


def header_line(**changes: Any) -> str:
    head = logs.header()
    head.update(changes)
    return json.dumps(head) + "\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty file, not a conquista game log"),
        ("hello world\n", "not a conquista game log (line 1: not valid JSON"),
        ('{"format": "something-else"}\n', "not a conquista game log (line 1 has no \"format\""),
        ("[1, 2]\n", "line 1: expected a JSON object"),
        (header_line(version=2), "line 1: log version 2 is not supported"),
        (header_line(ruleset="italian"), "line 1: the header has no \"ruleset\" object"),
        (header_line(dice="os"), "line 1: \"dice\" must be an object"),
        (header_line() + "{not json\n", "line 2: not valid JSON"),
        (header_line() + '{"type": "roll", "attack": [6, 7], "defend": [1]}\n', "line 2: roll has attack die 7"),
        (header_line() + '{"type": "roll", "attack": [6, 6, 6, 6], "defend": [1]}\n',
         "line 2: roll has 4 attack dice; the ruleset allows 1 to 3"),
        (header_line() + '{"type": "roll", "attack": [6], "defend": []}\n', "line 2: roll needs 'defend'"),
        (header_line() + '{"type": "roll", "attack": [6], "defend": [true]}\n', "roll has defend die True"),
        (header_line() + '{"meta": "dice_reveal", "seed": 12}\n', "line 2: dice_reveal needs \"seed\""),
    ],
)
def test_bad_logs_are_one_line_errors(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(AuditError) as caught:
        audit_log(bad(tmp_path, text))
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert str(tmp_path / "bad.jsonl") in str(caught.value)


def test_missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(AuditError, match="cannot read the log"):
        audit_log(tmp_path / "nope.jsonl")


def test_binary_file_is_not_a_game_log(tmp_path: Path) -> None:
    path = tmp_path / "noise.jsonl"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(AuditError, match="not a conquista game log"):
        audit_log(path)


def test_a_seed_that_does_not_match_the_commitment_is_an_error(tmp_path: Path) -> None:
    path = logs.write(tmp_path / "game.jsonl", committed_game(reveal=False))
    with pytest.raises(AuditError, match="the seed given to --verify-seed does not match the commitment"):
        audit_log(path, verify_seed="ab" * 32)
    with pytest.raises(AuditError, match="--verify-seed 'zz' is not a hexadecimal string"):
        audit_log(path, verify_seed="zz")


def test_a_revealed_seed_that_does_not_match_is_an_error(tmp_path: Path) -> None:
    lines = [*committed_game(reveal=False), {"meta": "dice_reveal", "seed": "00" * 32}]
    path = logs.write(tmp_path / "game.jsonl", lines)
    with pytest.raises(AuditError, match=rf"the seed revealed on line {len(lines)} does not match the commitment"):
        audit_log(path)


def test_a_seed_for_a_log_without_commitment_is_an_error(tmp_path: Path) -> None:
    path = logs.write(tmp_path / "game.jsonl", [logs.header(source="os"), *logs.battle_lines(SeededDice(1), 5)])
    with pytest.raises(AuditError, match="the dice source is 'os', not 'committed'"):
        audit_log(path, verify_seed=SEED.hex())


# ---------------------------------------------------------------------------------- whole battles (blitzes)

def test_blitz_outcomes_against_their_exact_odds() -> None:
    from conquista.dice.audit import audit_log
    from conquista.dice.battles import battles_in_log

    golden = Path(__file__).resolve().parents[1] / "golden" / "classic-2p.jsonl"
    battles = battles_in_log(golden)
    assert len(battles) > 50
    assert all(0.0 <= b.probability <= 1.0 and b.attacking >= 2 for b in battles)
    report = audit_log(golden)
    assert report.battles is not None and report.battles.tested and report.passed
    assert report.to_json()["battles"]["blitzes"] == len(battles)


def test_a_table_that_wins_too_many_blitzes_is_caught() -> None:
    from conquista.dice.battles import Battle, battle_test

    # Rolls can each look plausible while whole battles are steered: conquests far above their odds fail.
    steered = [Battle(i, 4, 4, 1, True, 0.3) for i in range(60)]
    result = battle_test(steered)
    assert result.tested and result.p_value < 1e-6 and result.observed == 60
    fair = [Battle(i, 4, 4, 1, i % 10 < 3, 0.3) for i in range(60)]
    assert battle_test(fair).p_value > 0.5


def test_a_log_of_rolls_only_skips_the_battle_test(tmp_path: Path) -> None:
    from conquista.dice.battles import battle_test_for_log

    path = tmp_path / "rolls.jsonl"
    path.write_text('{"format": "conquista-log", "version": 1}\n{"type": "roll", "attack": [6], "defend": [1]}\n')
    result = battle_test_for_log(path)
    assert not result.tested and "not replayable" in result.note
