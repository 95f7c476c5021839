"""Where every territory's switch and LEDs go, computed, never placed by hand.

The sensor (a switch or a touch pad) sits at the territory's pole of inaccessibility (shapely's `polylabel`: the
point farthest from its border), where a fingertip finds it. The LEDs are spread over the rest of the territory one
at a time, each at the
candidate point farthest from the parts already placed, held back from the border so the light stays inside the
territory. Every part keeps the route's spacing (16 mm for bullet pixels) from every other and half of that from
its territory's border, so two territories' parts can never come closer either; parts on one PCB (the ring
board's LEDs) are its maker's pitch and not counted.

A territory whose parts do not fit at that spacing (an island, an isthmus) gets them on a marked pad in the sea
beside it, with a leader line to the territory; the pad is the nearest free spot of the sea that keeps clear of the
land and of the other pads. With no such spot the kit refuses the size, naming the territory and the smallest
board at which it fits inside itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from conquista.boardtools.kit.plan.board import (
    MARGIN,
    SUPPORT_MM,
    Frame,
    Part,
    PartKind,
    Route,
    frame,
    panel_parts,
    route_for,
)
from conquista.boardtools.kit.plan.outline import Outline
from conquista.errors import BoardToolError
from conquista.hardware.profile import BoardProfile

SEA_CLEARANCE = 3.0         # mm between a pad and the nearest land or other pad
GRID_POINTS = 4000          # candidate points per territory, at most


@dataclass(frozen=True)
class Pad:
    """A territory's parts moved into the sea: a rectangle (centre, size) and the leader line's two ends."""

    territory: str
    x: float
    y: float
    width: float
    height: float
    leader: tuple[tuple[float, float], tuple[float, float]]
    fits_at: tuple[int, int]     # the smallest board (mm) at which the territory holds its own parts


@dataclass(frozen=True)
class Layout:
    """Everything mounted on the board, in mm, and the territories' shapes in mm for the drawings."""

    profile: BoardProfile
    outline: Outline
    frame: Frame
    shapes: dict[str, Any]             # territory id -> shapely shape in mm
    parts: tuple[Part, ...]
    pads: tuple[Pad, ...]
    route: Route

    def min_spacing(self) -> float:
        return smallest_spacing(self.parts)


def smallest_spacing(parts: tuple[Part, ...] | list[Part]) -> float:
    """The least distance between two separate parts: the LEDs of one board are its maker's pitch, a ring board
    and its own LEDs one part, and support blocks (glued, not drilled) are kept clear by their own rule."""
    import numpy as np

    parts = [p for p in parts if p.kind is not PartKind.SUPPORT]
    xy = np.array([(p.x, p.y) for p in parts])
    if len(xy) < 2:
        return math.inf
    d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    group = [p.board or ("ring" if p.kind is PartKind.RING else f"#{i}") for i, p in enumerate(parts)]
    same = np.array([[a == b for b in group] for a in group])
    d[same] = np.inf
    return float(d.min())


def _largest(shape: Any) -> Any:
    if shape.geom_type == "MultiPolygon":
        return max(shape.geoms, key=lambda g: g.area)
    return shape


def _candidates(inner: Any) -> Any:
    """A grid of points inside `inner`, fine enough for a small territory, bounded for a large one."""
    import numpy as np
    import shapely

    x0, y0, x1, y1 = inner.bounds
    step = max(1.0, math.sqrt((x1 - x0) * (y1 - y0) / GRID_POINTS))
    xs, ys = np.meshgrid(np.arange(x0, x1 + step, step), np.arange(y0, y1 + step, step))
    flat_x, flat_y = xs.ravel(), ys.ravel()
    inside = shapely.contains_xy(inner, flat_x, flat_y)
    return np.column_stack([flat_x[inside], flat_y[inside]])


def fit_inside(shape: Any, leds: int, others: Any, route: Route) -> list[tuple[float, float]] | None:
    """The sensor's point and then each LED's, inside `shape` (mm), the LEDs `route.spacing` from each other and
    from `others` (an array of points already placed), the sensor `route.sensor_clear` from every hole; None when
    they do not fit."""
    import numpy as np
    import shapely
    from shapely.ops import polylabel

    spacing, clear = route.spacing, route.sensor_clear
    inner = _largest(shape.buffer(-route.edge)) if not shape.is_empty else shape
    if inner.is_empty or inner.area <= 0:
        return None
    sensor = polylabel(inner, tolerance=0.25)
    chosen = [(sensor.x, sensor.y)]
    points = _candidates(inner)
    if len(points) == 0:
        return None
    depth = shapely.distance(inner.exterior, shapely.points(points))
    placed = np.array(others).reshape(-1, 2)
    if len(placed) and float(np.min(np.hypot(placed[:, 0] - sensor.x, placed[:, 1] - sensor.y))) < clear:
        return None
    near = np.full(len(points), np.inf)
    for px, py in map(tuple, placed):
        near = np.minimum(near, np.hypot(points[:, 0] - px, points[:, 1] - py))
    # The sensor counts as a part `clear` away is as good as an LED `spacing` away.
    near = np.minimum(near, np.hypot(points[:, 0] - sensor.x, points[:, 1] - sensor.y) + spacing - clear)
    for _ in range(leds):
        # Far from what is placed, but a point deep inside beats one on the border by a little.
        score = np.where(near >= spacing, np.minimum(near, 2 * depth + spacing), -1.0)
        best = int(np.argmax(score))
        if score[best] < 0:
            return None
        x, y = float(points[best, 0]), float(points[best, 1])
        chosen.append((x, y))
        near = np.minimum(near, np.hypot(points[:, 0] - x, points[:, 1] - y))
    return chosen


def _territory_parts(tid: str, profile: BoardProfile, index: int, points: list[tuple[float, float]],
                     route: Route) -> list[Part]:
    leds = profile.territory_leds[index]
    parts = [Part(route.sensor, *points[0], tid, territory=tid)]
    parts += [Part(PartKind.LED, x, y, tid, led, tid, diameter=route.led_hole)
              for (x, y), led in zip(points[1:], leds, strict=True)]
    return parts


def plan_layout(profile: BoardProfile, outline: Outline, size: tuple[float, float],
                route: Route | None = None) -> Layout:
    """Every part of the board at `size` (mm): the territories' sensors and LEDs, pads where needed, the band,
    the supports under the span."""
    import numpy as np
    from shapely.affinity import affine_transform

    route = route or route_for(profile)
    f = frame(size, outline.width, outline.height, profile, route)
    matrix = [f.scale, 0, 0, f.scale, f.x0, f.y0]
    shapes = {tid: affine_transform(shape, matrix) for tid, shape in outline.shapes.items()}
    game_map = profile.game_map
    parts: list[Part] = panel_parts(profile, f, route)
    too_small: list[str] = []
    for territory in game_map.territories:
        placed = np.array([(p.x, p.y) for p in parts])
        points = fit_inside(shapes[territory.id], len(profile.territory_leds[territory.index]), placed, route)
        if points is None:
            too_small.append(territory.id)
        else:
            parts += _territory_parts(territory.id, profile, territory.index, points, route)
    pads: list[Pad] = []
    for tid in too_small:
        pad, points = _pad(tid, shapes, pads, f, profile, size, route)
        pads.append(pad)
        parts += _territory_parts(tid, profile, game_map.index(tid), points, route)
    parts += supports(parts, f)
    return Layout(profile, outline, f, shapes, tuple(parts), tuple(pads), route)


SPAN_MM = 400.0   # a 4 mm plate sags visibly over more than this between battens (the frame's edge, the panel rail)


def supports(parts: list[Part], f: Frame) -> list[Part]:
    """Blocks glued under the plate on the middle rail across the map, so no span of it is longer than SPAN_MM:
    each where no hole is within a block's reach, as near to its even spacing as that allows."""
    import numpy as np

    count = math.ceil((f.width - 2 * MARGIN) / SPAN_MM) - 1
    if count <= 0:
        return []
    xy = np.array([(p.x, p.y) for p in parts])
    reach = SUPPORT_MM / 2 * math.sqrt(2) + 7.0      # the block's corner, and a 12 mm hole's edge beyond it
    y_mid = MARGIN + (f.band_top - MARGIN) / 2
    out = []
    for i in range(1, count + 1):
        x_aim = MARGIN + i * (f.width - 2 * MARGIN) / (count + 1)
        candidates = sorted(((x_aim + dx, y_mid + dy) for dx in range(-120, 121, 4) for dy in range(-100, 101, 4)),
                            key=lambda c: math.dist(c, (x_aim, y_mid)))
        for x, y in candidates:
            if float(np.min(np.hypot(xy[:, 0] - x, xy[:, 1] - y))) >= reach:
                out.append(Part(PartKind.SUPPORT, x, y, f"support {i}", diameter=0.0))
                break
    return out


def _pad(tid: str, shapes: dict[str, Any], pads: list[Pad], f: Frame, profile: BoardProfile,
         size: tuple[float, float], route: Route) -> tuple[Pad, list[tuple[float, float]]]:
    from shapely.geometry import box
    from shapely.ops import nearest_points, polylabel, unary_union

    count = 1 + len(profile.territory_leds[profile.game_map.index(tid)])
    pitch = route.spacing + 2
    shape = shapes[tid]
    anchor = polylabel(_largest(shape), tolerance=0.25)
    blocked = unary_union([*(s.buffer(SEA_CLEARANCE) for s in shapes.values()),
                           *(box(p.x - p.width / 2, p.y - p.height / 2, p.x + p.width / 2,
                                 p.y + p.height / 2).buffer(SEA_CLEARANCE) for p in pads)])
    sea = box(MARGIN, MARGIN, f.width - MARGIN, f.band_top - 2)
    # One row of parts, else two (a narrow sea takes a squarer pad).
    for rows in (1, 2) if count > 2 else (1,):
        across = math.ceil(count / rows)
        width, height = across * pitch + 4, rows * pitch + 4
        for distance in range(int(height), 200, 3):
            for step in range(36):
                angle = 2 * math.pi * step / 36
                cx, cy = anchor.x + distance * math.cos(angle), anchor.y + distance * math.sin(angle)
                rect = box(cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)
                if sea.contains(rect) and not rect.intersects(blocked):
                    start, end = nearest_points(rect.exterior, anchor)
                    points = [(cx - width / 2 + 2 + pitch * (i % across + 0.5),
                               cy - height / 2 + 2 + pitch * (i // across + 0.5)) for i in range(count)]
                    return Pad(tid, cx, cy, width, height, ((start.x, start.y), (end.x, end.y)),
                               fits_at(shapes[tid], count - 1, f, size, route)), points
    w, h = fits_at(shape, count - 1, f, size, route)
    raise BoardToolError(f"territory {tid!r}: its {count} parts fit neither inside it nor on a pad in the sea at "
                         f"--size {size[0]:g}x{size[1]:g}; it fits inside itself from --size {w}x{h}")


def fits_at(shape: Any, leds: int, f: Frame, size: tuple[float, float], route: Route) -> tuple[int, int]:
    """The smallest board (mm, whole) at which the territory holds its switch and LEDs inside itself: the map's
    scale grows by k when the map's room grows by k, the margins and the band staying as they are."""
    from shapely.affinity import scale

    def fits(k: float) -> bool:
        return fit_inside(scale(shape, k, k, origin=(0, 0)), leds, (), route) is not None

    low, high = 1.0, 2.0
    while not fits(high):
        low, high = high, high * 2
        if high > 64:
            raise BoardToolError("a territory's outline has almost no area: fix its outline")
    for _ in range(12):
        middle = (low + high) / 2
        low, high = (low, middle) if fits(middle) else (middle, high)
    room_w, room_h = size[0] - 2 * MARGIN, size[1] - 2 * MARGIN - f.band
    return (math.ceil(room_w * high + 2 * MARGIN), math.ceil(room_h * high + 2 * MARGIN + f.band))
