"""The kit's print: registration targets clear of every part, pad and text and printed whole on both sheets; the
wiring's labels legible (at least 6 pt) and never covering each other."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from conquista.boardtools.kit.build import load_outline
from conquista.boardtools.kit.plan.placement import Layout, plan_layout
from conquista.boardtools.kit.plan.tiling import REG_CLEAR, REG_RADIUS, registration_points, target_clearance, tile
from conquista.hardware.profile import load_profile
from conquista.rules.mapdata import load_map
from tests.boardtools.test_kit import own_map

pytest.importorskip("shapely")
pytest.importorskip("matplotlib")
MAP = load_map(None)
PROFILE = load_profile("classic-42-touch", MAP)   # the reference build the kit draws by default


@pytest.fixture(scope="module")
def classic_outline() -> Any:
    return load_outline(PROFILE, None)


def obstacles(layout: Layout) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float, float]]]:
    discs = [(p.x, p.y, p.printed_radius) for p in layout.parts]
    boxes = [(pad.x - pad.width / 2, pad.y - pad.height / 2, pad.x + pad.width / 2, pad.y + pad.height / 2)
             for pad in layout.pads]
    return discs, boxes


def check_targets(layout: Layout, paper: str) -> None:
    f = layout.frame
    tiling = tile(f.width, f.height, paper)
    discs, boxes = obstacles(layout)
    points = registration_points(tiling, (f.width, f.height), discs, boxes)
    assert len(points) == 2 * ((tiling.cols - 1) * tiling.rows + (tiling.rows - 1) * tiling.cols)
    for x, y in points:
        assert target_clearance(x, y, discs, boxes) >= REG_CLEAR, f"a target at ({x:.0f}, {y:.0f}) covers a part"
        whole = [t for t in tiling.tiles if t.x + REG_RADIUS <= x <= t.x + t.width - REG_RADIUS
                 and t.y + REG_RADIUS <= y <= t.y + t.height - REG_RADIUS]
        assert len(whole) >= 2, f"the target at ({x:.0f}, {y:.0f}) is not printed whole on two sheets"
        assert REG_RADIUS <= x <= f.width - REG_RADIUS and REG_RADIUS <= y <= f.height - REG_RADIUS
    for (x1, y1), (x2, y2) in itertools.combinations(points, 2):
        assert (x1, y1) != (x2, y2)


@pytest.mark.parametrize("paper", ["a4", "a3"])
@pytest.mark.parametrize("size", [(680, 480), (600, 450), (900, 640)])
def test_registration_targets_land_on_no_part_and_no_pad(classic_outline: Any, paper: str,
                                                         size: tuple[int, int]) -> None:
    check_targets(plan_layout(PROFILE, classic_outline, size), paper)


def test_registration_targets_on_a_builders_own_map(tmp_path: Any) -> None:
    map_path, profile_path = own_map(tmp_path)
    game_map = load_map(map_path)
    profile = load_profile(profile_path, game_map)
    check_targets(plan_layout(profile, load_outline(profile, None), (600, 420)), "a4")


def test_a_target_moves_off_a_part_and_a_crowded_overlap_takes_its_roomiest_place() -> None:
    board = (530, 180)                   # two landscape A4 sheets side by side, sharing a 24 mm strip
    tiling = tile(*board, "a4")
    assert len(tiling.tiles) == 2
    preferred = registration_points(tiling, board, [], [])
    on_them = [(x, y, 5.0) for x, y in preferred]
    moved = registration_points(tiling, board, on_them, [])
    assert all(target_clearance(x, y, on_them, []) >= REG_CLEAR for x, y in moved)
    crowded = [(float(x), float(y), 3.0) for x in range(230, 310, 5) for y in range(0, 185, 5)]
    fallback = registration_points(tiling, board, crowded, [])
    assert len(fallback) == 2
    assert all(target_clearance(x, y, crowded, []) >= target_clearance(px, py, crowded, [])
               for (x, y), (px, py) in zip(fallback, preferred, strict=True))


def test_the_tiles_targets_clear_the_printed_names(classic_outline: Any) -> None:
    """Drawn: no target's reach crosses a text (a name, the legend, the scale bar's numbers)."""
    from matplotlib.figure import Figure

    from conquista.boardtools.kit.draw.board_art import draw_legend, draw_map, draw_parts, legend_box, mm_axes
    from conquista.boardtools.kit.draw.map_pdf import _text_boxes, registration_targets

    layout = plan_layout(PROFILE, classic_outline, (680, 480))
    tiling = tile(680, 480, "a4")
    first = tiling.tiles[0]
    fig = Figure(figsize=(tiling.page_width / 25.4, tiling.page_height / 25.4))
    ax = mm_axes(fig, (0.05, 0.05, first.width / tiling.page_width, first.height / tiling.page_height),
                 (first.x, first.x + first.width), (first.y, first.y + first.height))
    draw_map(ax, layout)
    draw_parts(ax, layout)
    draw_legend(ax, layout, "test")
    texts = [*_text_boxes(ax), legend_box(layout)]
    for x, y in registration_targets(ax, layout, tiling):
        assert target_clearance(x, y, [], texts) >= REG_CLEAR


@pytest.mark.parametrize("name", ["classic-42", "classic-42-touch"])
def test_the_wirings_labels_are_legible_and_never_overlap(classic_outline: Any, name: str) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from conquista.boardtools.diagram import PicoPins
    from conquista.boardtools.kit.draw.labels import overlapping
    from conquista.boardtools.kit.draw.wiring_pdf import LED_PT, wiring_figures
    from conquista.boardtools.kit.plan.routes import routes
    from conquista.hardware.profile import load_profile

    profile = load_profile(name, PROFILE.game_map)
    layout = plan_layout(profile, classic_outline, (680, 480))
    wires = routes(layout)
    fig = wiring_figures(layout, wires, PicoPins([2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14], 16))[0]
    [ax] = fig.axes
    texts = [t for t in ax.texts if t.get_text().strip()]
    numbers = {t.get_text() for t in texts if t.get_text().isdigit()}
    assert numbers == {str(led) for led in wires.led_at}             # every LED has its number
    assert LED_PT >= 6 and all(t.get_fontsize() >= 6 for t in texts)
    renderer = FigureCanvasAgg(fig).get_renderer()
    assert overlapping(texts, renderer) == []
