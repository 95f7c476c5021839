"""The world map's data (issue 20): the generated SVG of the classic map, the schematic of a builder's map, and
the territories a remote seat may tap now."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from conquista.dice.sources import SeededDice
from conquista.rules.events import Phase
from conquista.rules.mapdata import load_map
from conquista.table.gestures import Tap
from conquista.table.referee import Referee
from conquista.web.layout import SCHEMATIC_HEIGHT, SCHEMATIC_WIDTH, schematic_points
from conquista.web.views import legal_taps, map_view
from tests.rules.helpers import position, tid
from tests.web.test_layout import _map

ROOT = Path(__file__).resolve().parents[2]
SVG = ROOT / "host/conquista/web/static/classic-42.svg"
SCRIPT = ROOT / "host/conquista/web/mapgen/classic-42.mjs"


def test_the_committed_svg_has_a_shape_for_every_territory_and_is_small() -> None:
    text = SVG.read_text("utf-8")
    assert len(text.encode()) <= 300_000
    shapes = re.findall(r'<path class="land" data-id="(\w+)" data-x="([\d.]+)" data-y="([\d.]+)"[^>]* d="([^"]+)"',
                        text)
    assert sorted(s[0] for s in shapes) == sorted(t.id for t in load_map().territories)
    width, height = (float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', text).groups())  # type: ignore[union-attr]
    for _id, x, y, d in shapes:
        assert 0 <= float(x) <= width and 0 <= float(y) <= height and d.startswith("M")
    assert len(re.findall(r'class="continent-name"', text)) == 6
    assert "classic-42.mjs" in text and SCRIPT.exists()          # made by the script kept in the repository


def test_the_generator_names_an_anchor_for_every_territory() -> None:
    script = SCRIPT.read_text("utf-8")
    anchors = script[script.index("const ANCHORS = {"):script.index("};", script.index("const ANCHORS = {"))]
    named = set(re.findall(r"^  (\w+): \[\[", anchors, re.MULTILINE))
    assert named == {t.id for t in load_map().territories}


def test_the_classic_map_is_drawn_from_its_shapes_and_a_builders_from_points(tmp_path: Path) -> None:
    game = position("italian", owners={"alaska": 0})
    view = map_view(game)
    assert view["shapes"] == "/static/classic-42.svg" and view["points"] is None
    json.dumps(view)
    own = load_map(_map(tmp_path, rename=True))
    points = schematic_points(own)
    assert set(points) == {t.id for t in own.territories}


def test_a_schematic_is_laid_out_from_the_links_the_same_every_time(tmp_path: Path) -> None:
    own = load_map(_map(tmp_path, rename=True))
    points = schematic_points(own)
    assert points == schematic_points(own)                      # no randomness
    assert all(0 <= x <= SCHEMATIC_WIDTH and 0 <= y <= SCHEMATIC_HEIGHT for x, y in points.values())
    ids = [t.id for t in own.territories]
    apart = {(a, b): math.dist(points[ids[a]], points[ids[b]]) for a in range(own.size) for b in range(a + 1, own.size)}
    assert min(apart.values()) > 20                             # no two boxes on top of each other
    linked = [apart[(a, b)] for a in range(own.size) for b in own.neighbours[a] if a < b]
    assert sum(linked) / len(linked) < 0.5 * sum(apart.values()) / len(apart)   # neighbours are drawn close


def test_the_legal_taps_are_where_to_place_the_sources_then_the_targets() -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0, "kamchatka": 1, "northwest_territory": 1},
                    armies={"alaska": 3, "alberta": 1}, phase=Phase.ATTACK)
    referee = Referee(game, SeededDice(1))
    assert legal_taps(referee.view()) == ["alaska"]                    # alberta has a single army
    referee.handle(Tap(tid("alaska")), 0.0)
    assert sorted(legal_taps(referee.view())) == ["kamchatka", "northwest_territory"]
    placing = position("italian", owners={"alaska": 0, "alberta": 0}, phase=Phase.REINFORCE, state={"pool": 3})
    mine = sorted(placing.map.id(t) for t in range(placing.map.size) if placing.owner[t] == 0)
    assert sorted(legal_taps(Referee(placing, SeededDice(1)).view())) == mine
