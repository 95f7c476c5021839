"""The LED chain as pixel strings are bought: runs of 12 mm bullet pixels, each of a standard wire length
between pixels, plugged into each other by the strings' own JST-SM connectors, with an extension spliced in where a
hop is longer than the string's wire; the ring board on a pigtail at its end.

A string's wire follows the plate with some slack (`SLACK`), so a hop of d mm needs d × SLACK of wire. Each run
(the territories, the dice) takes the standard length that costs least: an extension is a cut and six joints
(`EXTENSION_MIN` minutes), every metre of spare wire coiled and taped away `COIL_MIN_PER_M`.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from conquista.boardtools.kit.plan.placement import Layout
from conquista.boardtools.kit.plan.routes import DATA_LEAD_MAX_MM, WIRE_SLACK, Routes

STRING_PITCHES_MM = (70.0, 100.0, 120.0, 150.0, 200.0, 250.0)   # wire between pixels, as strings are sold
STRING_PIXELS = 50                                              # pixels on one string as sold
EXTENSION_LENGTHS_MM = (300.0, 500.0, 1000.0, 2000.0)           # 3-core JST-SM extension leads as sold
SLACK = 1.2
EXTENSION_MIN = 12.0
COIL_MIN_PER_M = 3.0


@dataclass(frozen=True)
class Run:
    what: str                     # "territories", "dice"
    leds: tuple[int, ...]         # chain indices of its pixels
    pitch: float                  # mm of wire between two pixels of the string bought
    extensions: tuple[tuple[int, float], ...]   # (LED, hop mm) spliced with an extension before that LED

    @property
    def strings(self) -> int:
        return math.ceil(len(self.leds) / STRING_PIXELS)


@dataclass(frozen=True)
class ChainPlan:
    runs: tuple[Run, ...]
    leads: tuple[tuple[str, float], ...]     # plug-in extension leads: (what it joins, mm), none soldered
    ring_pigtail: bool                       # the ring board soldered to a JST-SM pigtail

    @property
    def bullets(self) -> int:
        return sum(len(r.leds) for r in self.runs)

    @property
    def spliced(self) -> int:
        return sum(len(r.extensions) for r in self.runs)


def _cost(hops: list[tuple[int, float]], pitch: float) -> float:
    long = sum(1 for _, d in hops if d * SLACK > pitch)
    spare = sum(max(0.0, pitch - d * SLACK) for _, d in hops) / 1000
    return long * EXTENSION_MIN + spare * COIL_MIN_PER_M


def lead_length(mm: float) -> float:
    """The shortest extension lead sold that covers `mm` of route with slack."""
    need = mm * SLACK
    return next((length for length in EXTENSION_LENGTHS_MM if length >= need), math.ceil(need / 500) * 500)


def plan_chain(layout: Layout, wires: Routes) -> ChainPlan:
    profile = layout.profile
    territory = sorted(led for leds in profile.territory_leds for led in leds)
    dice = sorted(led for die in profile.dice_attack + profile.dice_defence for led in die)
    ring_on_board = layout.route.ring is not None
    groups = [("territories", territory), ("dice", dice)]
    if not ring_on_board:
        groups.append(("ring", list(profile.ring)))
    hops = dict(wires.hops())
    runs = []
    for what, leds in groups:
        inner = [(led, hops[led]) for led in leds[1:] if led in hops]
        pitch = min(STRING_PITCHES_MM, key=lambda p: (_cost(inner, p), p))
        runs.append(Run(what, tuple(leds), pitch,
                        tuple((led, round(d)) for led, d in inner if d * SLACK > pitch)))
    leads = []
    if wires.logic_lead > 0:
        leads.append(("enclosure to the shifter board (3.3 V data, 5 V, ground): may be long, the 74AHCT125 "
                      "reads 3.3 V from 2.0 V up", lead_length(wires.logic_lead / WIRE_SLACK)))
    leads.append((f"shifter board to LED 0 (5 V data, 5 V, ground): {wires.data_lead:.0f} mm, rule: under "
                  f"{DATA_LEAD_MAX_MM:g} mm", lead_length(wires.data_lead / WIRE_SLACK)))
    for (what_a, a), (what_b, b) in itertools.pairwise(groups):
        if a and b and b[0] in hops and hops[b[0]] * SLACK > 150:
            leads.append((f"{what_a} to {what_b} (LED {a[-1]} to {b[0]})", lead_length(hops[b[0]])))
    if ring_on_board and profile.ring and profile.ring[0] in hops and hops[profile.ring[0]] * SLACK > 150:
        leads.append((f"dice to the ring board (LED {profile.ring[0]})", lead_length(hops[profile.ring[0]])))
    return ChainPlan(tuple(runs), tuple(leads), ring_on_board)
