"""Damaged board profiles (issue 13 §1): one line naming the file, the key and the fix; never a traceback (deep
nesting, a 5,000-digit number, non-UTF-8 bytes) and never a silent acceptance of a current limit turned off
(`supply_ma = inf`), a board darkened (`ma_per_channel = inf`) or a debounce the protocol does not have."""

from __future__ import annotations

from pathlib import Path

import pytest

from conquista.cli import main
from conquista.hardware.profile import ProfileError, load_profile
from tests.hardware.test_profile_validation import error_of, reference_data

DEEP = 100_000
REFERENCE = Path(__file__).resolve().parents[2] / "host/conquista/data/boards/classic-42.toml"


@pytest.mark.parametrize(("text", "expected"), [
    ("a = " + "[" * DEEP + "]" * DEEP, "nested too deeply"),
    ("a = " + "{b = " * DEEP + "1" + "}" * DEEP, "nested too deeply"),
    ("[" + "a." * 5000 + "b]\nc = 1", "nested too deeply"),
    ("format = " + "9" * 5000, "thousands of digits"),
    (b"name = \"\xff\"\n", "not UTF-8"),
])
def test_unreadable_profiles_are_one_line(tmp_path: Path, text: str | bytes, expected: str) -> None:
    path = tmp_path / "board.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    with pytest.raises(ProfileError) as err:
        load_profile(path)
    message = str(err.value)
    assert message.startswith(f"{path}: ") and expected in message and "\n" not in message, message


@pytest.mark.parametrize(("section", "key", "value", "expected"), [
    ("strip", "supply_ma", float("inf"), "strip.supply_ma: inf is not a finite number; use a value from 1 to 100000"),
    ("strip", "supply_ma", 1e308, "strip.supply_ma: 1e+308 is out of range; use a value from 1 to 100000"),
    ("strip", "supply_ma", float("nan"), "strip.supply_ma: nan is not a finite number"),
    ("strip", "ma_per_channel", float("inf"), "strip.ma_per_channel: inf is not a finite number"),
    ("strip", "ma_per_channel", 1e9, "strip.ma_per_channel: 1000000000.0 is out of range; use a value from "
                                     "0.001 to 100"),
    ("strip", "idle_ma_per_led", float("-inf"), "strip.idle_ma_per_led: -inf is not a finite number"),
    ("sensors", "debounce_ms", 0, "sensors.debounce_ms: 0 is out of range; use a value from 1 to 255"),
    ("sensors", "debounce_ms", 256, "sensors.debounce_ms: 256 is out of range"),
    ("strip", "length", 10 ** 4000, "strip.length: a number of about 4000 digits is out of range"),
    ("strip", "brightness", {"a": [1, 2, 3, 4, 5, 6, 7, 8, 9]}, "strip.brightness: must be an integer, got {'a': "
                                                                "[1, 2, 3, 4, 5, 6, ...]}"),
])
def test_absurd_profile_values_are_refused(section: str, key: str, value: object, expected: str) -> None:
    data = reference_data()
    data[section][key] = value
    assert expected in error_of(data)


def test_supply_ma_inf_from_a_file_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "board.toml"
    path.write_text(REFERENCE.read_text("utf-8").replace("supply_ma = 3500", "supply_ma = inf"))
    assert main(["board", "diagram", "--board", str(path), "--out", str(tmp_path / "wiring.svg")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "strip.supply_ma: inf is not a finite number" in err
