"""The board's map cut into home-printer pages: each page prints a window of the board at 1:1 inside the margin a
printer cannot reach, neighbouring windows overlapping so the sheets can be trimmed and glued edge over edge."""

from __future__ import annotations

import math
from dataclasses import dataclass

from conquista.errors import BoardToolError

PAPERS = {"a4": (210.0, 297.0), "a3": (297.0, 420.0)}   # portrait width × height, mm
PRINT_MARGIN = 10.0    # mm at each edge a home printer leaves blank
OVERLAP = 12.0         # mm each window shares with its neighbour, at least


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
