"""The wires under the plate: the LED chain in index order, the matrix's row and column wires (or each touch pad's
wire to its MPR121 board and the boards' I2C chain), and the power injection points, as routes of points in mm,
for the wiring drawing and the wire lengths of the parts list.

An MPR121 board goes under the plate at the middle of its pads (a pad's wire is part of the electrode: short
wires keep the pads sensitive and apart), the boards daisy-chained by 4-wire I2C cables from the enclosure.

The level shifter sits at the chain's start, not in the enclosure: the wire that carries its 5 V output to LED 0's
DIN must stay under DATA_LEAD_MAX_MM (a WS2812B reads its input against 0.7 × 5 V, and a long 5 V lead rings),
while the 3.3 V lead into it may be long (the 74AHCT125's TTL input reads high from 2.0 V and draws no current, so
the Pi's 3.3 V arrives with 1.3 V to spare). The shifter board goes at a clear spot near LED 0, on the way to the
enclosure; when the enclosure itself is that near, the shifter stays in it."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from conquista.boardtools.kit.plan.board import MARGIN, SENSORS, PartKind
from conquista.boardtools.kit.plan.placement import Layout
from conquista.hardware.profile import MPR121_ELECTRODES, SensorKind, SensorPart

Point = tuple[float, float]

DATA_LEAD_MAX_MM = 300.0      # the 5 V data wire from the shifter's output to LED 0's DIN, at most (the guide's rule)
WIRE_SLACK = 1.2              # a wire follows the plate, round the parts: its length over the straight line
SHIFTER_AIM_MM = 150.0        # how far from LED 0 the shifter board is aimed, towards the enclosure
SHIFTER_BOARD_MM = (50.0, 30.0)   # the shifter board's size (a strip of perfboard), kept clear of the holes


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
    shifter: Point | None = None          # the level-shifter board; None: in the enclosure

    @property
    def shifter_at(self) -> Point:
        return self.enclosure if self.shifter is None else self.shifter

    @property
    def data_lead(self) -> float:
        """mm of wire from the level shifter's output to LED 0's DIN (the route, with its slack)."""
        first = self.led_at.get(min(self.led_at)) if self.led_at else None
        return math.dist(self.shifter_at, first) * WIRE_SLACK if first is not None else 0.0

    @property
    def logic_lead(self) -> float:
        """mm of wire carrying the 3.3 V data (and the shifter's 5 V and ground) from the enclosure to the shifter
        board; 0 when the shifter is in the enclosure."""
        return math.dist(self.enclosure, self.shifter) * WIRE_SLACK if self.shifter is not None else 0.0

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


def shifter_place(layout: Layout, enclosure: Point, led0: Point) -> Point | None:
    """The shifter board's centre: None (in the enclosure) when the enclosure is within the data lead's reach of
    LED 0; else the clear spot nearest to SHIFTER_AIM_MM from LED 0 towards the enclosure whose data lead keeps
    under DATA_LEAD_MAX_MM. A board under the plate must not cover a hole (a pixel's body, a pad's wire)."""
    import numpy as np

    reach = DATA_LEAD_MAX_MM / WIRE_SLACK
    distance = math.dist(enclosure, led0)
    if distance <= reach:
        return None
    f = layout.frame
    t = min(SHIFTER_AIM_MM, reach) / distance
    aim = (led0[0] + t * (enclosure[0] - led0[0]), led0[1] + t * (enclosure[1] - led0[1]))
    holes = np.array([(p.x, p.y, p.hole / 2) for p in layout.parts if p.hole > 0])
    half = math.hypot(*SHIFTER_BOARD_MM) / 2 + 1.0     # the board's corner, and a millimetre to spare
    candidates = sorted(((aim[0] + dx, aim[1] + dy) for dx in range(-150, 151, 3) for dy in range(-150, 151, 3)),
                        key=lambda c: math.dist(c, aim))
    for x, y in candidates:
        inside = MARGIN + half <= x <= f.width - MARGIN - half and MARGIN + half <= y <= f.height - MARGIN - half
        if not inside or math.dist((x, y), led0) > reach:
            continue
        if len(holes) == 0 or float(np.min(np.hypot(holes[:, 0] - x, holes[:, 1] - y) - holes[:, 2])) >= half:
            return (x, y)
    return aim      # no clear spot: the board goes at the aim, between the parts (the lead's rule is kept)


def routes(layout: Layout) -> Routes:
    f = layout.frame
    enclosure = (f.width - MARGIN - 110.0, f.band_top + f.band / 2)
    leds = sorted((p for p in layout.parts if p.kind is PartKind.LED and p.led is not None),
                  key=lambda p: p.led or 0)
    chain = tuple((p.x, p.y) for p in leds)
    shifter = shifter_place(layout, enclosure, chain[0]) if chain else None
    start = enclosure if shifter is None else shifter
    sensors = layout.profile.sensors
    rows: list[tuple[Point, ...]] = []
    cols: list[tuple[Point, ...]] = []
    switch_at = {p.territory: (p.x, p.y) for p in layout.parts if p.kind in SENSORS}
    if sensors.kind is SensorKind.SERIAL and sensors.part is SensorPart.MPR121:
        return _touch_routes(layout, enclosure, chain, leds, switch_at, shifter)
    if sensors.kind is not SensorKind.SERIAL:     # a wire of its own from the Pi to each switch
        rows = [(enclosure, point) for point in switch_at.values()]
    else:
        game_map = layout.profile.game_map
        cell = {game_map.id(t): divmod(key, sensors.cols) for t, key in enumerate(sensors.key_of_territory)}
        for r in range(sensors.rows):
            rows.append(_tour(enclosure, [switch_at[t] for t, (rr, _) in cell.items() if rr == r]))
        for c in range(sensors.cols):
            cols.append(_tour(enclosure, [switch_at[t] for t, (_, cc) in cell.items() if cc == c]))
    return Routes(enclosure, (start, *chain), injection_leds(layout), tuple(rows), tuple(cols),
                  {p.led: (p.x, p.y) for p in leds if p.led is not None}, shifter=shifter)


def _touch_routes(layout: Layout, enclosure: Point, chain: tuple[Point, ...], leds: list[Any],
                  pad_at: dict[str | None, Point], shifter: Point | None) -> Routes:
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
    start = enclosure if shifter is None else shifter
    return Routes(enclosure, (start, *chain), injection_leds(layout), (), (),
                  {p.led: (p.x, p.y) for p in leds if p.led is not None}, tuple(boards), order, wires, shifter)
