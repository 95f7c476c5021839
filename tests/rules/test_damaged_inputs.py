"""Damaged maps, rulesets and game logs (issue 13 §1): each is refused on load with one line naming the file, the
key and the fix; never a traceback (deep nesting, a 5,000-digit number, non-UTF-8 bytes, inf), a hang (a bonus
of 10^12, a billion starting armies) or a silent acceptance (unknown keys, "sea": "no", a territory `jolly1`,
negative or absurd numbers)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conquista.cli import main
from conquista.errors import LogError, MapError, RulesetError
from conquista.rules.gamelog import read_log
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "host/conquista/data/maps/classic-42.json"
GOLDEN_LOG = ROOT / "tests/golden/classic-2p.jsonl"
DEEP = 100_000
HUGE = "9" * 5000


def _map_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(MAP.read_text("utf-8"))
    return data


def _map_error(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "board.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    with pytest.raises(MapError) as err:
        load_map(path)
    message = str(err.value)
    assert message.startswith(f"{path}: ") and "\n" not in message and len(message) < 400, message
    return message


@pytest.mark.parametrize(("text", "expected"), [
    ("[" * DEEP + "]" * DEEP, "nested too deeply"),
    ('{"a": ' * DEEP + "1" + "}" * DEEP, "nested too deeply"),
    (HUGE, "thousands of digits"),
    (b'{"name": "\xff\xfe"}', "not UTF-8"),
    ('{"territories": NaN}', "NaN is not a number JSON allows"),
])
def test_unreadable_maps_are_one_line(tmp_path: Path, text: str | bytes, expected: str) -> None:
    assert expected in _map_error(tmp_path, text)


def _broken_map(change: str) -> dict[str, Any]:
    data = _map_data()
    if change == "huge bonus":
        data["continents"][0]["bonus"] = 10 ** 12
    elif change == "negative bonus":
        data["continents"][1]["bonus"] = -92
    elif change == "huge integer":
        data["continents"][0]["bonus"] = int(HUGE[:4000])
    elif change == "misspelt sea":
        data["links"][0]["sae"] = True
    elif change == "unknown territory key":
        data["territories"][3]["armies"] = 3
    elif change == "unknown top key":
        data["contients"] = []
    elif change == "sea as a word":
        data["links"][0]["sea"] = "no"
    elif change == "jolly id":
        old = data["territories"][0]["id"]
        data = json.loads(json.dumps(data).replace(f'"{old}"', '"jolly1"'))
    elif change == "float bonus":
        data["continents"][0]["bonus"] = 5.0
    elif change == "name as a number":
        data["territories"][0]["name_en"] = 7
    return data


@pytest.mark.parametrize(("change", "expected"), [
    ("huge bonus", "bonus 1000000000000 is out of range; give a whole number of armies from 0 to 100"),
    ("negative bonus", "bonus -92 is out of range"),
    ("huge integer", "digits is out of range"),
    ("misspelt sea", "unknown key 'sae'"),
    ("unknown territory key", "territory 'alberta': unknown key 'armies'"),
    ("unknown top key", "the map: unknown key 'contients'"),
    ("sea as a word", "'sea' must be true or false, got 'no'"),
    ("jolly id", "id 'jolly1' is a card name in game logs"),
    ("float bonus", "'bonus' must be a int, got 5.0"),
    ("name as a number", "'name_en' must be a name of 1 to 80 characters, got 7"),
])
def test_bad_map_values_are_refused_by_key(tmp_path: Path, change: str, expected: str) -> None:
    assert expected in _map_error(tmp_path, json.dumps(_broken_map(change)))


def _ruleset_error(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "house.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    with pytest.raises(RulesetError) as err:
        load_ruleset(str(path))
    message = str(err.value)
    assert str(path) in message and "\n" not in message and len(message) < 400, message
    return message


@pytest.mark.parametrize(("text", "expected"), [
    ("a = " + "[" * DEEP + "]" * DEEP, "nested too deeply"),
    ("a = " + "{b = " * DEEP + "1" + "}" * DEEP, "nested too deeply"),
    ("a." * 5000 + "b = 1", "nested too deeply"),
    (f"starting_armies = {HUGE}", "thousands of digits"),
    (b'extends = "italian"\ndescription = "\xff"\n', "not UTF-8"),
    ('extends = "italian"\nstarting_armies = inf\n', "'starting_armies' must be a table of player count"),
    ('extends = "italian"\nstarting_armies = { 3 = inf }\n', "armies (a whole number from 1 to 1000)"),
    ('extends = "italian"\nstarting_armies = { 3 = 1e9 }\n', "armies (a whole number from 1 to 1000)"),
    ('extends = "italian"\nstarting_armies = { 3 = 1000000000 }\n', "got {'3': 1000000000}"),
    ('extends = "italian"\nstarting_armies = { 3 = true }\n', "armies (a whole number from 1 to 1000)"),
    ('extends = "italian"\nstarting_armies = { 3 = -35 }\n', "armies (a whole number from 1 to 1000)"),
    ('extends = "italian"\nstarting_armies = true\n', "'starting_armies' must be a table"),
    ('extends = "italian"\ndeck_jollies = 1e9\n', "'deck_jollies' must be a whole number from 0 to 100"),
    ('extends = "italian"\ndeck_jollies = 1000000000\n', "'deck_jollies' must be a whole number from 0 to 100"),
    ('extends = "italian"\nset_values = { one_each = -92 }\n', "each a whole number from 0 to 100"),
    ('extends = "italian"\nterritory_bonus = 1000000\n', "'territory_bonus' must be a whole number from 0 to 100"),
    ('extends = "classic"\nincremental_values = [4, 1000000]\n', "whole numbers from 0 to 100"),
    ('extends = "italian"\nreinforcement_minimum = -3\n', "from 0 to 100"),
    ('extends = "italian"\nmissions = [1, 99]\n', "whole numbers from 1 to 14"),
])
def test_bad_rulesets_are_one_line(tmp_path: Path, text: str | bytes, expected: str) -> None:
    assert expected in _ruleset_error(tmp_path, text)


def _log_error(tmp_path: Path, lines: list[str] | bytes) -> str:
    path = tmp_path / "game.jsonl"
    if isinstance(lines, bytes):
        path.write_bytes(lines)
    else:
        path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError) as err:
        read_log(path)
    message = str(err.value)
    assert message.startswith(str(path)) and "\n" not in message and len(message) < 500, message
    return message


def _header_with(**ruleset: object) -> list[str]:
    lines = GOLDEN_LOG.read_text("utf-8").splitlines()
    header = json.loads(lines[0])
    header["ruleset"].update(ruleset)
    return [json.dumps(header), *lines[1:]]


@pytest.mark.parametrize(("lines", "expected"), [
    (["[" * DEEP + "]" * DEEP], "nested too deeply"),
    ([GOLDEN_LOG.read_text("utf-8").splitlines()[0], '{"type": "place", "count": ' + HUGE + "}"],
     "line 2: a number has thousands of digits"),
    (b'{"format": "conquista-log"}\n\xff\xfe\n', "not UTF-8"),
    (_header_with(starting_armies={"2": 10 ** 9}), "armies (a whole number from 1 to 1000)"),
    (_header_with(deck_jollies=-1), "'deck_jollies' must be a whole number from 0 to 100"),
    (_header_with(attacker_dice_max=12), "'attacker_dice_max' must be a whole number from 1 to 3"),
    ([*GOLDEN_LOG.read_text("utf-8").splitlines()[:5], '{"type": "place", "territory": "peru", "count": ' +
      "9" * 4000 + "}"], "'count' must be a whole number from 0 to 1000000, got a number of about 4000 digits"),
    ([*GOLDEN_LOG.read_text("utf-8").splitlines()[:5], '{"type": "trade", "cards": ["jolly' + "9" * 5000 + '"]}'],
     "unknown card 'jolly99999"),
])
def test_bad_logs_are_one_line(tmp_path: Path, lines: list[str] | bytes, expected: str) -> None:
    assert expected in _log_error(tmp_path, lines)


def test_the_dice_audit_refuses_a_header_that_allows_12_dice_instead_of_enumerating_6_to_the_12(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    header = json.loads(GOLDEN_LOG.read_text("utf-8").splitlines()[0])
    header["ruleset"]["attacker_dice_max"] = 12
    roll = {"type": "roll", "attack": [6] * 12, "defend": [1], "source": "seeded"}
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(header) + "\n" + json.dumps(roll) + "\n")
    assert main(["dice", "audit", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'attacker_dice_max' must be a whole number from 1 to 3, got 12" in err


@pytest.mark.parametrize("text", ["[" * DEEP + "]" * DEEP, '{"format": ' + HUGE + "}", "\xff"])
def test_the_dice_audit_of_an_unreadable_log_is_one_line(tmp_path: Path, text: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(text.encode("latin-1"))
    assert main(["dice", "audit", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and str(path) in err
