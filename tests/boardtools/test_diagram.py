"""`conquista board diagram`: the wiring drawn from the profile, checked by reading the SVG back."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conquista.boardtools.diagram import CLASSIC_XY, SCALE, PicoPins, diagram_svg
from conquista.cli import main
from conquista.rules.mapdata import load_map
from conquista_sim.wiring import shuffled_profile

MAP = load_map(None)
SVG = "{http://www.w3.org/2000/svg}"


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_the_reference_board_drawn_with_its_pins(tmp_path: Path) -> None:
    out = tmp_path / "wiring.svg"
    assert main(["board", "diagram", "--out", str(out)]) == 0
    root = ET.parse(out).getroot()
    words = " ".join(texts(root))
    assert "row 0 · GP2" in words and "column 6 · GP14" in words          # firmware/config.json's pins
    assert "ROLL GPIO5" in words and "NEXT GPIO26" in words and "Buzzer: + GPIO16" in words
    assert "Pi GPIO18" in words and "74AHCT125" in words
    assert all(t.name_en in words for t in MAP.territories)


def test_the_chain_runs_through_the_territories_in_led_order() -> None:
    hidden, _ = shuffled_profile(11, MAP)
    root = ET.fromstring(diagram_svg(hidden, PicoPins(range(2, 8), range(8, 15), 16)))
    polyline = next(root.iter(f"{SVG}polyline")).attrib["points"].split()
    chain = sorted(range(MAP.size), key=lambda t: hidden.territory_leds[t][0])
    centres = [CLASSIC_XY[MAP.territories[t].id] for t in chain]
    expected = [f"{x * SCALE:.0f},{y * SCALE + 20:.0f}" for x, y in centres]
    assert polyline == expected
    words = texts(root)
    for t in chain[:5]:
        assert f"{hidden.territory_leds[t][0]} {MAP.territories[t].name_en}" in words


@pytest.mark.parametrize(("config", "culprit"), [
    ("{broken", "cannot read"),
    (json.dumps({"row_pins": [2, 3, "x"], "col_pins": [8]}), "row_pins"),
    (json.dumps({"row_pins": [2], "col_pins": [8], "led_pin": 40}), "led_pin"),
])
def test_a_bad_firmware_config_is_one_line_and_nothing_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                  config: str, culprit: str) -> None:
    path = tmp_path / "config.json"
    path.write_text(config, encoding="utf-8")
    out = tmp_path / "wiring.svg"
    assert main(["board", "diagram", "--out", str(out), "--firmware-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and culprit in err and "config.json" in err
    assert not out.exists()
