"""`map.pdf` (the board's face on one page at 1:1) and `map-a4.pdf` / `map-a3.pdf` (the same cut into
home-printer pages with overlap, crop and registration marks, each page's row and column, and an index page).

matplotlib's PDF backend writes them: it is already the project's plotting library, takes page sizes in inches
and text in points (so 1 mm on the page is 1 mm of the board), and repeats one drawing on many pages by moving the
axes' limits, which is all the tiling needs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conquista.boardtools.kit.draw.board_art import INK, draw_legend, draw_map, draw_parts, legend_box, mm_axes
from conquista.boardtools.kit.plan.placement import Layout
from conquista.boardtools.kit.plan.tiling import PRINT_MARGIN, REG_RADIUS, REG_REACH, Tile, Tiling, registration_points

MM_PER_INCH = 25.4


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


def registration_targets(ax: Any, layout: Layout, tiling: Tiling) -> list[tuple[float, float]]:
    """Where the targets go: in the overlaps, clear of every printed part, pad and text (plan/tiling.py). The
    texts are measured as drawn on `ax`, whose limits must show the board at 1:1 (any tile's)."""
    discs = [(p.x, p.y, p.printed_radius) for p in layout.parts]
    boxes = [(pad.x - pad.width / 2, pad.y - pad.height / 2, pad.x + pad.width / 2, pad.y + pad.height / 2)
             for pad in layout.pads]
    boxes += [legend_box(layout), *_text_boxes(ax)]
    return registration_points(tiling, (layout.frame.width, layout.frame.height), discs, boxes)


def _text_boxes(ax: Any) -> list[tuple[float, float, float, float]]:
    """Every text on `ax` as a box in board mm (left, top, right, bottom)."""
    from conquista.boardtools.kit.draw.labels import Labels

    renderer = Labels(ax).renderer
    to_mm = ax.transData.inverted()
    boxes = []
    for text in ax.texts:
        if not text.get_text().strip():
            continue
        (x1, y1), (x2, y2) = to_mm.transform(text.get_window_extent(renderer).get_points())
        boxes.append((min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)))
    return boxes


def _registration(ax: Any, points: list[tuple[float, float]]) -> None:
    from matplotlib.patches import Circle

    for x, y in points:
        ax.add_patch(Circle((x, y), REG_RADIUS, facecolor="none", edgecolor="black", linewidth=0.4))
        ax.plot([x - REG_REACH, x + REG_REACH], [y, y], color="black", linewidth=0.4)
        ax.plot([x, x], [y - REG_REACH, y + REG_REACH], color="black", linewidth=0.4)


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
        ax.set_xlim(first.x, first.x + first.width)
        ax.set_ylim(first.y + first.height, first.y)
        _registration(ax, registration_targets(ax, layout, tiling))
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
    for name in list(ax.texts):    # names shrunk this far only crowd the tiles' labels
        name.remove()
    for number, t in enumerate(tiling.tiles, start=2):
        ax.add_patch(Rectangle((t.x, t.y), t.width, t.height, facecolor="none", edgecolor="#c0392b",
                               linewidth=0.8))
        ax.text(t.x + t.width / 2, t.y + t.height / 2, f"page {number}\nrow {t.row} · col {t.col}", fontsize=8,
                ha="center", va="center", color="#c0392b", fontweight="bold", linespacing=1.3,
                bbox={"boxstyle": "round,pad=0.3", "facecolor": "white", "alpha": 0.85, "edgecolor": "none"})
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
        text.text(PRINT_MARGIN, PRINT_MARGIN + 24 + h + 6 * i, step, fontsize=7.5, va="top", color=INK)
    return fig
