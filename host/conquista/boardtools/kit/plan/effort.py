"""The builder's work, computed: solder joints and hours by task, for the route the kit drew.

A model, stated so it can be argued with and the same for every route (the weekend route and the former one are
measured with it): a joint is a minute (tin, hold, heat, look at it), a wire cut and stripped at both ends half a
minute, a hole drilled through the template 20 s (a 12 mm one 36 s, the ring's cut-out ten minutes), a page of
the tiled map four minutes to trim and tape; mounting a part is its own time (a bullet pixel pushed in, a pixel
glued, a switch glued level, a pad of copper tape stuck and its wire fed through). The fixed tasks are a hobbyist's
times for them. `conquista board kit` prints the totals and bom.md the table; the reference board's target is at most
TARGET_HOURS and TARGET_JOINTS (tests/boardtools test it on the reference profile).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from conquista.boardtools.kit.plan.board import SENSORS, PartKind
from conquista.boardtools.kit.plan.placement import Layout
from conquista.boardtools.kit.plan.routes import Routes, length
from conquista.boardtools.kit.plan.strings import COIL_MIN_PER_M, SLACK, ChainPlan
from conquista.hardware.profile import SensorKind, SensorPart

TARGET_HOURS = 12.0
TARGET_JOINTS = 300
JOINT_MIN = 1.0
WIRE_MIN = 0.5             # cut, strip both ends, tin
HOLE_MIN = 0.33
BIG_HOLE_MIN = 0.6         # 12 mm and over (a Forstner or step bit)
RING_CUT_MIN = 10.0
PAGE_MIN = 4.0
ROUTE_MIN_PER_M = 2.0      # laying a wire along the plate and taping it down
MOUNT_MIN = {"bullet": 0.3, "pixel": 2.0, "switch": 2.0, "touch": 1.5, "ring": 10.0}
# Joints of the parts every route has: the shifter board (74AHCT125 socket 14, 100 nF 2, 330 Ω 2, a JST-SM
# pigtail in and one out 6, links 6), the enclosure's header for the Pi's GPIO18, 5 V and ground onto the shifter's
# lead 3 (the jack, fuse holder, 1000 µF and the LED supply's feeds go in lever connectors and screw terminals,
# unsoldered) and the panel (3 buttons × 2, the encoder's 5 pins, the piezo's 2).
ENCLOSURE_JOINTS = 33
ENCLOSURE_WIRES = 9
PANEL_JOINTS = 13
PANEL_WIRES = 8
FIXED_MIN = {"print, trim and tape the map, lay it on the plate": 30.0,
             "frame, middle rail, supports, threaded inserts": 100.0,
             "enclosure: Pi, Pico, supply, board, connectors": 45.0,
             "bring-up: test pixels and a sensor, short check, current-limited first power": 20.0,
             # the builder's own time: rpi-ws281x compiling and the 150-LED walk are waits
             "software: install, flash the Pico, check, calibrate": 45.0}


@dataclass(frozen=True)
class Task:
    name: str
    joints: int
    minutes: float


@dataclass(frozen=True)
class Effort:
    tasks: tuple[Task, ...]

    @property
    def joints(self) -> int:
        return sum(t.joints for t in self.tasks)

    @property
    def hours(self) -> float:
        return sum(t.minutes for t in self.tasks) / 60


def _task(name: str, joints: int, wires: int = 0, other_min: float = 0.0) -> Task:
    return Task(name, joints, joints * JOINT_MIN + wires * WIRE_MIN + other_min)


def effort(layout: Layout, wires: Routes, chain: ChainPlan, pages: int) -> Effort:
    route = layout.route
    holes = [p for p in layout.parts if p.hole > 0]
    big = sum(1 for p in holes if p.hole >= 12 and p.kind is not PartKind.RING)
    ring_cut = sum(1 for p in holes if p.kind is PartKind.RING)
    tasks = [Task("print the tiled map", 0, pages * PAGE_MIN),
             Task(f"drill {len(holes)} holes from the drill template", 0,
                  (len(holes) - big - ring_cut) * HOLE_MIN + big * BIG_HOLE_MIN + ring_cut * RING_CUT_MIN)]
    tasks += _led_tasks(layout, wires, chain) if route.leds == "string" else _pixel_tasks(layout, wires)
    tasks += _sensor_tasks(layout, wires)
    tasks += [_task("shifter board and enclosure: 74AHCT125, fuse, capacitors, jack", ENCLOSURE_JOINTS,
                    ENCLOSURE_WIRES),
              _task("panel: buttons, encoder, piezo", PANEL_JOINTS, PANEL_WIRES)]
    tasks += [Task(name, 0, minutes) for name, minutes in FIXED_MIN.items()]
    return Effort(tuple(tasks))


def _led_tasks(layout: Layout, wires: Routes, chain: ChainPlan) -> list[Task]:
    hops = dict(wires.hops())
    spare_mm = sum(max(0.0, r.pitch - hops[led] * SLACK) for r in chain.runs for led in r.leds[1:] if led in hops)
    tasks = [Task(f"push in {chain.bullets} bullet pixels, coil the spare wire", 0,
                  chain.bullets * MOUNT_MIN["bullet"] + spare_mm / 1000 * COIL_MIN_PER_M
                  + length(wires.chain) / 1000 * ROUTE_MIN_PER_M),
             _task(f"splice {chain.spliced} extensions into the strings", 6 * chain.spliced, 3 * chain.spliced)]
    if chain.ring_pigtail:
        tasks.append(_task("ring board on its pigtail, in its hole", 3, 0, MOUNT_MIN["ring"]))
    return tasks


def _pixel_tasks(layout: Layout, wires: Routes) -> list[Task]:
    leds = [p for p in layout.parts if p.kind is PartKind.LED]
    metres = 3 * length(wires.chain) / 1000
    return [_task(f"glue {len(leds)} single pixels, wire them (3 wires a hop)", 6 * len(leds), 3 * len(leds),
                  len(leds) * MOUNT_MIN["pixel"] + metres * ROUTE_MIN_PER_M)]


def _sensor_tasks(layout: Layout, wires: Routes) -> list[Task]:
    sensors = layout.profile.sensors
    count = sum(1 for p in layout.parts if p.kind in SENSORS)
    if sensors.kind is SensorKind.SERIAL and sensors.part is SensorPart.MPR121:
        metres = sum(math.dist(a, b) for _, a, b in wires.pad_wires) / 1000
        # The pad end is not soldered: the wire's stripped end lies flat under the copper tape's conductive glue
        # and a second strip over it (a capacitive pad needs no low-resistance joint); the board end is.
        return [_task(f"{count} touch pads and their wires to the MPR121 boards", count, count,
                      count * MOUNT_MIN["touch"] + metres * ROUTE_MIN_PER_M),
                _task(f"{sensors.rows} MPR121 boards: address wires, I2C cables plugged", 2 * (sensors.rows - 1),
                      sensors.rows - 1, 5.0 * sensors.rows)]
    if sensors.kind is SensorKind.SERIAL:
        metres = (sum(length(r) for r in wires.rows) + sum(length(c) for c in wires.cols)) / 1000
        lines = sensors.rows + sensors.cols
        return [_task(f"glue {count} switches level, one diode each", 2 * count, 0, count * MOUNT_MIN["switch"]),
                _task(f"matrix: {sensors.rows} row and {sensors.cols} column wires", 2 * count + lines,
                      2 * count + lines, metres * ROUTE_MIN_PER_M)]
    metres = sum(length(r) for r in wires.rows) / 1000
    return [_task(f"glue {count} switches level, a wire and ground each", 3 * count, 2 * count,
                  count * MOUNT_MIN["switch"] + 2 * metres * ROUTE_MIN_PER_M)]
