"""The wires under the plate: the LED chain in index order, the matrix's row and column wires, and the power
injection points, as routes of points in mm, for the wiring drawing and the wire lengths of the parts list."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from conquista.boardtools.kit.plan.board import BAND, MARGIN, PartKind
from conquista.boardtools.kit.plan.placement import Layout
from conquista.hardware.profile import SensorKind

Point = tuple[float, float]


@dataclass(frozen=True)
class Routes:
    enclosure: Point                      # where the wires start: the box with the Pi, the Pico and the supply
    chain: tuple[Point, ...]              # every LED in chain order
    injections: tuple[int, ...]           # LED indices where the 5 V supply is fed in
    rows: tuple[tuple[Point, ...], ...]   # each matrix row's wire, from the enclosure through its switches
    cols: tuple[tuple[Point, ...], ...]
    led_at: dict[int, Point]              # each LED's point by its index


def length(route: tuple[Point, ...] | list[Point]) -> float:
    return sum(math.dist(a, b) for a, b in itertools.pairwise(route))


def _tour(start: Point, points: list[Point]) -> tuple[Point, ...]:
    """A wire from `start` through every point, always to the nearest one left (short enough to size a reel)."""
    route = [start]
    left = list(points)
    while left:
        here = route[-1]
        nearest = min(left, key=lambda p: math.dist(here, p))
        left.remove(nearest)
        route.append(nearest)
    return tuple(route)


def injection_leds(layout: Layout) -> tuple[int, ...]:
    """Power enters at the first LED, at the first LED of the panel (the dice), and at the last LED."""
    profile = layout.profile
    panel = [led for die in profile.dice_attack + profile.dice_defence for led in die] + list(profile.ring)
    used = [led for leds in profile.territory_leds for led in leds] + panel
    return tuple(sorted({min(used), min(panel), max(used)}))


def routes(layout: Layout) -> Routes:
    f = layout.frame
    enclosure = (f.width - MARGIN - 110.0, f.band_top + BAND / 2)
    leds = sorted((p for p in layout.parts if p.kind is PartKind.LED and p.led is not None),
                  key=lambda p: p.led or 0)
    chain = tuple((p.x, p.y) for p in leds)
    sensors = layout.profile.sensors
    rows: list[tuple[Point, ...]] = []
    cols: list[tuple[Point, ...]] = []
    switch_at = {p.territory: (p.x, p.y) for p in layout.parts if p.kind is PartKind.SWITCH}
    if sensors.kind is not SensorKind.SERIAL:     # a wire of its own from the Pi to each switch
        rows = [(enclosure, point) for point in switch_at.values()]
    else:
        game_map = layout.profile.game_map
        cell = {game_map.id(t): divmod(key, sensors.cols) for t, key in enumerate(sensors.key_of_territory)}
        for r in range(sensors.rows):
            rows.append(_tour(enclosure, [switch_at[t] for t, (rr, _) in cell.items() if rr == r]))
        for c in range(sensors.cols):
            cols.append(_tour(enclosure, [switch_at[t] for t, (_, cc) in cell.items() if cc == c]))
    return Routes(enclosure, (enclosure, *chain), injection_leds(layout), tuple(rows), tuple(cols),
                  {p.led: (p.x, p.y) for p in leds if p.led is not None})
