"""`conquista board calibrate` on a simulated board wired in a shuffled order: the profile it writes is the wiring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conquista.boardtools.calibration import PANEL, Calibration
from conquista.cli import main
from conquista.errors import CalibrationError
from conquista.hardware.profile import BoardProfile, load_profile
from conquista.rules.mapdata import GameMap, load_map
from conquista_sim.wiring import AutoBuilder, shuffled_profile

MAP = load_map(None)


def same_wiring(written: BoardProfile, hidden: BoardProfile) -> None:
    assert written.territory_leds == hidden.territory_leds
    assert written.sensors.key_of_territory == hidden.sensors.key_of_territory
    assert (written.dice_attack, written.dice_defence, written.ring) == \
        (hidden.dice_attack, hidden.dice_defence, hidden.ring)
    assert written.strip == hidden.strip and written.buttons == hidden.buttons


@pytest.mark.parametrize("seed", [1, 2026])
def test_the_written_profile_equals_the_shuffled_wiring(tmp_path: Path, seed: int) -> None:
    out = tmp_path / "my-board.toml"
    assert main(["board", "calibrate", "--board", str(out), "--sim-wiring", str(seed), "--auto"]) == 0
    hidden, _ = shuffled_profile(seed, MAP)
    assert hidden.territory_leds != load_profile(None, MAP).territory_leds  # the shuffle really moved things
    same_wiring(load_profile(out, MAP), hidden)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my-board.toml"]  # the saved answers are gone


def test_an_interrupted_calibration_resumes_where_it_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.toml"
    answer = AutoBuilder.answer

    def answer_then_trip(self: AutoBuilder, question: object) -> None:
        if self.actions == 100:  # past the 42 sensors, in the middle of the LEDs
            raise KeyboardInterrupt
        answer(self, question)  # type: ignore[arg-type]

    monkeypatch.setattr(AutoBuilder, "answer", answer_then_trip)
    assert main(["board", "calibrate", "--board", str(out), "--sim-wiring", "5", "--auto"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "board.toml.calibrating" in err and "carry on" in err
    assert not out.exists()
    saved = json.loads((tmp_path / "board.toml.calibrating").read_text(encoding="utf-8"))
    assert len(saved["sensor_keys"]) == 42 and len(saved["led_owners"]) == 100 - 42

    monkeypatch.setattr(AutoBuilder, "answer", answer)
    assert main(["board", "calibrate", "--board", str(out), "--sim-wiring", "5", "--auto"]) == 0
    assert "resuming" in capsys.readouterr().out
    same_wiring(load_profile(out, MAP), shuffled_profile(5, MAP)[0])


@pytest.mark.parametrize(("state", "culprit"), [
    ("{not json", "cannot read"),
    ('{"format": 1, "colour": 3}', "colour: unknown key"),
    ('{"format": 1, "map": "classic-42", "led_count": 99, "keys": 42, "sensor_keys": [], "led_owners": []}',
     "led_count"),
    ('{"format": 1, "map": "classic-42", "led_count": 150, "keys": 42, "sensor_keys": [3, 3], "led_owners": []}',
     "sensor_keys"),
    ('{"format": 1, "map": "classic-42", "led_count": 150, "keys": 42, "sensor_keys": [1], "led_owners": [0]}',
     "led_owners"),
])
def test_a_saved_calibration_that_does_not_fit_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          state: str, culprit: str) -> None:
    out = tmp_path / "board.toml"
    (tmp_path / "board.toml.calibrating").write_text(state, encoding="utf-8")
    assert main(["board", "calibrate", "--board", str(out), "--sim-wiring", "1", "--auto"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "board.toml.calibrating" in err and culprit in err and "delete" in err
    assert not out.exists()


@pytest.mark.parametrize(("args", "culprit"), [
    (["--auto"], "--sim-wiring"),
    (["--sim-wiring", "3"], "--auto"),
    (["--from", "/nonexistent/base.toml", "--sim-wiring", "3", "--auto"], "base.toml"),
])
def test_bad_options_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                  culprit: str) -> None:
    assert main(["board", "calibrate", "--board", str(tmp_path / "b.toml"), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and culprit in err
    assert list(tmp_path.iterdir()) == []


def small_session(game_map: GameMap = MAP) -> Calibration:
    return Calibration(game_map, led_count=game_map.size + 43, keys=42)


def test_a_sensor_is_recorded_once_and_cancel_takes_it_back() -> None:
    calibration = small_session()
    assert calibration.key_pressed(5).accepted
    second = calibration.key_pressed(5)
    assert not second.accepted and "already Alaska's" in second.text
    assert not calibration.key_pressed(42).accepted          # outside the 6 × 7 matrix
    assert not calibration.next_pressed().accepted            # NEXT means nothing while sensors are asked
    assert calibration.cancel_pressed().accepted and calibration.sensor_keys == []
    assert not calibration.cancel_pressed().accepted


def test_a_territory_takes_at_most_three_leds_and_the_panel_needs_its_dice() -> None:
    calibration = small_session()
    for territory in range(MAP.size):
        calibration.key_pressed(territory)
    assert [calibration.key_pressed(0).accepted for _ in range(4)] == [True, True, True, False]
    assert not calibration.key_pressed(41 + 1).accepted       # no territory's sensor
    with pytest.raises(CalibrationError, match="not finished"):
        calibration.layout()
    while not calibration.done:
        calibration.next_pressed()
    with pytest.raises(CalibrationError, match="no LED was tapped for Northwest Territory"):
        calibration.layout()
    assert calibration.led_owners.count(PANEL) == calibration.led_count - 3
