"""`conquista board diagram`: the wiring of a board drawn from its profile, as one SVG a builder can print.

Four parts: the map with the LED chain drawn through the territories in chain order (power injection points
marked), the key matrix with the Pico pin of each row and column and the territory in each cell, the data path
from the driving pin through the level shifter to the first LED, and the buttons' pins. Positions on the map are
those of the classic 42-territory board; a territory of another map is placed in a row of its continent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from conquista.hardware.profile import BoardProfile, SensorKind, StripDriver

# Rough centres on a 100 × 60 world map (x east, y south) of the classic board's territories.
CLASSIC_XY: dict[str, tuple[float, float]] = {
    "alaska": (5, 8), "northwest_territory": (15, 8), "greenland": (32, 4), "alberta": (14, 14),
    "ontario": (21, 15), "quebec": (28, 15), "western_us": (14, 21), "eastern_us": (23, 22),
    "central_america": (16, 28), "venezuela": (24, 33), "peru": (25, 41), "brazil": (31, 39),
    "argentina": (27, 49), "north_africa": (46, 32), "egypt": (53, 30), "east_africa": (58, 38),
    "congo": (52, 41), "south_africa": (53, 49), "madagascar": (61, 49), "iceland": (40, 10),
    "great_britain": (42, 16), "scandinavia": (50, 9), "northern_europe": (49, 17), "western_europe": (43, 23),
    "southern_europe": (51, 23), "ukraine": (58, 13), "ural": (66, 12), "siberia": (72, 8), "yakutsk": (80, 6),
    "kamchatka": (90, 7), "irkutsk": (79, 13), "mongolia": (81, 19), "japan": (92, 20), "afghanistan": (65, 19),
    "china": (76, 24), "middle_east": (60, 27), "india": (70, 30), "siam": (79, 31), "indonesia": (81, 40),
    "new_guinea": (90, 39), "western_australia": (84, 49), "eastern_australia": (93, 48),
}
SCALE = 9            # map units → pixels
MAP_W, MAP_H = 100 * SCALE, 60 * SCALE


@dataclass(frozen=True)
class PicoPins:
    rows: Sequence[int]   # GP numbers driving the matrix rows (the firmware's config.json)
    cols: Sequence[int]
    led_pin: int
    sda: int = 4          # the I2C pins the MPR121 boards are read on (config.json's i2c_sda, i2c_scl)
    scl: int = 5


def _positions(profile: BoardProfile) -> list[tuple[float, float]]:
    game_map = profile.game_map
    if all(t.id in CLASSIC_XY for t in game_map.territories):
        return [(CLASSIC_XY[t.id][0] * SCALE, CLASSIC_XY[t.id][1] * SCALE + 20) for t in game_map.territories]
    out = [(0.0, 0.0)] * game_map.size
    for row, continent in enumerate(game_map.continents):
        for col, t in enumerate(continent.territories):
            out[t] = (40 + col * 80, 40 + row * 80)
    return out


def _text(x: float, y: float, text: str, size: int = 11, anchor: str = "start", colour: str = "#222") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-family="sans-serif" font-size="{size}" fill="{colour}" '
            f'text-anchor="{anchor}">{escape(text)}</text>')


def _map_part(profile: BoardProfile) -> list[str]:
    xy = _positions(profile)
    order = sorted(range(profile.game_map.size), key=lambda t: profile.territory_leds[t][0])
    first_panel = min([*profile.ring, *(i for die in profile.dice_attack + profile.dice_defence for i in die)])
    last_led = profile.strip.length - 1
    body = [_text(10, 14, f"LED chain over the map ({profile.strip.length} LEDs; numbers are the first LED of "
                          "each territory; ⚡ = power injection)", 13)]
    points = " ".join(f"{xy[t][0]:.0f},{xy[t][1]:.0f}" for t in order)
    body.append(f'<polyline points="{points}" fill="none" stroke="#c33" stroke-width="1.5"/>')
    for t in order:
        x, y = xy[t]
        leds = profile.territory_leds[t]
        body.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{3 + 2 * len(leds)}" fill="#fff" stroke="#c33"/>')
        body.append(_text(x + 9, y - 4, f"{leds[0]} {profile.game_map.territories[t].name_en}", 9))
    start = xy[order[0]]
    end = xy[order[-1]]
    body.append(_text(start[0] - 6, start[1] + 16, "⚡ LED 0: data in, power", 10, colour="#a60"))
    body.append(_text(end[0] - 6, end[1] + 16, f"→ panel from LED {first_panel} ⚡ … LED {last_led} ⚡", 10,
                      colour="#a60"))
    return body


def _matrix_part(profile: BoardProfile, pins: PicoPins, top: float) -> list[str]:
    sensors = profile.sensors
    body = [_text(10, top, "Key matrix (Pico): a switch and a 1N4148 per cell, the diode's band towards the row", 13)]
    if sensors.kind is not SensorKind.SERIAL:
        by_pin = sorted((gpio, t) for t, gpio in enumerate(sensors.pin_of_territory))
        for i, (gpio, t) in enumerate(by_pin):
            body.append(_text(20 + (i % 4) * 220, top + 24 + (i // 4) * 16,
                              f"GPIO{gpio}: {profile.game_map.territories[t].name_en}", 10))
        return body
    cell_w, cell_h = 120, 26
    names = {k: profile.game_map.territories[t].name_en for t, k in enumerate(sensors.key_of_territory)}
    for c in range(sensors.cols):
        col_pin = f"GP{pins.cols[c]}" if c < len(pins.cols) else "?"
        body.append(_text(90 + c * cell_w + cell_w / 2, top + 24, f"column {c} · {col_pin}", 10, "middle"))
    for r in range(sensors.rows):
        y = top + 32 + r * cell_h
        row_pin = f"GP{pins.rows[r]}" if r < len(pins.rows) else "?"
        body.append(_text(10, y + 17, f"row {r} · {row_pin}", 10))
        for c in range(sensors.cols):
            x = 90 + c * cell_w
            body.append(f'<rect x="{x}" y="{y:.0f}" width="{cell_w - 4}" height="{cell_h - 4}" fill="#f4f4f4" '
                        'stroke="#999"/>')
            body.append(_text(x + 4, y + 15, names.get(r * sensors.cols + c, "—"), 9))
    return body


def _wiring_part(profile: BoardProfile, pins: PicoPins, top: float) -> list[str]:
    strip = profile.strip
    source = (f"Pico GP{pins.led_pin} (led_count = {strip.length} in firmware/config.json)"
              if strip.driver is StripDriver.PICO else f"Pi GPIO{strip.data_pin} (rpi-ws281x, DMA {strip.dma})")
    lines = [
        f"LED data: {source} → 74AHCT125 level shifter (3.3 V → 5 V) → 330 Ω → DIN of LED 0",
        f"LED power: 5 V supply of {strip.supply_ma} mA budget, fuse in +, 1000 µF across it; join every ground",
        f"Buttons (to ground, internal pull-ups): ROLL GPIO{profile.buttons.roll} · CANCEL GPIO{profile.buttons.cancel}"
        f" · NEXT GPIO{profile.buttons.next}",
        f"Encoder: A GPIO{profile.encoder.a} · B GPIO{profile.encoder.b} · push GPIO{profile.encoder.push} · common to "
        "ground",
        f"Buzzer: + GPIO{profile.buzzer_pin}, − ground" if profile.buzzer_pin is not None else "Buzzer: none",
    ]
    return [_text(10, top, "Wiring", 13), *(_text(20, top + 20 + 16 * i, line, 11) for i, line in enumerate(lines))]


def diagram_svg(profile: BoardProfile, pins: PicoPins) -> str:
    body = _map_part(profile)
    matrix_top = MAP_H + 60
    body += _matrix_part(profile, pins, matrix_top)
    rows = profile.sensors.rows if profile.sensors.kind is SensorKind.SERIAL else 4
    wiring_top = matrix_top + 60 + rows * 26
    body += _wiring_part(profile, pins, wiring_top)
    height = int(wiring_top + 110)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{MAP_W + 40}" height="{height}" '
            f'viewBox="0 0 {MAP_W + 40} {height}">\n<rect width="100%" height="100%" fill="#fff"/>\n'
            f'<title>{escape(profile.name)}: wiring</title>\n' + "\n".join(body) + "\n</svg>\n")
