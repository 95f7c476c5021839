"""`drill-a4.pdf` and `drill-a3.pdf`: the base plate's drilling at 1:1 on home-printer pages, tiled and
registered exactly as the map tiles are (the same windows, the same targets), so the pages tape together into one
template laid on the plate: each hole a circle of its diameter with a centre cross to start the bit on, its
diameter printed beside it, each touch pad's outline (copper, dashed) to cut the tape to, and a 50 mm scale bar in
every page's margin to measure before drilling (a printer set to "fit to page" shrinks it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conquista.boardtools.kit.draw.board_art import INK, draw_legend, draw_map, draw_parts, mm_axes
from conquista.boardtools.kit.draw.map_pdf import _crop_marks, _figure, _label, _registration, registration_targets
from conquista.boardtools.kit.plan.board import SUPPORT_MM, PartKind
from conquista.boardtools.kit.plan.placement import Layout
from conquista.boardtools.kit.plan.tiling import PRINT_MARGIN, Tiling

SCALE_MM = 50.0    # the side of the scale check's square
CROSS_MM = 2.5     # half the centre cross


def map_registration(layout: Layout, tiling: Tiling) -> list[tuple[float, float]]:
    """The map tiles' registration targets, computed as `write_tiles` computes them, so both sets of pages align."""
    pw, ph = tiling.page_width, tiling.page_height
    fig = _figure(pw, ph)
    m = PRINT_MARGIN
    first = tiling.tiles[0]
    ax = mm_axes(fig, (m / pw, m / ph, first.width / pw, first.height / ph), (0, 1), (0, 1))
    draw_map(ax, layout)
    draw_parts(ax, layout)
    draw_legend(ax, layout, f"tiled on {len(tiling.tiles)} {tiling.paper.upper()} pages")
    ax.set_xlim(first.x, first.x + first.width)
    ax.set_ylim(first.y + first.height, first.y)
    return registration_targets(ax, layout, tiling)


def drilled(layout: Layout) -> list[Any]:
    """The parts with a hole in the plate."""
    return [p for p in layout.parts if p.hole > 0 and p.kind is not PartKind.SUPPORT]


def write_drill_tiles(path: Path, layout: Layout, tiling: Tiling) -> None:
    from matplotlib.backends.backend_pdf import PdfPages

    f = layout.frame
    pw, ph = tiling.page_width, tiling.page_height
    meta = {"Title": f"{layout.profile.name}: drill template on {tiling.paper.upper()} pages",
            "Creator": "conquista board kit"}
    fig, ax, page = drill_figure(layout, tiling)
    with PdfPages(path, metadata=meta) as pdf:
        for number, tile in enumerate(tiling.tiles, start=1):
            ax.set_xlim(tile.x, tile.x + tile.width)
            ax.set_ylim(tile.y + tile.height, tile.y)
            label = page.text(pw / 2, ph - 4, "DRILL · " + _label(tile, tiling, number, f.width, f.height)
                              .replace(f"of {len(tiling.tiles) + 1}", f"of {len(tiling.tiles)}"),
                              fontsize=6.5, ha="center", va="bottom", color=INK)
            pdf.savefig(fig)
            label.remove()


def drill_figure(layout: Layout, tiling: Tiling) -> tuple[Any, Any, Any]:
    """The template's page: the board's axes (every hole a circle of its diameter at its part's place, gid
    "hole:KIND:NAME", the map's registration targets) and the page's own axes (crop marks, the scale check)."""
    from matplotlib.patches import Circle, Rectangle

    f = layout.frame
    pw, ph = tiling.page_width, tiling.page_height
    targets = map_registration(layout, tiling)
    fig = _figure(pw, ph)
    m = PRINT_MARGIN
    first = tiling.tiles[0]
    ax = mm_axes(fig, (m / pw, m / ph, first.width / pw, first.height / ph), (0, 1), (0, 1))
    ax.add_patch(Rectangle((0, 0), f.width, f.height, facecolor="none", edgecolor=INK, linewidth=0.8))
    for p in drilled(layout):
        ax.add_patch(Circle((p.x, p.y), p.hole / 2, facecolor="none", edgecolor="#c00", linewidth=0.6,
                            gid=f"hole:{p.kind.value}:{p.name}"))
        ax.plot([p.x - CROSS_MM, p.x + CROSS_MM], [p.y, p.y], color=INK, linewidth=0.3)
        ax.plot([p.x, p.x], [p.y - CROSS_MM, p.y + CROSS_MM], color=INK, linewidth=0.3)
        ax.text(p.x + p.hole / 2 + 0.8, p.y - p.hole / 2 - 0.3, f"Ø{p.hole:g}", fontsize=5.5, color="#c00",
                ha="left", va="bottom", clip_on=True)
    for p in layout.parts:     # glued under the plate, not drilled: where the middle rail's blocks go
        if p.kind is PartKind.SUPPORT:
            ax.add_patch(Rectangle((p.x - SUPPORT_MM / 2, p.y - SUPPORT_MM / 2), SUPPORT_MM, SUPPORT_MM,
                                   facecolor="none", edgecolor=INK, linewidth=0.6, linestyle=(0, (4, 2))))
            ax.text(p.x, p.y, "support block\n(under the plate)", fontsize=5.5, ha="center", va="center",
                    color=INK, clip_on=True)
    for pad in layout.pads:
        ax.add_patch(Rectangle((pad.x - pad.width / 2, pad.y - pad.height / 2), pad.width, pad.height,
                               facecolor="none", edgecolor="#999", linewidth=0.4, linestyle=(0, (2, 2))))
    if layout.route.sensor is PartKind.TOUCH:
        _touch_pads(ax, layout)
    _registration(ax, targets)
    page = _crop_marks(fig, tiling)
    # The scale check in the page's top margin, outside the tile: it measures the printer on every page.
    y = m / 2
    page.plot([m + 12, m + 12 + SCALE_MM], [y, y], color=INK, linewidth=0.6)
    for x in (m + 12, m + 12 + SCALE_MM):
        page.plot([x, x], [y - 1.5, y + 1.5], color=INK, linewidth=0.6)
    page.text(m + 14 + SCALE_MM, y, f"scale check: this bar is {SCALE_MM:g} mm; if not, print at 100 %",
              fontsize=6, ha="left", va="center", color=INK)
    return fig, ax, page


PAD_INSET_MM = 3.0    # a touch pad is its territory's shape less this, so two territories' pads never touch


def _touch_pads(ax: Any, layout: Layout) -> None:
    """Each touch pad's outline, to cut the copper tape to and stick on the plate's face: its territory less
    PAD_INSET_MM (a territory on a pad in the sea: the pad's rectangle less the same), its wire's hole inside."""
    from shapely.geometry import box

    outlines = {tid: shape.buffer(-PAD_INSET_MM) for tid, shape in layout.shapes.items()}
    for pad in layout.pads:
        outlines[pad.territory] = box(pad.x - pad.width / 2, pad.y - pad.height / 2, pad.x + pad.width / 2,
                                      pad.y + pad.height / 2).buffer(-PAD_INSET_MM)
    for shape in outlines.values():
        # One piece of copper per pad, the largest (an island apart from it would be a pad with no wire).
        polygon = max(getattr(shape, "geoms", [shape]), key=lambda g: g.area)
        if not polygon.is_empty:
            xs, ys = polygon.exterior.xy
            ax.plot(xs, ys, color="#b87333", linewidth=0.5, linestyle=(0, (3, 1.5)), gid="touch pad")
