"""Colours told apart by people with the three common colour-vision deficiencies (issue 20).

Each pair of seats (and the neutral army) is compared with CIEDE2000 after simulating protanopia, deuteranopia and
tritanopia (Machado, Oliveira and Fernandes 2009 at full severity, from the `colorspacious` package): on screens
in sRGB, on the LEDs through the WS2812B model of `tests/table/led_perception.py`. The thresholds are documented in
docs/playing.md, whose table this file also checks.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest

from conquista.table.colours import (
    COLOUR_BLIND_RGB,
    CVD_MIN_DIFFERENCE,
    MARKS,
    MIN_BRIGHTNESS,
    NEUTRAL,
    PLAYER_RGB,
    RGB,
    SCREEN_COLOUR_BLIND_RGB,
    SCREEN_MIN_DIFFERENCE,
    SCREEN_NEUTRAL,
    SCREEN_RGB,
    Palette,
    mark,
    player_rgb,
    screen_hex,
)
from tests.table.led_perception import ciede2000, led_xyz, xyz_to_lab

colorspacious = pytest.importorskip("colorspacious")
from colorspacious.cvd import machado_et_al_2009_matrix  # noqa: E402

DEFICIENCIES = ("protanomaly", "deuteranomaly", "tritanomaly")   # at severity 100: -opia
VISIONS = (None, *DEFICIENCIES)
PLAYING = Path(__file__).resolve().parents[2] / "docs" / "playing.md"

# sRGB (D65) linear RGB <-> XYZ, to simulate a deficiency on an LED's light (its own primaries are not sRGB's).
TO_XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])


def screen_lab(rgb: RGB, vision: str | None) -> tuple[float, float, float]:
    srgb = np.array(rgb, float) / 255
    if vision is not None:
        srgb = np.clip(colorspacious.cspace_convert(srgb, {"name": "sRGB1+CVD", "cvd_type": vision,
                                                           "severity": 100}, "sRGB1"), 0, 1)
    lab = colorspacious.cspace_convert(srgb, "sRGB1", "CIELab")
    return (float(lab[0]), float(lab[1]), float(lab[2]))


def led_lab(rgb: RGB, vision: str | None, brightness: int) -> tuple[float, float, float]:
    xyz = np.array(led_xyz(rgb, brightness))
    if vision is not None:       # the simulation works on linear RGB: XYZ -> linear sRGB -> simulated -> XYZ
        xyz = TO_XYZ @ machado_et_al_2009_matrix(vision, 100) @ np.linalg.inv(TO_XYZ) @ xyz
    return xyz_to_lab((float(xyz[0]), float(xyz[1]), float(xyz[2])))


def screen_distances(colours: dict[str, RGB], vision: str | None) -> dict[tuple[str, str], float]:
    labs = {name: screen_lab(rgb, vision) for name, rgb in colours.items()}
    return {(a, b): ciede2000(labs[a], labs[b]) for a, b in itertools.combinations(colours, 2)}


def led_distances(colours: dict[str, RGB], vision: str | None, brightness: int) -> dict[tuple[str, str], float]:
    labs = {name: led_lab(rgb, vision, brightness) for name, rgb in colours.items()}
    return {(a, b): ciede2000(labs[a], labs[b]) for a, b in itertools.combinations(colours, 2)}


SCREEN = {**SCREEN_RGB, "neutral": SCREEN_NEUTRAL}
MAP_SEA = (0x2F, 0x4C, 0x69)   # the public board's sea (web/static/style.css, .map-frame)
LEDS = {**COLOUR_BLIND_RGB, "neutral": NEUTRAL}


@pytest.mark.parametrize("vision", VISIONS)
def test_every_screen_colour_pair_differs_by_the_documented_minimum(vision: str | None) -> None:
    close = {pair: round(d, 1) for pair, d in screen_distances(SCREEN, vision).items() if d < SCREEN_MIN_DIFFERENCE}
    assert close == {}


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("brightness", [MIN_BRIGHTNESS, 128, 255])
def test_the_colour_blind_led_palette_keeps_seats_apart(vision: str | None, brightness: int) -> None:
    distances = led_distances(LEDS, vision, brightness)
    close = {pair: round(d, 1) for pair, d in distances.items() if d < CVD_MIN_DIFFERENCE}
    assert close == {}


def test_the_old_colours_fail_the_same_check() -> None:
    # Before issue 20 the screens drew the LED bytes: ochre "yellow", white "black"; red and yellow merged under
    # protanopia and deuteranopia, blue and purple under tritanopia. The check catches them.
    old = {"red": (255, 0, 0), "blue": (0, 64, 255), "yellow": (170, 128, 48), "green": (0, 255, 0),
           "purple": (128, 96, 255), "black": (255, 255, 255), "pink": (170, 0, 64), "cyan": (0, 96, 128)}
    assert screen_distances(old, "protanomaly")[("red", "yellow")] < SCREEN_MIN_DIFFERENCE
    assert screen_distances(old, "deuteranomaly")[("red", "yellow")] < SCREEN_MIN_DIFFERENCE
    assert screen_distances(old, "tritanomaly")[("blue", "purple")] < SCREEN_MIN_DIFFERENCE
    # ... and the standard LED palette is not the colour-blind one: some pair merges there.
    standard = {**PLAYER_RGB, "neutral": NEUTRAL}
    assert min(min(led_distances(standard, v, MIN_BRIGHTNESS).values()) for v in DEFICIENCIES) < CVD_MIN_DIFFERENCE


def test_screen_colours_are_what_they_are_called() -> None:
    hue = {name: _hue(rgb) for name, rgb in SCREEN_RGB.items() if name != "black"}
    assert 40 <= hue["yellow"] <= 65 and sum(SCREEN_RGB["yellow"]) > 500          # yellow, not ochre
    assert sum(SCREEN_RGB["black"]) < 90                                           # black, not white
    assert hue["red"] < 15 or hue["red"] > 345
    assert 200 <= hue["blue"] <= 240 and 260 <= hue["purple"] <= 300
    assert 90 <= hue["green"] <= 150 and 170 <= hue["cyan"] <= 200 and 300 <= hue["pink"] <= 350
    assert _lightness(SCREEN_RGB["pink"]) > _lightness(SCREEN_RGB["red"]) + 25     # pink is light, not crimson
    assert _lightness(SCREEN_RGB["cyan"]) > _lightness(SCREEN_RGB["blue"]) + 25    # cyan is light, not navy
    assert screen_hex("yellow") == "#fef626"


def test_every_colour_has_its_own_letter() -> None:
    letters = [mark(name) for name in [*SCREEN_RGB, "neutral"]]
    assert len(set(letters)) == len(letters) and all(len(m) == 1 for m in letters)
    assert MARKS["white"] == "W" and mark("black") == "K"


def test_the_host_chooses_the_led_palette() -> None:
    assert player_rgb("red") == PLAYER_RGB["red"]
    assert player_rgb("red", Palette.COLOUR_BLIND) == COLOUR_BLIND_RGB["red"]
    assert player_rgb("white", Palette.COLOUR_BLIND) == COLOUR_BLIND_RGB["black"]
    assert Palette.parse("colour-blind") is Palette.COLOUR_BLIND
    with pytest.raises(ValueError, match=r"'grey'.*standard, colour-blind"):
        Palette.parse("grey")


def test_docs_give_the_smallest_distances_as_computed() -> None:
    text = PLAYING.read_text("utf-8")
    rows = dict(re.findall(r"^\| (screens[^|]*|LEDs[^|]*?) \| ([^|]+) \|", text, re.MULTILINE))
    names = {"normal vision": None, "protanopia": "protanomaly", "deuteranopia": "deuteranomaly",
             "tritanopia": "tritanomaly"}
    checked = 0
    for row, cells in rows.items():
        vision_name = row.split(", ")[-1].strip()
        vision = names[vision_name]
        want = float(cells.split()[0])
        if row.startswith("screens, colour-blind, with the sea"):
            # The screens' colour-blind palette, kept apart from the neutral army and the map's sea too.
            got = min(screen_distances({**SCREEN_COLOUR_BLIND_RGB, "neutral": SCREEN_NEUTRAL, "sea": MAP_SEA},
                                       vision).values())
        elif row.startswith("screens"):
            got = min(screen_distances(SCREEN, vision).values())
        else:
            got = min(min(led_distances(LEDS, vision, b).values()) for b in (MIN_BRIGHTNESS, 128, 255))
        assert got == pytest.approx(want, abs=0.05), row
        checked += 1
    assert checked == 11


def _hue(rgb: RGB) -> float:
    import colorsys

    h, _l, _s = colorsys.rgb_to_hls(*(c / 255 for c in rgb))
    return h * 360


def _lightness(rgb: RGB) -> float:
    return screen_lab(rgb, None)[0]


def test_the_referee_lights_the_seats_in_the_hosts_palette() -> None:
    from conquista.dice.sources import SeededDice
    from conquista.table.inputs import SetPalette
    from conquista.table.referee import Referee
    from tests.rules.helpers import position, tid

    game = position("italian", owners={"alaska": 0, "alberta": 1})
    standard = Referee(game, SeededDice(1))
    assert standard.scene(0.0).territories[tid("alaska")] == PLAYER_RGB[game.rules.colours[0]]
    colour_blind = Referee(game, SeededDice(1), palette=Palette.COLOUR_BLIND)
    assert colour_blind.scene(0.0).territories[tid("alberta")] == COLOUR_BLIND_RGB[game.rules.colours[1]]
    colour_blind.step(SetPalette(Palette.STANDARD), 0.0)             # switched during a game: the next frame follows
    assert colour_blind.scene(0.0).territories[tid("alberta")] == PLAYER_RGB[game.rules.colours[1]]
