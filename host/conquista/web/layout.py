"""Where each territory is drawn on the public board: the map file's optional "layout", with a default for the
classic map (cells of a grid, (column, row), roughly as on the printed board); a builder's map without a layout is
drawn one continent per row, so it still renders.
"""

from __future__ import annotations

import math

from conquista.rules.mapdata import GameMap

CLASSIC_CELLS: dict[str, tuple[int, int]] = {
    "alaska": (0, 1), "northwest_territory": (1, 1), "greenland": (3, 0), "alberta": (1, 2), "ontario": (2, 2),
    "quebec": (3, 2), "western_us": (1, 3), "eastern_us": (2, 3), "central_america": (1, 4),
    "venezuela": (2, 5), "peru": (2, 6), "brazil": (3, 6), "argentina": (2, 7),
    "iceland": (4, 1), "scandinavia": (5, 1), "great_britain": (4, 2), "northern_europe": (5, 2),
    "ukraine": (6, 2), "western_europe": (4, 3), "southern_europe": (5, 3),
    "north_africa": (4, 5), "egypt": (5, 5), "congo": (4, 6), "east_africa": (5, 6), "south_africa": (4, 7),
    "madagascar": (5, 7),
    "ural": (7, 1), "siberia": (8, 1), "yakutsk": (9, 0), "kamchatka": (10, 0), "irkutsk": (9, 1),
    "mongolia": (9, 2), "japan": (10, 2), "afghanistan": (7, 2), "china": (8, 3), "middle_east": (6, 4),
    "india": (7, 4), "siam": (8, 4),
    "indonesia": (8, 6), "new_guinea": (9, 6), "western_australia": (8, 7), "eastern_australia": (9, 7),
}


def board_cells(game_map: GameMap) -> dict[str, tuple[int, int]]:
    """The (column, row) of every territory id: the map file's layout, else the default."""
    if game_map.cells:
        return {t.id: game_map.cells[t.index] for t in game_map.territories}
    if all(t.id in CLASSIC_CELLS for t in game_map.territories):
        return {t.id: CLASSIC_CELLS[t.id] for t in game_map.territories}
    cells: dict[str, tuple[int, int]] = {}
    for row, continent in enumerate(game_map.continents):
        for column, t in enumerate(continent.territories):
            cells[game_map.id(t)] = (column, row)
    return cells


# The schematic board of a map without shapes: points in a SCHEMATIC_WIDTH × SCHEMATIC_HEIGHT box.
SCHEMATIC_WIDTH = 1600
SCHEMATIC_HEIGHT = 800
_MARGIN = 70
_ROUNDS = 300


def schematic_points(game_map: GameMap) -> dict[str, tuple[float, float]]:
    """Where each territory of a map without shapes is drawn: the map file's layout when it has one (the builder
    placed the cells), else a layout generated from the links alone, so a builder's map still reads as a board.

    The generated layout is a spring model (Fruchterman and Reingold): linked territories pull together, every
    pair pushes apart. It starts from the continents on a ring, each continent's territories on a small ring, so it
    is the same on every run (no randomness) and continents stay together."""
    if game_map.cells:
        cells = {t.id: game_map.cells[t.index] for t in game_map.territories}
    else:
        cells = _on_grid(_springs(game_map))
    return _fit({tid: (float(c), float(r)) for tid, (c, r) in cells.items()})


def _on_grid(points: dict[str, tuple[float, float]]) -> dict[str, tuple[int, int]]:
    """Each point moved to the nearest free cell of a grid with room to spare, so no two boxes overlap: the springs
    give the arrangement, the grid the spacing. The points nearest the middle choose first."""
    n = len(points)
    columns = math.ceil(math.sqrt(n * 1.3 * SCHEMATIC_WIDTH / SCHEMATIC_HEIGHT))
    rows = math.ceil(n * 1.3 / columns)
    xs = [p[0] for p in points.values()]
    ys = [p[1] for p in points.values()]
    width = max(max(xs) - min(xs), 1e-9)
    height = max(max(ys) - min(ys), 1e-9)
    wanted = {tid: ((x - min(xs)) / width * (columns - 1), (y - min(ys)) / height * (rows - 1))
              for tid, (x, y) in points.items()}
    middle = ((columns - 1) / 2, (rows - 1) / 2)
    free = {(c, r) for c in range(columns) for r in range(rows)}
    out: dict[str, tuple[int, int]] = {}
    for tid in sorted(wanted, key=lambda t: (math.dist(wanted[t], middle), t)):
        cell = min(free, key=lambda c: (math.dist(c, wanted[tid]), c))
        free.remove(cell)
        out[tid] = cell
    return out


def _springs(game_map: GameMap) -> dict[str, tuple[float, float]]:
    n = game_map.size
    x = [0.0] * n
    y = [0.0] * n
    continents = game_map.continents
    for k, continent in enumerate(continents):
        angle = 2 * math.pi * k / len(continents)
        cx, cy = 2.0 * math.cos(angle), math.sin(angle)
        for j, t in enumerate(continent.territories):
            a = 2 * math.pi * j / max(1, len(continent.territories))
            x[t], y[t] = cx + 0.4 * math.cos(a), cy + 0.4 * math.sin(a)
    ideal = math.sqrt(8.0 / n)              # the spring's rest length: the box (4 × 2) shared out
    step = 0.3
    for _ in range(_ROUNDS):
        dx = [0.0] * n
        dy = [0.0] * n
        for i in range(n):
            for j in range(i + 1, n):
                ex, ey = x[i] - x[j], y[i] - y[j]
                d2 = max(ex * ex + ey * ey, 1e-6)
                push = ideal * ideal / d2
                dx[i] += ex * push
                dy[i] += ey * push
                dx[j] -= ex * push
                dy[j] -= ey * push
        for i in range(n):
            for j in game_map.neighbours[i]:
                if j > i:
                    ex, ey = x[i] - x[j], y[i] - y[j]
                    pull = math.hypot(ex, ey) / ideal
                    dx[i] -= ex * pull
                    dy[i] -= ey * pull
                    dx[j] += ex * pull
                    dy[j] += ey * pull
        for i in range(n):
            length = math.hypot(dx[i], dy[i])
            if length > 0:
                move = min(length, step)
                x[i] += dx[i] / length * move
                y[i] += dy[i] / length * move
        step = max(0.005, step * 0.985)     # cooling: big moves first, then settle
    return {t.id: (x[t.index], y[t.index]) for t in game_map.territories}


def _fit(points: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Scale and centre the points into the schematic box, keeping their proportions."""
    xs = [p[0] for p in points.values()]
    ys = [p[1] for p in points.values()]
    width = max(max(xs) - min(xs), 1e-9)
    height = max(max(ys) - min(ys), 1e-9)
    scale = min((SCHEMATIC_WIDTH - 2 * _MARGIN) / width, (SCHEMATIC_HEIGHT - 2 * _MARGIN) / height)
    left = (SCHEMATIC_WIDTH - width * scale) / 2
    top = (SCHEMATIC_HEIGHT - height * scale) / 2
    return {tid: (round(left + (px - min(xs)) * scale, 1), round(top + (py - min(ys)) * scale, 1))
            for tid, (px, py) in points.items()}
