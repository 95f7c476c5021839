"""The wires under the plate: the LED chain in index order, the matrix's row and column wires (or each touch pad's
wire to its MPR121 board and the boards' I2C chain), and the power injection points, as routes of points in mm,
for the wiring drawing and the wire lengths of the parts list.

An MPR121 board goes under the plate at the middle of its pads (a pad's wire is part of the electrode: short
wires keep the pads sensitive and apart), the boards daisy-chained by 4-wire I2C cables from the enclosure."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from conquista.boardtools.kit.plan.board import MARGIN, SENSORS, PartKind
from conquista.boardtools.kit.plan.placement import Layout
from conquista.hardware.profile import MPR121_ELECTRODES, SensorKind, SensorPart

Point = tuple[float, float]


@dataclass(frozen=True)
class Routes:
    enclosure: Point                      # where the wires start: the box with the Pi, the Pico and the supply
    chain: tuple[Point, ...]              # every LED in chain order
    injections: tuple[int, ...]           # LED indices where the 5 V supply is fed in
    rows: tuple[tuple[Point, ...], ...]   # each matrix row's wire, from the enclosure through its switches
    cols: tuple[tuple[Point, ...], ...]
    led_at: dict[int, Point]              # each LED's point by its index
    controllers: tuple[Point, ...] = ()   # each MPR121 board's place under the plate, by board number
    i2c: tuple[Point, ...] = ()           # the I2C cable: enclosure, then each board in the order it is chained
    pad_wires: tuple[tuple[str, Point, Point], ...] = ()   # (territory, pad's wire hole, its board)

    @property
    def data_lead(self) -> float:
        """mm from the enclosure's level shifter to LED 0's DIN."""
        return math.dist(self.chain[0], self.chain[1]) if len(self.chain) > 1 else 0.0

    def hops(self) -> list[tuple[int, float]]:
        """(LED, mm from the LED before it) along the chain, LED 0's data lead left out."""
        leds = sorted(self.led_at)
        return [(b, math.dist(self.led_at[a], self.led_at[b])) for a, b in itertools.pairwise(leds)]


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
    enclosure = (f.width - MARGIN - 110.0, f.band_top + f.band / 2)
    leds = sorted((p for p in layout.parts if p.kind is PartKind.LED and p.led is not None),
                  key=lambda p: p.led or 0)
    chain = tuple((p.x, p.y) for p in leds)
    sensors = layout.profile.sensors
    rows: list[tuple[Point, ...]] = []
    cols: list[tuple[Point, ...]] = []
    switch_at = {p.territory: (p.x, p.y) for p in layout.parts if p.kind in SENSORS}
    if sensors.kind is SensorKind.SERIAL and sensors.part is SensorPart.MPR121:
        return _touch_routes(layout, enclosure, chain, leds, switch_at)
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


def _touch_routes(layout: Layout, enclosure: Point, chain: tuple[Point, ...], leds: list[Any],
                  pad_at: dict[str | None, Point]) -> Routes:
    sensors = layout.profile.sensors
    game_map = layout.profile.game_map
    members: list[list[tuple[str, Point]]] = [[] for _ in range(sensors.rows)]
    for t, key in enumerate(sensors.key_of_territory):
        tid = game_map.id(t)
        members[key // MPR121_ELECTRODES].append((tid, pad_at[tid]))
    boards: list[Point] = []
    for group in members:
        if group:
            boards.append((sum(p[0] for _, p in group) / len(group), sum(p[1] for _, p in group) / len(group)))
        else:
            boards.append(enclosure)
    wires = tuple((tid, point, boards[b]) for b, group in enumerate(members) for tid, point in group)
    order = _tour(enclosure, boards)
    return Routes(enclosure, (enclosure, *chain), injection_leds(layout), (), (),
                  {p.led: (p.x, p.y) for p in leds if p.led is not None}, tuple(boards), order, wires)
