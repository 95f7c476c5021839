"""`conquista board check`: a good board passes; a silent sensor, two sensors closing together, a key no territory
owns, a button never pressed are each named."""

from __future__ import annotations

import pytest

from conquista.boardtools.selftest import WALK, SelfTest
from conquista.cli import main
from conquista.devices.events import PanelButton
from conquista.hardware.profile import load_profile, parse_profile, read_profile_data
from conquista.rules.mapdata import load_map
from conquista_sim.devices import FakeBoard
from conquista_sim.wiring import CheckBuilder

MAP = load_map(None)


def test_a_good_board_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "check", "--sim", "--auto"]) == 0
    out = capsys.readouterr().out
    assert "Alaska (1 of 42)" in out and "all 42 sensors" in out and "problem" not in out


def test_a_silent_sensor_is_named(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    brazil = MAP.index("brazil")
    original = CheckBuilder.__init__

    def dead_brazil(self: CheckBuilder, board: FakeBoard, skip: frozenset[int] = frozenset()) -> None:
        original(self, board, frozenset({brazil}))

    monkeypatch.setattr(CheckBuilder, "__init__", dead_brazil)
    assert main(["board", "check", "--sim", "--auto"]) == 1
    assert "problem: silent sensors (1): Brazil" in capsys.readouterr().out


def test_the_leds_walk_in_chain_order() -> None:
    profile = load_profile(None, MAP)
    with FakeBoard(profile) as board:
        test = SelfTest(profile)
        for led in range(profile.strip.length):
            board.strip.show(test.walk_frame(led))
        frames = list(board.strip.requested)[-profile.strip.length:]
    lit = [[i for i in range(profile.strip.length) if frame[3 * i:3 * i + 3] == bytes(WALK)] for frame in frames]
    assert lit == [[i] for i in range(profile.strip.length)]


def test_a_tap_lights_its_territory_and_two_sensors_closing_together_are_named() -> None:
    profile = load_profile(None, MAP)
    test = SelfTest(profile)
    peru, brazil = MAP.index("peru"), MAP.index("brazil")
    assert test.key(profile.sensors.key_of_territory[peru], True, 1.0) == "Peru (1 of 42)"
    assert [led for led in range(profile.strip.length) if any(test.frame()[3 * led:3 * led + 3])] == \
        list(profile.territory_leds[peru])
    line = test.key(profile.sensors.key_of_territory[brazil], True, 1.01)
    assert line is not None and "together with Peru" in line
    assert "Peru and Brazil closed together" in " ".join(test.problems())
    assert test.key(profile.sensors.key_of_territory[brazil], True, 2.0) == "Brazil (2 of 42)"


def test_a_key_no_territory_owns_and_missing_buttons_are_named() -> None:
    data, _ = read_profile_data(None)
    data["sensors"] = {**data["sensors"], "rows": 7}     # a 7 × 7 matrix: keys 42-48 belong to nobody
    profile = parse_profile(data, "<test>", MAP)
    test = SelfTest(profile)
    assert "row 6, column 3" in (test.key(45, True, 0.0) or "")
    problems = " ".join(test.problems())
    assert "key 45 (row 6, column 3) belongs to no territory" in problems
    assert "buttons never pressed: ROLL, CANCEL, NEXT, ENCODER" in problems
    assert "not turned both ways" in problems
    assert not test.complete and len(PanelButton) == 4


@pytest.mark.parametrize(("args", "culprit"), [
    (["--auto"], "--sim"),
    (["--sim", "--timeout", "0"], "--timeout"),
    (["--sim", "--board", "/nonexistent/none.toml"], "none.toml"),
])
def test_bad_options_are_one_line(capsys: pytest.CaptureFixture[str], args: list[str], culprit: str) -> None:
    assert main(["board", "check", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and culprit in err


def test_check_lights_red_then_green_then_blue_each_named_before_the_walk(capsys: pytest.CaptureFixture[str],
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[bytes] = []
    original = FakeBoard.__init__

    def recording(self: FakeBoard, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        show = self.strip.show

        def keep(frame: bytes | bytearray) -> None:
            shown.append(bytes(frame))
            show(frame)

        self.strip.show = keep  # type: ignore[method-assign]

    monkeypatch.setattr(FakeBoard, "__init__", recording)
    assert main(["board", "check", "--sim", "--auto"]) == 0
    out = capsys.readouterr().out
    assert out.index("RED: every LED should be red") < out.index("GREEN: every LED") < out.index("BLUE: every")
    assert out.index("BLUE: every") < out.index("lighting the 150 LEDs one by one")
    assert shown[:3] == [bytes([255, 0, 0]) * 150, bytes([0, 255, 0]) * 150, bytes([0, 0, 255]) * 150]
    assert 'if red, green, blue looked green, red, blue: set strip.color_order = "RGB" in the profile' in out


@pytest.mark.parametrize(("profile_order", "true_order", "seen"), [
    ("GRB", "GRB", ("red", "green", "blue")),
    ("GRB", "RGB", ("green", "red", "blue")),
    ("GRB", "BRG", ("red", "blue", "green")),
    ("RGB", "BGR", ("blue", "green", "red")),
])
def test_what_a_colour_order_swap_looks_like(profile_order: str, true_order: str, seen: tuple[str, ...]) -> None:
    from conquista.boardtools.selftest import colour_fixes, seen_as

    assert seen_as(profile_order, true_order) == seen
    fixes = colour_fixes(profile_order)
    assert len(fixes) == 5 and all(f'"{profile_order}"' not in line for line in fixes)
    if true_order != profile_order:
        assert f"looked {', '.join(seen)}: set strip.color_order = \"{true_order}\"" in " ".join(fixes)


def test_a_firmware_of_another_size_is_refused_in_one_line() -> None:
    from conquista.hardware.firmware_match import firmware_mismatch

    profile = load_profile(None, MAP)
    assert firmware_mismatch(profile, 6, 7, None) is None and firmware_mismatch(profile, 6, 7, 0) is None
    line = firmware_mismatch(profile, 4, 12, 0)
    assert line is not None and "\n" not in line
    assert line.startswith("the Pico's firmware scans 4 × 12 sensors but <built-in classic-42.toml> has "
                           "sensors.rows × cols = 6 × 7")
    data, source = read_profile_data(None)
    data["strip"].update(driver="pico", data_pin=16)
    pico = parse_profile(data, source, MAP)
    assert firmware_mismatch(pico, 6, 7, 150) is None
    assert 'set "led_count": 150 in firmware/config.json' in (firmware_mismatch(pico, 6, 7, 0) or "")
