"""Where each territory is drawn on the public board: the map file's optional "layout", with a default for the
classic map (cells of a grid, (column, row), roughly as on the printed board); a builder's map without a layout is
drawn one continent per row, so it still renders.
"""

from __future__ import annotations

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
