"""The reference profiles: load, cover the whole map, have one home (the package), and `board profile` writes
the builder's copy of one."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.hardware.profile import (
    BUILT_IN,
    DICE_PER_SIDE,
    PIPS_PER_DIE,
    SensorKind,
    StripDriver,
    load_profile,
)
from conquista.rules.mapdata import load_map

ROOT = Path(__file__).resolve().parents[2]


def test_the_profiles_have_one_home_the_package() -> None:
    assert not (ROOT / "hardware" / "boards").exists()
    shipped = {p.name for p in resources.files("conquista.data.boards").iterdir() if p.name.endswith(".toml")}
    assert shipped == {f"{name}.toml" for name in BUILT_IN}


def test_reference_profile_covers_every_territory_of_the_map() -> None:
    game_map = load_map()
    profile = load_profile()
    assert profile.name == "classic-42"
    assert game_map.size == 42
    assert len(profile.territory_leds) == game_map.size
    assert all(1 <= len(leds) <= 3 for leds in profile.territory_leds)
    assert profile.sensors.kind is SensorKind.SERIAL
    assert (profile.sensors.rows, profile.sensors.cols) == (6, 7)
    assert sorted(profile.sensors.key_of_territory) == list(range(42))
    for territory in range(game_map.size):
        assert profile.territory_of_key(profile.sensors.key_of_territory[territory]) == territory


def test_reference_profile_uses_each_led_of_the_chain_exactly_once() -> None:
    profile = load_profile()
    used = [i for leds in profile.territory_leds for i in leds]
    used += [i for die in profile.dice_attack + profile.dice_defence for i in die]
    used += list(profile.ring)
    assert sorted(used) == list(range(profile.strip.length))
    assert len(profile.dice_attack) == len(profile.dice_defence) == DICE_PER_SIDE
    assert all(len(die) == PIPS_PER_DIE for die in profile.dice_attack + profile.dice_defence)


def test_reference_strip_settings() -> None:
    strip = load_profile().strip
    assert strip.driver is StripDriver.WS281X
    assert (strip.length, strip.data_pin, strip.dma, strip.channel, strip.color_order) == (150, 18, 10, 0, "GRB")
    assert strip.supply_ma > strip.length * strip.idle_ma_per_led


def test_board_profile_writes_a_builtin_that_loads_from_its_path(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "my board.toml"
    assert main(["board", "profile", "--board", "classic-42", "--out", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    packaged = resources.files("conquista.data.boards").joinpath("classic-42.toml").read_text("utf-8")
    assert out.read_text("utf-8") == packaged
    profile = load_profile(out)
    assert profile.source == str(out)
    assert profile.territory_leds == load_profile().territory_leds


def test_board_profile_refuses_to_overwrite_and_unknown_names(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.toml"
    out.write_text("mine", "utf-8")
    assert main(["board", "profile", "--out", str(out)]) != 0
    assert out.read_text("utf-8") == "mine"
    err = capsys.readouterr().err
    assert f"{out}: already exists" in err and len(err.strip().splitlines()) == 1
    assert main(["board", "profile", "--board", "classic-99", "--out", str(tmp_path / "x.toml")]) != 0
    assert "--board classic-99: not a built-in profile; choose one of classic-42, classic-42-touch" in \
        capsys.readouterr().err
    assert not (tmp_path / "x.toml").exists()
