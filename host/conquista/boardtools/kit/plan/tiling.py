"""The board's map cut into home-printer pages: each page prints a window of the board at 1:1 inside the margin a
printer cannot reach, neighbouring windows overlapping so the sheets can be trimmed and glued edge over edge."""

from __future__ import annotations

import math
from dataclasses import dataclass

from conquista.errors import BoardToolError

PAPERS = {"a4": (210.0, 297.0), "a3": (297.0, 420.0)}   # portrait width × height, mm
PRINT_MARGIN = 10.0    # mm at each edge a home printer leaves blank
OVERLAP = 12.0         # mm each window shares with its neighbour, at least
REG_RADIUS = 4.0       # mm: a registration target's circle
REG_REACH = 1.6 * REG_RADIUS   # mm from its centre to the ends of its cross
REG_CLEAR = 1.5        # mm between a target and any printed part or pad
REG_STEP = 1.0         # mm between the places tried for a target


@dataclass(frozen=True)
class Tile:
    row: int         # from 1, top to bottom
    col: int         # from 1, left to right
    x: float         # the window's top-left corner on the board, mm
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Tiling:
    paper: str
    page_width: float    # as printed: landscape or portrait, whichever takes fewer sheets
    page_height: float
    rows: int
    cols: int
    tiles: tuple[Tile, ...]


def _starts(length: float, window: float) -> list[float]:
    """Where the windows start along one side: as few as cover it with the overlap, spread evenly."""
    if length <= window:
        return [(length - window) / 2]
    count = math.ceil((length - OVERLAP) / (window - OVERLAP))
    step = (length - window) / (count - 1)
    return [i * step for i in range(count)]


def tile(board_width: float, board_height: float, paper: str) -> Tiling:
    if paper not in PAPERS:
        raise BoardToolError(f"--paper {paper}: unknown paper; use one of {', '.join(sorted(PAPERS))}")
    short, long = PAPERS[paper]
    best: Tiling | None = None
    for page_w, page_h in ((short, long), (long, short)):
        win_w, win_h = page_w - 2 * PRINT_MARGIN, page_h - 2 * PRINT_MARGIN
        xs, ys = _starts(board_width, win_w), _starts(board_height, win_h)
        tiles = tuple(Tile(r + 1, c + 1, x, y, win_w, win_h) for r, y in enumerate(ys) for c, x in enumerate(xs))
        if best is None or len(tiles) < len(best.tiles):
            best = Tiling(paper, page_w, page_h, len(ys), len(xs), tiles)
    assert best is not None
    return best


Disc = tuple[float, float, float]                   # a printed part: centre x, y and radius, mm
Box = tuple[float, float, float, float]             # a pad: left, top, right, bottom, mm


def registration_points(tiling: Tiling, board: tuple[float, float], discs: list[Disc],
                        boxes: list[Box]) -> list[tuple[float, float]]:
    """Two targets in every overlap between neighbouring windows, each circle wholly inside the overlap (so both
    sheets print all of it) and on the board, and clear of every printed part and pad: a target over a switch ring hides
    the ring the builder lines the print up by. Each is placed as near as it can be to a quarter and three
    quarters of the shared edge; an overlap too crowded for a clear place takes its least crowded one."""
    points: list[tuple[float, float]] = []
    by_place = {(t.row, t.col): t for t in tiling.tiles}
    for t in tiling.tiles:
        for other in (by_place.get((t.row, t.col + 1)), by_place.get((t.row + 1, t.col))):
            if other is None:
                continue
            area = _inside(_overlap(t, other), board)
            if area is None:
                continue
            across_x = other.col != t.col      # a right-hand neighbour: the strip runs down the page
            first = _clearest(area, 0.25, across_x, discs, boxes, [])
            points += [first, _clearest(area, 0.75, across_x, discs, boxes, [first])]
    return points


def _overlap(a: Tile, b: Tile) -> Box:
    return (max(a.x, b.x), max(a.y, b.y), min(a.x + a.width, b.x + b.width), min(a.y + a.height, b.y + b.height))


def _inside(area: Box, board: tuple[float, float]) -> Box | None:
    """Where a target's circle fits whole in the overlap and on the board, or None. (Its cross may reach a little
    past the overlap, into what one sheet loses when trimmed: the circle is what is lined up.)"""
    left, top = max(area[0], 0.0) + REG_RADIUS, max(area[1], 0.0) + REG_RADIUS
    right, bottom = min(area[2], board[0]) - REG_RADIUS, min(area[3], board[1]) - REG_RADIUS
    return (left, top, right, bottom) if left <= right and top <= bottom else None


def _clearest(area: Box, fraction: float, across_x: bool, discs: list[Disc], boxes: list[Box],
              taken: list[tuple[float, float]]) -> tuple[float, float]:
    """The place in `area` nearest to `fraction` of its length with room for a target; else the roomiest."""
    left, top, right, bottom = area
    along = _steps(top, bottom, top + (bottom - top) * fraction) if across_x else \
        _steps(left, right, left + (right - left) * fraction)
    across = _steps(left, right, (left + right) / 2) if across_x else _steps(top, bottom, (top + bottom) / 2)
    apart = max(bottom - top, right - left) / 4      # the two targets of one edge stay well apart
    best, room = (0.0, 0.0), -math.inf
    for a in along:
        for c in across:
            x, y = (c, a) if across_x else (a, c)
            if any(math.hypot(x - px, y - py) < apart for px, py in taken):
                continue
            clearance = target_clearance(x, y, discs, boxes)
            if clearance >= REG_CLEAR:
                return (x, y)
            if clearance > room:
                best, room = (x, y), clearance
    return best


def _steps(low: float, high: float, start: float) -> list[float]:
    """Positions from `start` outwards, both ways, REG_STEP apart, within [low, high]."""
    count = int((high - low) / REG_STEP) + 1
    points = [low + i * REG_STEP for i in range(count)]
    return sorted(points, key=lambda p: abs(p - start))


def target_clearance(x: float, y: float, discs: list[Disc], boxes: list[Box]) -> float:
    """The gap between a target at (x, y) (its cross's reach) and the nearest printed part or pad, mm."""
    gaps = [math.hypot(x - px, y - py) - r - REG_REACH for px, py, r in discs]
    for left, top, right, bottom in boxes:
        dx = max(left - x, 0.0, x - right)
        dy = max(top - y, 0.0, y - bottom)
        gaps.append(math.hypot(dx, dy) - REG_REACH)
    return min(gaps, default=math.inf)
