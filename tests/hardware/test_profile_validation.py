"""Every broken profile gives one ProfileError naming the file, the key and the fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conquista.errors import ConquistaError
from conquista.hardware.profile import ProfileError, SensorKind, StripDriver, load_profile, parse_profile
from tests.hardware.helpers import gpio_data, reference_data, tiny_gpio_data, tiny_map

SOURCE = "boards/my-board.toml"


def error_of(data: dict[str, Any], game_map: Any = None) -> str:
    with pytest.raises(ProfileError) as info:
        parse_profile(data, SOURCE, game_map)
    message = str(info.value)
    assert message.startswith(f"{SOURCE}: "), message
    assert "\n" not in message
    return message


def test_profile_error_is_a_conquista_error() -> None:
    assert issubclass(ProfileError, ConquistaError)


def test_unmodified_reference_data_is_valid() -> None:
    # The baseline every test below breaks in one place: if this failed, they would pass for the wrong reason.
    assert parse_profile(reference_data(), SOURCE).name == "classic-42"


def test_led_index_used_twice() -> None:
    data = reference_data()
    data["territories"]["peru"]["leds"] = [24, 0]  # 0 belongs to alaska
    message = error_of(data)
    assert "territories.peru.leds" in message
    assert "LED 0 is also used by territory 'alaska'" in message
    assert "one owner only" in message


def test_led_shared_between_a_die_and_the_ring() -> None:
    data = reference_data()
    data["ring"]["leds"][0] = 84  # the first pip of attack die 1
    message = error_of(data)
    assert "ring.leds" in message and "dice.attack[0]" in message


def test_led_index_beyond_the_strip() -> None:
    data = reference_data()
    data["territories"]["alaska"]["leds"] = [0, 150]
    message = error_of(data)
    assert "territories.alaska.leds" in message
    assert "LED 150 is beyond the strip (strip.length = 150, so 0..149)" in message
    assert "raise strip.length" in message


@pytest.mark.parametrize("leds", [[], [0, 1, 200, 201]])
def test_territory_needs_one_to_three_leds(leds: list[int]) -> None:
    data = reference_data()
    data["territories"]["alaska"]["leds"] = leds
    assert "give it 1 to 3 LED indices" in error_of(data)


def test_territory_without_a_sensor() -> None:
    data = reference_data()
    del data["territories"]["brazil"]["cell"]
    message = error_of(data)
    assert "territories.brazil.cell" in message
    assert "has no sensor" in message and "[row, col]" in message


def test_gpio_territory_without_a_sensor() -> None:
    data = tiny_gpio_data()
    del data["territories"]["new_guinea"]["pin"]
    message = error_of(data, tiny_map())
    assert "territories.new_guinea.pin" in message and "has no sensor" in message


def test_territory_missing_from_the_profile() -> None:
    data = reference_data()
    del data["territories"]["japan"]
    message = error_of(data)
    assert "territories.japan" in message
    assert "add `japan = { leds = [..], cell = .. }`" in message


def test_territory_the_map_does_not_know() -> None:
    data = reference_data()
    data["territories"]["atlantis"] = {"leds": [200], "cell": [5, 6]}
    message = error_of(data)
    assert "territories.atlantis" in message
    assert "map 'classic-42' has no territory 'atlantis'" in message
    assert "fix the spelling" in message


def test_pin_used_twice() -> None:
    data = reference_data()
    data["encoder"]["push"] = 5  # the ROLL button's pin
    message = error_of(data)
    assert "encoder.push" in message
    assert "GPIO5 is also used by buttons.roll" in message
    assert "one job only" in message


def test_button_on_the_strip_data_pin() -> None:
    data = reference_data()
    data["buttons"]["next"] = 18
    assert "GPIO18 is also used by strip.data_pin" in error_of(data)


def test_gpio_sensor_on_a_button_pin() -> None:
    data = tiny_gpio_data()
    data["territories"]["indonesia"]["pin"] = 6  # CANCEL
    message = error_of(data, tiny_map())
    assert "territories.indonesia.pin" in message and "GPIO6 is also used by buttons.cancel" in message


def test_reserved_eeprom_pin() -> None:
    data = reference_data()
    data["buttons"]["roll"] = 0
    message = error_of(data)
    assert "buttons.roll" in message and "HAT ID EEPROM" in message and "2 to 27" in message


def test_cell_outside_the_matrix() -> None:
    data = reference_data()
    data["territories"]["alaska"]["cell"] = [6, 0]
    message = error_of(data)
    assert "territories.alaska.cell" in message and "outside the 6×7 matrix" in message


def test_cell_used_twice() -> None:
    data = reference_data()
    data["territories"]["peru"]["cell"] = [0, 0]
    message = error_of(data)
    assert "territories.peru.cell" in message and "also the sensor of territory 'alaska'" in message


def test_die_with_a_missing_pip() -> None:
    data = reference_data()
    data["dice"]["defence"][2] = data["dice"]["defence"][2][:6]
    message = error_of(data)
    assert "dice.defence[2]" in message and "give it 7 LED indices" in message


def test_two_dice_per_side_is_not_a_dice_panel() -> None:
    data = reference_data()
    data["dice"]["attack"] = data["dice"]["attack"][:2]
    assert "dice.attack: must list 3 dice" in error_of(data)


def test_unknown_key_is_a_typo() -> None:
    data = reference_data()
    data["strip"]["brigthness"] = 10
    message = error_of(data)
    assert "strip.brigthness: unknown key" in message and "brightness" in message


def test_missing_section() -> None:
    data = reference_data()
    del data["encoder"]
    assert "encoder: missing section; add a [encoder] table" in error_of(data)


def test_ws281x_on_a_pin_it_cannot_drive() -> None:
    data = reference_data()
    data["strip"]["data_pin"] = 4
    message = error_of(data)
    assert "strip.data_pin" in message and "cannot drive GPIO4" in message and "GPIO18" in message


def test_pwm1_pin_needs_channel_1() -> None:
    data = reference_data()
    data["strip"]["data_pin"] = 13
    data["strip"]["channel"] = 0
    assert "strip.channel: GPIO13 is on channel 1, not 0" in error_of(data)


def test_dma_5_is_refused() -> None:
    data = reference_data()
    data["strip"]["dma"] = 5
    assert "strip.dma" in error_of(data)


def test_supply_that_cannot_feed_idle_leds() -> None:
    data = reference_data()
    data["strip"]["supply_ma"] = 100
    message = error_of(data)
    assert "strip.supply_ma" in message and "150 idle LEDs" in message


def test_wrong_type() -> None:
    data = reference_data()
    data["strip"]["length"] = "150"
    assert "strip.length: must be an integer" in error_of(data)


def test_colour_order_is_checked_and_case_insensitive() -> None:
    data = reference_data()
    data["strip"]["color_order"] = "grb"
    assert parse_profile(data, SOURCE).strip.color_order == "GRB"
    data["strip"]["color_order"] = "RGBW"
    assert "strip.color_order" in error_of(data)


def test_profile_for_another_map() -> None:
    data = reference_data()
    data["map"] = "europe-1800"
    message = error_of(data)
    assert "map: the profile is for map 'europe-1800' but the game uses map 'classic-42'" in message


def test_gpio_source_has_no_matrix_size() -> None:
    data = tiny_gpio_data()
    data["sensors"]["rows"] = 6
    assert "sensors.rows" in error_of(data, tiny_map())


def test_classic_map_on_gpio_sensors_runs_out_of_pins() -> None:
    # 42 sensors cannot fit on 26 header GPIOs: the first sensor beyond them must fail on a pin, not later.
    data = gpio_data()
    for i, entry in enumerate(data["territories"].values()):
        entry["pin"] = 2 + i
    message = error_of(data)
    assert ".pin" in message and ("is also used by" in message or "out of range" in message)


def test_prototype_gpio_profile_is_valid() -> None:
    profile = parse_profile(tiny_gpio_data(), SOURCE, tiny_map())
    assert profile.sensors.kind is SensorKind.GPIO
    assert profile.sensors.pin_of_territory == (4, 23, 24, 25)
    assert profile.territory_of_pin(24) == 2
    assert profile.buzzer_pin is None


def test_pico_driver_takes_a_pico_pin_that_may_equal_a_pi_pin() -> None:
    data = reference_data()
    data["strip"]["driver"] = "pico"
    data["strip"]["data_pin"] = 5  # GP5 on the Pico, not the Pi's GPIO5 (ROLL)
    profile = parse_profile(data, SOURCE)
    assert profile.strip.driver is StripDriver.PICO


def test_bad_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[strip]\nlength = = 3\n", "utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert str(info.value).startswith(f"{path}: not valid TOML")
    assert "line 2" in str(info.value)


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert str(path) in str(info.value) and "cannot read board profile" in str(info.value)


def test_broken_file_on_disk_names_file_and_key(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[2] / "host/conquista/data/boards/classic-42.toml").read_text("utf-8")
    path = tmp_path / "home-made.toml"
    path.write_text(text.replace("next = 26", "next = 6"), "utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert str(info.value).startswith(f"{path}: buttons.next: GPIO6 is also used by buttons.cancel")


def test_shutdown_command_is_optional_and_split_into_words() -> None:
    assert parse_profile(reference_data(), SOURCE).shutdown_command is None
    data = reference_data()
    data["power"] = {"shutdown_command": "sudo systemctl poweroff"}
    assert parse_profile(data, SOURCE).shutdown_command == ("sudo", "systemctl", "poweroff")


@pytest.mark.parametrize(("value", "problem"), [
    (["sudo", "poweroff"], "must be a string"),
    ("   ", "is empty"),
    ("sudo 'poweroff", "cannot be split into words"),
])
def test_bad_shutdown_command(value: object, problem: str) -> None:
    data = reference_data()
    data["power"] = {"shutdown_command": value}
    message = error_of(data)
    assert "power.shutdown_command" in message and problem in message and "; " in message


def test_unknown_power_key() -> None:
    data = reference_data()
    data["power"] = {"shutdown": "poweroff"}
    assert "power.shutdown: unknown key" in error_of(data)


def touch_data() -> dict[str, Any]:
    import tomllib
    from importlib import resources

    text = resources.files("conquista.data.boards").joinpath("classic-42-touch.toml").read_text("utf-8")
    return tomllib.loads(text)


def test_the_touch_reference_is_valid_and_loads_by_name() -> None:
    from conquista.hardware.profile import SensorPart

    profile = parse_profile(touch_data(), SOURCE)
    assert profile.sensors.part is SensorPart.MPR121 and profile.sensors.keys == 48
    assert load_profile("classic-42-touch").source == "<built-in classic-42-touch.toml>"
    assert load_profile(None).sensors.part is SensorPart.MATRIX      # a matrix by default, as before


@pytest.mark.parametrize(("change", "words"), [
    ({"part": "qtouch"}, "sensors.part: 'qtouch' is not a known value; use one of matrix, mpr121"),
    ({"rows": 5}, "sensors.rows: 5 is out of range; use a value from 1 to 4"),
    ({"cols": 8}, "sensors.cols: an MPR121 has 12 electrodes, not 8; set cols = 12 or remove it"),
])
def test_a_bad_touch_sensor_table_is_one_line(change: dict[str, Any], words: str) -> None:
    data = touch_data()
    data["sensors"].update(change)
    assert words in error_of(data)


def test_a_pad_beyond_the_boards_is_named() -> None:
    data = touch_data()
    data["territories"]["japan"]["cell"] = [4, 0]
    assert "territories.japan.cell: [4, 0] is outside the 4×12 matrix" in error_of(data)


def test_a_gpio_board_has_no_part() -> None:
    data = gpio_data()
    data["sensors"]["part"] = "mpr121"
    assert "sensors.part: only a serial source (the Pico) has rows, cols and part" in error_of(data)
