"""The board page's map layout comes from data: the map file's optional "layout", a default for the classic map,
and one continent per row for a builder's map without one. A bad layout is refused naming the file and key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conquista.errors import MapError
from conquista.rules.mapdata import load_map
from conquista.web.layout import CLASSIC_CELLS, board_cells

REFERENCE = Path(__file__).resolve().parents[2] / "host/conquista/data/maps/classic-42.json"


def _map(tmp_path: Path, layout: Any = None, rename: bool = False) -> Path:
    data = json.loads(REFERENCE.read_text("utf-8"))
    if rename:  # a builder's own map: the same shape under other names
        text = json.dumps(data).replace("alaska", "nord_ovest")
        data = json.loads(text)
    if layout is not None:
        data["layout"] = layout
    path = tmp_path / "own.json"
    path.write_text(json.dumps(data), "utf-8")
    return path


def test_classic_map_uses_the_default_layout_with_one_cell_each() -> None:
    cells = board_cells(load_map())
    assert cells == CLASSIC_CELLS and len(set(cells.values())) == 42


def test_a_map_without_layout_is_drawn_one_continent_per_row(tmp_path: Path) -> None:
    game_map = load_map(_map(tmp_path, rename=True))
    cells = board_cells(game_map)
    assert len(set(cells.values())) == game_map.size
    assert {row for _c, row in cells.values()} == set(range(len(game_map.continents)))


def test_the_map_files_layout_wins(tmp_path: Path) -> None:
    ids = [t["id"] for t in json.loads(REFERENCE.read_text("utf-8"))["territories"]]
    layout = {tid: [i % 7, i // 7] for i, tid in enumerate(ids)}
    cells = board_cells(load_map(_map(tmp_path, layout)))
    assert cells["alaska"] == (0, 0) and cells[ids[8]] == (1, 1)


@pytest.mark.parametrize(("layout", "message"), [
    ([1, 2], "'layout' must be an object"),
    ({"atlantis": [0, 0]}, "unknown territory 'atlantis'"),
    ({"alaska": [0]}, r"layout\['alaska'\] must be \[column, row\]"),
    ({"alaska": [0, 0], "peru": [0, 0]}, "same cell"),
    ({"alaska": [0, 0]}, "no cell for"),
])
def test_a_bad_layout_is_refused_naming_the_file(tmp_path: Path, layout: Any, message: str) -> None:
    path = _map(tmp_path, layout)
    with pytest.raises(MapError, match=message) as err:
        load_map(path)
    assert str(path) in str(err.value)
