"""The board's face drawn on a matplotlib axes whose units are millimetres of the board (y down): the territories
in print colours, their names, the continents and bonuses, the sea links, the pads, the panel, and the parts'
marks: a ring to press over each switch, a small window over each LED. `map`, `tiles` and `wiring` all draw it.
"""

from __future__ import annotations

import math
from typing import Any

from conquista.boardtools.kit.plan.board import MARGIN, PRINTED_RADIUS_MM, SENSORS, PartKind
from conquista.boardtools.kit.plan.placement import Layout

# Pale, print-friendly continent colours (they keep black text readable and need little ink).
PALETTE = ("#f4dca0", "#f5bfa6", "#bcd3ea", "#e9c99c", "#c8e0b4", "#dcc6e6", "#f0e1c8", "#c9e4e1")
SEA = "#eef5fa"
INK = "#222222"
SWITCH_RING_MM = PRINTED_RADIUS_MM[PartKind.SWITCH]    # the printed ring over a switch
WINDOW_MM = PRINTED_RADIUS_MM[PartKind.LED]            # the printed window over an LED
CONTINENT_PT = 11
BOLD_CHAR_EM = 0.7        # a bold capital's width in em, roughly (DejaVu Sans Bold)
PT_MM = 25.4 / 72


def mm_axes(fig: Any, rect: tuple[float, float, float, float], x: tuple[float, float],
            y: tuple[float, float]) -> Any:
    """An axes filling `rect` (figure fractions) that shows board mm `x` across and `y` down, without frame."""
    ax = fig.add_axes(rect)
    ax.set_xlim(*x)
    ax.set_ylim(y[1], y[0])
    ax.set_axis_off()
    ax.set_aspect("auto")
    return ax


def _patch(shape: Any, **style: Any) -> Any:
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path as MplPath

    vertices: list[tuple[float, float]] = []
    codes: list[Any] = []
    polygons = shape.geoms if shape.geom_type == "MultiPolygon" else [shape]
    for polygon in polygons:
        for ring in (polygon.exterior, *polygon.interiors):
            points = list(ring.coords)
            vertices += points
            codes += [MplPath.MOVETO] + [MplPath.LINETO] * (len(points) - 2) + [MplPath.CLOSEPOLY]
    return PathPatch(MplPath(vertices, codes), **style)


def _shade(colour: str, k: int) -> str:
    """The continent's colour a little lighter or darker per territory, so neighbours differ."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    f = (0.94, 1.0, 0.97, 1.03)[k % 4]
    return "#" + "".join(f"{max(0, min(255, round(v * f))):02x}" for v in (r, g, b))


def draw_map(ax: Any, layout: Layout) -> None:
    """The sea, the territories, the sea links and the names."""
    from matplotlib.patches import Rectangle

    f = layout.frame
    game_map = layout.profile.game_map
    ax.add_patch(Rectangle((0, 0), f.width, f.height, facecolor="white", edgecolor="none"))
    ax.add_patch(Rectangle((MARGIN, MARGIN), f.width - 2 * MARGIN, f.band_top - MARGIN, facecolor=SEA,
                           edgecolor="#9ab", linewidth=0.6))
    for (a, b) in layout.outline.sea_links:
        (x1, y1), (x2, y2) = f.mm(*a), f.mm(*b)
        ax.plot([x1, x2], [y1, y2], color="#5a7d9a", linewidth=0.8, linestyle=(0, (4, 3)))
    for territory in game_map.territories:
        colour = _shade(PALETTE[territory.continent % len(PALETTE)], territory.index)
        ax.add_patch(_patch(layout.shapes[territory.id], facecolor=colour, edgecolor="#555", linewidth=0.5))
    for continent in game_map.continents:
        label = f"{continent.name_en.upper()}  +{continent.bonus}"
        x, y = _clear_spot(layout, f.mm(*layout.outline.continent_labels.get(continent.id, (0, 0))), label)
        ax.text(x, y, label, fontsize=CONTINENT_PT, fontweight="bold", color="#345", ha="center", va="center")
    on_pad = {pad.territory for pad in layout.pads}
    switches = {p.territory: p for p in layout.parts if p.kind in SENSORS}
    for territory in game_map.territories:
        if territory.id in on_pad:
            continue
        s = switches[territory.id]
        ax.text(s.x, s.y + SWITCH_RING_MM + 1.2, territory.name_en, fontsize=6.5, color=INK, ha="center",
                va="top")
    for pad in layout.pads:
        _pad(ax, pad, game_map.territories[game_map.index(pad.territory)].name_en)


def _clear_spot(layout: Layout, at: tuple[float, float], label: str) -> tuple[float, float]:
    """Where a continent's name goes: at its place, or moved the least so its box (estimated from the font's
    size) covers no pad and no part's mark."""
    width = len(label) * CONTINENT_PT * BOLD_CHAR_EM * PT_MM
    height = 1.3 * CONTINENT_PT * PT_MM
    pads = [(p.x - p.width / 2, p.y - p.height / 2, p.x + p.width / 2, p.y + p.height / 2) for p in layout.pads]

    def clear(x: float, y: float) -> bool:
        left, top, right, bottom = x - width / 2, y - height / 2, x + width / 2, y + height / 2
        if any(left < x2 and x1 < right and top < y2 and y1 < bottom for x1, y1, x2, y2 in pads):
            return False
        return all(max(left - p.x, 0, p.x - right) ** 2 + max(top - p.y, 0, p.y - bottom) ** 2
                   >= p.printed_radius ** 2 for p in layout.parts)

    for ring in (0.0, 4.0, 8.0, 12.0, 16.0, 20.0, 25.0, 30.0):
        for step in range(12 if ring else 1):
            angle = math.pi * step / 6
            x, y = at[0] + ring * math.cos(angle), at[1] + ring * math.sin(angle)
            if clear(x, y):
                return (x, y)
    return at


def _pad(ax: Any, pad: Any, name: str) -> None:
    from matplotlib.patches import FancyBboxPatch

    ax.add_patch(FancyBboxPatch((pad.x - pad.width / 2, pad.y - pad.height / 2), pad.width, pad.height,
                                boxstyle="round,pad=0,rounding_size=3", facecolor="white", edgecolor="#345",
                                linewidth=0.8, linestyle=(0, (3, 2))))
    (x1, y1), (x2, y2) = pad.leader
    ax.plot([x1, x2], [y1, y2], color="#345", linewidth=0.7)
    ax.plot([x2], [y2], marker="o", markersize=2.5, color="#345")
    ax.text(pad.x, pad.y - pad.height / 2 - 1, name, fontsize=6.5, color=INK, ha="center", va="bottom")


def draw_parts(ax: Any, layout: Layout) -> None:
    """A ring to press over each switch, a window over each LED, the panel's dice, ring, buttons and holes."""
    from matplotlib.patches import Circle

    _panel(ax, layout)
    for p in layout.parts:
        if p.kind in SENSORS:
            ax.add_patch(Circle((p.x, p.y), SWITCH_RING_MM, facecolor="white", edgecolor=INK, linewidth=1.2))
            ax.add_patch(Circle((p.x, p.y), 1.2, facecolor=INK, edgecolor="none"))
        elif p.kind is PartKind.LED:
            ax.add_patch(Circle((p.x, p.y), WINDOW_MM, facecolor="#fffbe6", edgecolor="#888", linewidth=0.5))
        elif p.kind in (PartKind.BUTTON, PartKind.ENCODER):
            ax.add_patch(Circle((p.x, p.y), p.printed_radius, facecolor="white", edgecolor=INK, linewidth=1.2))
            ax.text(p.x, p.y + 12, p.name, fontsize=7, ha="center", va="top", color=INK)
        elif p.kind is PartKind.MOUNT:
            ax.add_patch(Circle((p.x, p.y), p.hole / 2, facecolor="none", edgecolor="#999", linewidth=0.5))


def _panel(ax: Any, layout: Layout) -> None:
    from matplotlib.patches import Circle, FancyBboxPatch

    from conquista.boardtools.kit.plan.board import ring_centre

    f = layout.frame
    side_mm = layout.route.die_side
    pips = [p for p in layout.parts if p.kind is PartKind.LED and p.territory is None and "die" in p.name]
    for side, colour in (("attack", "#c0392b"), ("defence", "#2e5fa8")):
        centres: dict[str, list[tuple[float, float]]] = {}
        for p in pips:
            if p.name.startswith(side):
                centres.setdefault(" ".join(p.name.split()[:3]), []).append((p.x, p.y))
        for points in centres.values():
            cx = sum(x for x, _ in points) / len(points)
            cy = sum(y for _, y in points) / len(points)
            ax.add_patch(FancyBboxPatch((cx - side_mm / 2, cy - side_mm / 2), side_mm, side_mm,
                                        boxstyle="round,pad=0,rounding_size=4", facecolor="white",
                                        edgecolor=colour, linewidth=1.5))
        if centres:
            first = min(centres.values(), key=lambda pts: min(x for x, _ in pts))
            ax.text(min(x for x, _ in first) - 7, min(y for _, y in first) - 8.5, side.upper(), fontsize=7,
                    color=colour, fontweight="bold", va="bottom")
    rx, ry, radius = ring_centre(layout.profile, f, layout.route)
    ax.add_patch(Circle((rx, ry), radius, facecolor="none", edgecolor="#666", linewidth=0.8))
    ax.text(rx, ry, "status\nring", fontsize=7, ha="center", va="center", color="#444")


def legend_box(layout: Layout) -> tuple[float, float, float, float]:
    """Where the legend and its scale bar are printed: left, top, right, bottom, mm."""
    f = layout.frame
    return (f.width - MARGIN - 250, f.band_top + 10, f.width - MARGIN, f.band_top + 45)


def draw_legend(ax: Any, layout: Layout, subtitle: str) -> None:
    """The title, what the marks mean and a scale bar, at the right of the band."""
    f = layout.frame
    profile = layout.profile
    x, top, _, _ = legend_box(layout)
    ax.text(x, top, f"conquista · {profile.name} · map {profile.game_map.name}", fontsize=10, fontweight="bold",
            color=INK, va="top")
    ax.text(x, top + 7, f"{f.width:g} × {f.height:g} mm · {subtitle}", fontsize=7, color=INK, va="top")
    ax.text(x, top + 13, f"drawn from {layout.outline.source}; ○ ring: tap here (switch) · "
            "◌ window: LED shines through", fontsize=6, color="#444", va="top")
    bar_y = top + 30
    for i in range(10):
        ax.add_patch(_rect(x + 10 * i, bar_y, 10, 3, INK if i % 2 == 0 else "white"))
    ax.text(x, bar_y + 5, "0", fontsize=6, va="top")
    ax.text(x + 50, bar_y + 5, "50", fontsize=6, va="top", ha="center")
    ax.text(x + 100, bar_y + 5, "100 mm", fontsize=6, va="top", ha="center")
    ax.text(x + 110, bar_y + 2, "measure this bar: 100 mm when printed at 100 %", fontsize=6, va="center",
            color="#444")


def _rect(x: float, y: float, w: float, h: float, colour: str) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((x, y), w, h, facecolor=colour, edgecolor=INK, linewidth=0.5)
