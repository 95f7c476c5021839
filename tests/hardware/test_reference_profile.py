"""The reference profile: loads, covers the whole map, and the builders' copy is the packaged one."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from conquista.hardware.profile import (
    DICE_PER_SIDE,
    PIPS_PER_DIE,
    SensorKind,
    StripDriver,
    load_profile,
)
from conquista.rules.mapdata import load_map

ROOT = Path(__file__).resolve().parents[2]


def test_builders_copy_is_identical_to_the_packaged_profile() -> None:
    packaged = resources.files("conquista.data.boards").joinpath("classic-42.toml").read_bytes()
    assert (ROOT / "hardware" / "boards" / "classic-42.toml").read_bytes() == packaged


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


def test_builders_copy_loads_from_its_path() -> None:
    profile = load_profile(ROOT / "hardware" / "boards" / "classic-42.toml")
    assert profile.source.endswith("classic-42.toml")
    assert profile.territory_leds == load_profile().territory_leds
