"""The kit's text files: `positions.json` (every part in mm, for other tools) and `bom.csv` / `bom.md`."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from conquista.boardtools.kit.plan.board import SENSORS, PartKind
from conquista.boardtools.kit.plan.bom import FUSE_FACTOR, HEADROOM_MA, Line, fuse_amps, supply_amps
from conquista.boardtools.kit.plan.effort import TARGET_HOURS, TARGET_JOINTS, Effort
from conquista.boardtools.kit.plan.placement import Layout
from conquista.boardtools.kit.plan.prices import CURRENCY, PRICES_AS_OF, line_price, unit_price


def _at(x: float, y: float) -> list[float]:
    return [round(x, 1), round(y, 1)]


def positions_json(layout: Layout) -> str:
    profile = layout.profile
    pads = {pad.territory: pad for pad in layout.pads}
    territories: dict[str, Any] = {}
    for t in profile.game_map.territories:
        own = [p for p in layout.parts if p.territory == t.id]
        switch = next(p for p in own if p.kind in SENSORS)
        pad = pads.get(t.id)
        territories[t.id] = {
            "switch": _at(switch.x, switch.y),
            "leds": [{"index": p.led, "at": _at(p.x, p.y)} for p in own if p.kind is PartKind.LED],
            "pad": None if pad is None else {"centre": _at(pad.x, pad.y), "size": [pad.width, pad.height],
                                             "leader": [_at(*pad.leader[0]), _at(*pad.leader[1])],
                                             "fits_inside_from_size": list(pad.fits_at)},
        }
    panel = [p for p in layout.parts if p.territory is None]
    data = {
        "format": 1,
        "profile": profile.name,
        "map": profile.game_map.name,
        "drawn_from": layout.outline.source,
        "units": "mm; origin at the board's top-left corner seen from above, x to the right, y down",
        "size": [layout.frame.width, layout.frame.height],
        "min_spacing": round(layout.min_spacing(), 2),
        "territories": territories,
        "dice": [{"name": p.name, "index": p.led, "at": _at(p.x, p.y)} for p in panel if "die" in p.name],
        "ring": [{"name": p.name, "index": p.led, "at": _at(p.x, p.y)} for p in panel if p.name.startswith("ring")],
        "holes": [{"kind": p.kind.value, "name": p.name, "at": _at(p.x, p.y), "diameter": p.hole}
                  for p in panel if p.kind is not PartKind.LED and p.hole > 0],
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _qty(line: Line) -> str:
    return f"{line.qty:g}"


GROUPS = (("parts", "Parts"), ("connectors", "Connectors: the plate and the enclosure come apart"),
          ("mechanics", "Mechanics"), ("consumables", "Consumables"), ("tools", "Tools"))


def bom_csv(lines: list[Line]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["group", "qty", "unit", "part", "values", "typical part number", "where",
                     f"indicative unit price {CURRENCY}", f"indicative line price {CURRENCY}"])
    for line in lines:
        price = unit_price(line)
        writer.writerow([line.group, _qty(line), line.unit, line.part, line.values, line.number, line.where,
                         "" if price is None else f"{price:.2f}", f"{line_price(line):.2f}"])
    return buffer.getvalue()


def bom_md(lines: list[Line], layout: Layout, work: Effort) -> str:
    profile = layout.profile
    strip = profile.strip
    out = [f"# Parts for {profile.name} ({layout.frame.width:g} × {layout.frame.height:g} mm)", "",
           f"Computed by `conquista board kit` from the profile and the map {profile.game_map.name}: "
           f"{strip.length} LEDs on the chain ({layout.route.leds} route), buy a few spare. A part number is a "
           "typical one: any part of the same values does.", "",
           f"Supply and fuse, one rule from `supply_ma` = {strip.supply_ma:g} mA (the referee never lets the LEDs draw "
           f"more): the fuse is the next standard slow-blow value at or above {FUSE_FACTOR:g} × supply_ma, "
           f"**{fuse_amps(strip.supply_ma):g} A**, so it never opens at the limit; the supply the next common "
           f"rating at or above supply_ma + {HEADROOM_MA} mA and at or above the fuse, "
           f"**{supply_amps(strip.supply_ma):g} A**, so the fuse opens before the supply is overloaded.", ""]
    totals: dict[str, float] = {}
    for group, title in GROUPS:
        rows = [line for line in lines if line.group == group]
        if not rows:
            continue
        out += [f"## {title}", "", f"| Qty | Part | Values | Typical part | Where | Each ({CURRENCY}) | "
                f"Line ({CURRENCY}) |", "|---|---|---|---|---|---:|---:|"]
        for line in rows:
            unit = " m" if line.unit == "m" else ""
            price = unit_price(line)
            each = "?" if price is None else f"{price:.2f}"
            out.append(f"| {_qty(line)}{unit} | {line.part} | {line.values} | {line.number} | {line.where} | {each} "
                       f"| {line_price(line):.2f} |")
        totals[title] = sum(line_price(line) for line in rows)
        out += [f"| | **{title.split(':')[0].lower()}: {totals[title]:.2f} {CURRENCY}** | | | | | |", ""]
    build = sum(v for k, v in totals.items() if k != "Tools")
    out += ["## Prices", "",
            f"**Total for the build: about {build:.0f} {CURRENCY}** (parts, connectors, mechanics and consumables; "
            f"tools, if you own none, {totals.get('Tools', 0.0):.0f} {CURRENCY} more). Prices are **indicative**: "
            f"typical hobby-electronics shop prices in {CURRENCY} with VAT, {PRICES_AS_OF}, one unit (a piece or a "
            "metre) each; shops and dates differ, so check before ordering. The Raspberry Pi line counts a Pi 4 B "
            "with its supply and a memory card.", ""]
    out += ["Wire lengths follow the routes of `wiring.pdf`, with a quarter more for bends and joints, rounded up to "
            "half a metre.", "", "## The work, by task", "",
            f"**{work.joints} solder joints, {work.hours:.1f} hours** (the target for the reference board: at most "
            f"{TARGET_JOINTS} joints and {TARGET_HOURS:g} h). The model is in `plan/effort.py`: a joint a minute, a "
            "wire cut and stripped half a minute, each part's mounting and each fixed task a hobbyist's time.", "",
            "| Task | Joints | Minutes |", "|---|---|---|"]
    for task in work.tasks:
        out.append(f"| {task.name} | {task.joints} | {task.minutes:.0f} |")
    out.append(f"| **total** | **{work.joints}** | **{work.hours * 60:.0f}** |")
    return "\n".join(out) + "\n"
