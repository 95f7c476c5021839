"""A map's territories as shapes, in the drawing's own units (x east, y down): read from an SVG whose paths carry
each territory's id (the web map `web/static/classic-42.svg`, drawn from Natural Earth by `web/mapgen/`, or a
builder's own drawing), or, for a map without one, made from the schematic layout the web app draws from the links
(`web/layout.schematic_points`): each territory the cell of its point in the Voronoi diagram, cut to a disc.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from conquista.errors import BoardToolError
from conquista.rules.mapdata import GameMap

Point = tuple[float, float]
_TOKEN = re.compile(r"[A-Za-z]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_SVG = "{http://www.w3.org/2000/svg}"


@dataclass(frozen=True)
class Outline:
    """Where a map's territories are drawn: shapely shapes by territory id, in a width × height box."""

    width: float
    height: float
    shapes: dict[str, Any]                      # territory id -> shapely Polygon or MultiPolygon
    sea_links: tuple[tuple[Point, Point], ...]  # straight dashed lines between territories across the sea
    continent_labels: dict[str, Point]          # continent id -> where its name and bonus are written
    source: str                                 # what the shapes were drawn from, for the map's legend


def _rings(d: str, where: str) -> list[list[Point]]:
    """The closed rings of an SVG path made of straight segments (M, L, H, V, Z, absolute or relative)."""
    tokens = _TOKEN.findall(d)
    rings: list[list[Point]] = []
    ring: list[Point] = []
    x = y = 0.0
    command = ""
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.isalpha():
            command = token
            i += 1
            if command in "Zz":
                if len(ring) >= 3:
                    rings.append(ring)
                ring = [ring[0]] if ring else []
                x, y = ring[0] if ring else (x, y)
                ring = []
            elif command not in "MmLlHhVv":
                raise BoardToolError(f"{where}: uses the path command {command!r} (curves); flatten the path to "
                                     "straight segments (Inkscape: Extensions > Modify Path > Flatten Beziers)")
            continue
        relative = command.islower()
        if command in "MmLl":
            dx, dy = float(tokens[i]), float(tokens[i + 1])
            i += 2
            x, y = (x + dx, y + dy) if relative else (dx, dy)
            if command in "Mm":
                if len(ring) >= 3:
                    rings.append(ring)
                ring = []
                command = "l" if relative else "L"   # further pairs after a move are lines
        elif command in "Hh":
            x = x + float(tokens[i]) if relative else float(tokens[i])
            i += 1
        elif command in "Vv":
            y = y + float(tokens[i]) if relative else float(tokens[i])
            i += 1
        else:
            raise BoardToolError(f"{where}: a number before any path command; fix the path")
        ring.append((x, y))
    if len(ring) >= 3:
        rings.append(ring)
    return rings


def _shape(rings: list[list[Point]]) -> Any:
    """The rings filled even-odd, as SVG draws them: a ring inside another is a hole (a lake)."""
    from shapely.geometry import Polygon

    shape: Any = None
    for ring in rings:
        polygon = Polygon(ring).buffer(0)
        if polygon.is_empty:
            continue
        shape = polygon if shape is None else shape.symmetric_difference(polygon)
    return shape


def _segments(d: str) -> tuple[tuple[Point, Point], ...]:
    out: list[tuple[Point, Point]] = []
    for part in re.findall(r"M([-\d.]+),([-\d.]+)L([-\d.]+),([-\d.]+)", d):
        x1, y1, x2, y2 = (float(v) for v in part)
        out.append(((x1, y1), (x2, y2)))
    return tuple(out)


def svg_outline(text: str, source: str, game_map: GameMap) -> Outline:
    """The territories of `game_map` from an SVG whose `<path data-id="...">` elements are the territories."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise BoardToolError(f"{source}: not an SVG drawing ({exc}); give the map's SVG") from None
    view = (root.get("viewBox") or "").split()
    if len(view) != 4:
        raise BoardToolError(f"{source}: the <svg> element has no viewBox; add viewBox=\"0 0 WIDTH HEIGHT\"")
    width, height = float(view[2]), float(view[3])
    paths: dict[str, str] = {}
    sea = ""
    labels: dict[str, Point] = {}
    for element in root.iter():
        tag = element.tag.removeprefix(_SVG)
        if tag == "path" and element.get("data-id"):
            paths[element.get("data-id", "")] = element.get("d", "")
        elif tag == "path" and element.get("class") == "sea-links":
            sea = element.get("d", "")
        elif tag == "text" and element.get("data-continent"):
            labels[element.get("data-continent", "")] = (float(element.get("x", 0)), float(element.get("y", 0)))
    from shapely.geometry import box

    # The drawing is cropped to its viewBox (the web map's land runs on north of its top edge).
    frame = box(0, 0, width, height)
    shapes: dict[str, Any] = {}
    for territory in game_map.territories:
        d = paths.get(territory.id)
        shape = _shape(_rings(d, f"{source}: territory {territory.id!r}")) if d else None
        shape = shape.intersection(frame) if shape is not None else None
        if shape is None or shape.is_empty:
            raise BoardToolError(f"{source}: territory {territory.id!r} has no outline (no <path data-id="
                                 f"\"{territory.id}\"> with an area); draw it, or leave out --shapes for a "
                                 "schematic board")
        shapes[territory.id] = shape
    return Outline(width, height, shapes, _segments(sea), labels, f"{source.rsplit('/', 1)[-1]}")


SCHEMATIC_SOURCE = "schematic from the map's links"


def schematic_outline(game_map: GameMap) -> Outline:
    """A map without a drawing: the web app's schematic points, each territory its Voronoi cell cut to a disc so
    neighbours on the grid touch and a lone territory stays round."""
    from shapely import voronoi_polygons
    from shapely.geometry import MultiPoint
    from shapely.geometry import Point as ShapelyPoint

    from conquista.web.layout import SCHEMATIC_HEIGHT, SCHEMATIC_WIDTH, schematic_points

    points = schematic_points(game_map)
    ids = [t.id for t in game_map.territories]
    xy = [points[tid] for tid in ids]
    nearest = min((math.dist(a, b) for i, a in enumerate(xy) for b in xy[i + 1:]), default=SCHEMATIC_WIDTH / 4)
    radius = 0.62 * nearest
    cells = voronoi_polygons(MultiPoint(xy), extend_to=MultiPoint([(-radius, -radius), (
        SCHEMATIC_WIDTH + radius, SCHEMATIC_HEIGHT + radius)]).envelope) if len(xy) > 1 else None
    shapes: dict[str, Any] = {}
    for tid, (x, y) in zip(ids, xy, strict=True):
        disc = ShapelyPoint(x, y).buffer(radius, quad_segs=12)
        cell = next((c for c in cells.geoms if c.contains(ShapelyPoint(x, y))), disc) if cells is not None else disc
        shapes[tid] = cell.intersection(disc).buffer(-nearest * 0.03)   # a thin sea between neighbours
    links = tuple((points[game_map.id(a)], points[game_map.id(b)]) for a, b in sorted(game_map.sea_links))
    labels: dict[str, Point] = {}
    for continent in game_map.continents:
        cx = sum(points[game_map.id(t)][0] for t in continent.territories) / len(continent.territories)
        top = min(points[game_map.id(t)][1] for t in continent.territories)
        labels[continent.id] = (cx, top - radius - 14)
    return _framed(shapes, links, labels, margin=nearest * 0.2)


def _framed(shapes: dict[str, Any], links: tuple[tuple[Point, Point], ...], labels: dict[str, Point],
            margin: float) -> Outline:
    """The schematic moved into a box of its own that holds every shape and continent name."""
    from shapely.affinity import translate

    xs = [v for shape in shapes.values() for v in shape.bounds[0::2]] + [p[0] for p in labels.values()]
    ys = [v for shape in shapes.values() for v in shape.bounds[1::2]] + [p[1] - 20 for p in labels.values()]
    dx, dy = margin - min(xs), margin - min(ys)

    def moved(p: Point) -> Point:
        return (p[0] + dx, p[1] + dy)

    return Outline(max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin,
                   {tid: translate(shape, dx, dy) for tid, shape in shapes.items()},
                   tuple((moved(a), moved(b)) for a, b in links), {c: moved(p) for c, p in labels.items()},
                   SCHEMATIC_SOURCE)
