"""The bill of materials, every quantity computed from the profile and the layout.

The supply and the fuse follow one rule from the profile's current limit `supply_ma` (the most the referee lets
the LEDs draw): the supply is the smallest common rating at or above `supply_ma` + 500 mA of headroom, the fuse the
smallest standard value at or above 1.25 × `supply_ma`, so it never blows at the limit the referee keeps to and
still opens on a short. Wire lengths are the routes of `routes` with a quarter more for bends and joints, rounded
up to half a metre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from conquista.boardtools.kit.plan.board import PartKind
from conquista.boardtools.kit.plan.placement import Layout
from conquista.boardtools.kit.plan.routes import Routes, length
from conquista.hardware.profile import SensorKind, StripDriver

SUPPLY_RATINGS_A = (2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.5, 15.0, 20.0, 30.0, 40.0, 60.0, 100.0)
FUSE_RATINGS_A = (1.0, 1.25, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3, 8.0, 10.0, 12.0, 15.0, 16.0, 20.0, 25.0, 30.0,
                  40.0, 50.0, 63.0, 80.0, 100.0, 125.0)
HEADROOM_MA = 500
FUSE_FACTOR = 1.25
SLACK = 1.25


@dataclass(frozen=True)
class Line:
    qty: float
    unit: str        # "pcs" or "m"
    part: str
    values: str      # the key values to buy by
    where: str       # what it is for, where it goes


def _at_least(ratings: tuple[float, ...], amps: float) -> float:
    return next((r for r in ratings if r >= amps - 1e-9), ratings[-1])


def supply_amps(supply_ma: float) -> float:
    return _at_least(SUPPLY_RATINGS_A, (supply_ma + HEADROOM_MA) / 1000)


def fuse_amps(supply_ma: float) -> float:
    return _at_least(FUSE_RATINGS_A, FUSE_FACTOR * supply_ma / 1000)


def _metres(mm: float) -> float:
    return math.ceil(mm * SLACK / 500) / 2


def bill(layout: Layout, wires: Routes) -> list[Line]:
    profile = layout.profile
    strip = profile.strip
    territories = profile.game_map.size
    territory_leds = sum(len(leds) for leds in profile.territory_leds)
    pips = sum(len(die) for die in profile.dice_attack + profile.dice_defence)
    ring = len(profile.ring)
    matrix = profile.sensors.kind is SensorKind.SERIAL
    fuse = fuse_amps(strip.supply_ma)
    lines = [
        Line(territory_leds, "pcs", "WS2812B LED, single pixel", "5 V, 5050, on a round PCB of 10 mm or less",
             f"territories: 1-3 each under the map, LEDs 0-{territory_leds - 1} (positions.json)"),
        Line(pips, "pcs", "WS2812B LED, single pixel", "5 V, 5050, on a round PCB of 10 mm or less",
             f"dice panel: {len(profile.dice_attack) + len(profile.dice_defence)} dice of 7 pips"),
        Line(ring, "pcs", "WS2812B LED, single pixel", "5 V, 5050, on a round PCB of 10 mm or less",
             f"status ring: {ring} on a circle, clockwise from the top"),
        Line(territories, "pcs", "tactile switch", "6 × 6 mm, 7.5 mm tall (4 mm stem for a 4 mm plate), THT",
             "one under each territory, its stem through the plate"),
    ]
    if matrix:
        lines.append(Line(territories, "pcs", "signal diode 1N4148", "DO-35",
                          "one per switch, the band towards the row wire"))
    lines += [
        Line(3, "pcs", "momentary push button", "12 mm panel mount, normally open", "ROLL, CANCEL, NEXT"),
        Line(1, "pcs", "rotary encoder with push switch", "EC11, 20 detents, 6 mm shaft, M7 bush", "beside NEXT"),
    ]
    if profile.buzzer_pin is not None:
        lines.append(Line(1, "pcs", "piezo buzzer, passive", "3-5 V, 12 mm", "in the enclosure"))
    lines += [
        Line(1, "pcs", "level shifter 74AHCT125", "DIP-14, 5 V", "LED data 3.3 V → 5 V, in the enclosure"),
        Line(1, "pcs", "resistor", "330 Ω, 1/4 W", "in the data line, at LED 0's DIN"),
        Line(1, "pcs", "electrolytic capacitor", "1000 µF, 10 V or more", "across the LED supply where it enters"),
        Line(1, "pcs", "power supply for the LEDs", f"5 V, {supply_amps(strip.supply_ma):g} A",
             f"rule: supply_ma {strip.supply_ma:g} mA + {HEADROOM_MA} mA headroom, next common rating"),
        Line(1, "pcs", "fuse, slow-blow, and holder", f"{fuse:g} A, 5 × 20 mm",
             f"rule: {FUSE_FACTOR:g} × supply_ma {strip.supply_ma:g} mA, next standard value; in the + line"),
        Line(1, "pcs", "Raspberry Pi", "Zero 2 W, 3B+, 4 or 5, with its own supply and a 16 GB micro-SD card",
             "the referee; a Pi 5 needs driver = \"pico\""),
    ]
    if matrix or strip.driver is StripDriver.PICO:
        lines.append(Line(1, "pcs", "Raspberry Pi Pico (RP2040)", "with headers, and a USB cable to the Pi",
                          "scans the matrix" + ("; drives the LEDs" if strip.driver is StripDriver.PICO else "")))
    lines += _wires(layout, wires, fuse)
    return lines


def _wires(layout: Layout, wires: Routes, fuse: float) -> list[Line]:
    power_gauge = "18 AWG (0.8 mm²)" if fuse <= 8 else "14 AWG (2 mm²)"
    chain = length(wires.chain)
    feeds = sum(math.dist(wires.enclosure, wires.led_at[led]) for led in wires.injections)
    sensor = sum(length(r) for r in wires.rows) + sum(length(c) for c in wires.cols)
    what = (f"{len(wires.rows)} row and {len(wires.cols)} column wires of the matrix" if wires.cols
            else f"one wire per switch and a common ground, {len(wires.rows)} switches")
    f = layout.frame
    lines = [
        Line(_metres(3 * chain), "m", "hook-up wire", "22 AWG (0.33 mm²), stranded",
             "the LED chain: 5 V, ground and data from each LED to the next"),
        Line(_metres(2 * feeds), "m", "hook-up wire", f"{power_gauge}, red and black",
             f"power injection at LEDs {', '.join(str(i) for i in wires.injections)}"),
        Line(_metres(sensor if wires.cols else 2 * sensor), "m", "hook-up wire", "24 AWG (0.2 mm²), stranded",
             what),
        Line(1, "pcs", "base plate", f"plywood or MDF, {f.width:g} × {f.height:g} × 4 mm", "drill.dxf / drill.svg"),
        Line(_metres(2 * (f.width + f.height) + f.width), "m", "batten", "20 × 40 mm",
             "the frame under the plate's edge and one across under the panel"),
        Line(sum(1 for p in layout.parts if p.kind is PartKind.MOUNT), "pcs", "wood screw",
             "3.5 × 20 mm, countersunk", "the plate onto the frame"),
        Line(1, "pcs", "paper for the map", "160 g/m² matt, A4 or A3 (map-a4.pdf / map-a3.pdf)", "the printed map"),
    ]
    return lines
