"""`map.pdf` (the board's face on one page at 1:1) and `map-a4.pdf` / `map-a3.pdf` (the same cut into
home-printer pages with overlap, crop and registration marks, each page's row and column, and an index page).

matplotlib's PDF backend writes them: it is already the project's plotting library, takes page sizes in inches
and text in points (so 1 mm on the page is 1 mm of the board), and repeats one drawing on many pages by moving the
axes' limits, which is all the tiling needs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conquista.boardtools.kit.draw.board_art import INK, draw_legend, draw_map, draw_parts, mm_axes
from conquista.boardtools.kit.plan.placement import Layout
from conquista.boardtools.kit.plan.tiling import PRINT_MARGIN, Tile, Tiling

MM_PER_INCH = 25.4
REG_MM = 4.0     # radius of a registration target


def _figure(width_mm: float, height_mm: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width_mm / MM_PER_INCH, height_mm / MM_PER_INCH))


def _metadata(layout: Layout, title: str) -> dict[str, str]:
    return {"Title": f"{layout.profile.name}: {title}", "Creator": "conquista board kit"}


def write_map(path: Path, layout: Layout) -> None:
    from matplotlib.backends.backend_pdf import PdfPages

    f = layout.frame
    fig = _figure(f.width, f.height)
    ax = mm_axes(fig, (0, 0, 1, 1), (0, f.width), (0, f.height))
    draw_map(ax, layout)
    draw_parts(ax, layout)
    draw_legend(ax, layout, "print at 100 % on one sheet, or use map-a4.pdf / map-a3.pdf")
    with PdfPages(path, metadata=_metadata(layout, "map")) as pdf:
        pdf.savefig(fig)


def registration_points(tiling: Tiling) -> list[tuple[float, float]]:
    """Targets in the middle of every overlap between neighbouring windows, at a quarter and three quarters of
    the shared edge: each appears on both sheets at the same place of the board."""
    points: list[tuple[float, float]] = []
    by_place = {(t.row, t.col): t for t in tiling.tiles}
    for t in tiling.tiles:
        right, below = by_place.get((t.row, t.col + 1)), by_place.get((t.row + 1, t.col))
        if right is not None:
            x = (right.x + t.x + t.width) / 2
            points += [(x, t.y + t.height * 0.25), (x, t.y + t.height * 0.75)]
        if below is not None:
            y = (below.y + t.y + t.height) / 2
            points += [(t.x + t.width * 0.25, y), (t.x + t.width * 0.75, y)]
    return points


def _registration(ax: Any, points: list[tuple[float, float]]) -> None:
    from matplotlib.patches import Circle

    for x, y in points:
        ax.add_patch(Circle((x, y), REG_MM, facecolor="none", edgecolor="black", linewidth=0.4))
        ax.plot([x - REG_MM * 1.6, x + REG_MM * 1.6], [y, y], color="black", linewidth=0.4)
        ax.plot([x, x], [y - REG_MM * 1.6, y + REG_MM * 1.6], color="black", linewidth=0.4)


def _crop_marks(fig: Any, tiling: Tiling) -> Any:
    """Short lines in the margin at each corner of the printed window: where to trim."""
    page = mm_axes(fig, (0, 0, 1, 1), (0, tiling.page_width), (0, tiling.page_height))
    m = PRINT_MARGIN
    for cx in (m, tiling.page_width - m):
        for cy in (m, tiling.page_height - m):
            dx = -1 if cx == m else 1
            dy = -1 if cy == m else 1
            page.plot([cx + dx * 2, cx + dx * 8], [cy, cy], color="black", linewidth=0.4)
            page.plot([cx, cx], [cy + dy * 2, cy + dy * 8], color="black", linewidth=0.4)
    return page


def write_tiles(path: Path, layout: Layout, tiling: Tiling) -> None:
    from matplotlib.backends.backend_pdf import PdfPages

    f = layout.frame
    pw, ph = tiling.page_width, tiling.page_height
    with PdfPages(path, metadata=_metadata(layout, f"map on {tiling.paper.upper()} pages")) as pdf:
        pdf.savefig(_index_page(layout, tiling))
        fig = _figure(pw, ph)
        m = PRINT_MARGIN
        first = tiling.tiles[0]
        ax = mm_axes(fig, (m / pw, m / ph, first.width / pw, first.height / ph), (0, 1), (0, 1))
        draw_map(ax, layout)
        draw_parts(ax, layout)
        draw_legend(ax, layout, f"tiled on {len(tiling.tiles)} {tiling.paper.upper()} pages")
        _registration(ax, registration_points(tiling))
        for text in ax.texts:     # a name at a window's edge stays inside the window, not in the margin
            text.set_clip_on(True)
        page = _crop_marks(fig, tiling)
        for number, tile in enumerate(tiling.tiles, start=2):
            ax.set_xlim(tile.x, tile.x + tile.width)
            ax.set_ylim(tile.y + tile.height, tile.y)
            label = page.text(pw / 2, ph - 4, _label(tile, tiling, number, f.width, f.height), fontsize=6.5,
                              ha="center", va="bottom", color=INK)
            pdf.savefig(fig)
            label.remove()


def _label(tile: Tile, tiling: Tiling, number: int, width: float, height: float) -> str:
    return (f"row {tile.row} of {tiling.rows}, column {tile.col} of {tiling.cols} · page {number} of "
            f"{len(tiling.tiles) + 1} · board x {max(tile.x, 0):.0f}-{min(tile.x + tile.width, width):.0f}, "
            f"y {max(tile.y, 0):.0f}-{min(tile.y + tile.height, height):.0f} mm · print at 100 % (actual size)")


def _index_page(layout: Layout, tiling: Tiling) -> Any:
    from matplotlib.patches import Rectangle

    f = layout.frame
    pw, ph = tiling.page_width, tiling.page_height
    fig = _figure(pw, ph)
    # The whole board shrunk into the page's upper part, the tiles drawn over it.
    room_w, room_h = pw - 2 * PRINT_MARGIN, ph - 2 * PRINT_MARGIN - 60
    k = min(room_w / f.width, room_h / f.height)
    w, h = f.width * k, f.height * k
    left, bottom = (pw - w) / 2, ph - PRINT_MARGIN - 14 - h
    ax = mm_axes(fig, (left / pw, bottom / ph, w / pw, h / ph), (0, f.width), (0, f.height))
    draw_map(ax, layout)
    draw_parts(ax, layout)
    for t in tiling.tiles:
        ax.add_patch(Rectangle((t.x, t.y), t.width, t.height, facecolor="none", edgecolor="#c0392b",
                               linewidth=0.8))
        ax.text(t.x + t.width / 2, t.y + t.height / 2, f"row {t.row}\ncol {t.col}", fontsize=9, ha="center",
                va="center", color="#c0392b", fontweight="bold")
    text = mm_axes(fig, (0, 0, 1, 1), (0, pw), (0, ph))
    text.text(PRINT_MARGIN, PRINT_MARGIN + 4, f"{layout.profile.name}: the map on {len(tiling.tiles)} "
              f"{tiling.paper.upper()} pages ({tiling.rows} rows × {tiling.cols} columns), board "
              f"{f.width:g} × {f.height:g} mm", fontsize=9, fontweight="bold", va="top", color=INK)
    steps = [
        "1. Print pages 2 onwards at 100 % (actual size, no 'fit to page'); check the 100 mm scale bar.",
        "2. Trim each sheet along its crop marks on its left and top edges; keep the right and bottom margins",
        "    of the first column and row for the overlap (they carry the neighbour's registration targets).",
        "3. Lay the sheets out as above, each trimmed edge over its neighbour, and line up the targets (⊕).",
        "4. Tape the joins on the back, then spray-mount the whole map onto the base plate, starting from",
        "    the middle; line up the printed switch rings with the drilled holes before the glue sets.",
    ]
    for i, step in enumerate(steps):
        text.text(PRINT_MARGIN, ph - PRINT_MARGIN - 44 + 6 * i, step, fontsize=7.5, va="top", color=INK)
    return fig
