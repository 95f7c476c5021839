"""`schematic.pdf`: the netlist of `plan/netlist.py` drawn as a schematic on A4 landscape pages, a page per place
(the enclosure, the shifter board, the plate, the panel): each part a box with its pins, each pin's number and
name, and at its end the name of its net (pins with the same net name are joined, as a schematic editor's net
labels say; × marks a pin left open on purpose). `wiring.pdf` reuses the same layout with the wires drawn in.
Nothing is drawn by hand: the boxes, pins and names all come from the netlist."""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conquista.boardtools.kit.draw.board_art import INK, mm_axes
from conquista.boardtools.kit.plan.netlist import Netlist, Part, Pin, PinKind, Place

PAGE = (297.0, 210.0)     # A4 landscape, mm
MARGIN = 12.0
PITCH = 4.2               # mm between two pins of a box
STUB = 5.0                # mm of a pin's line outside its box
LABEL_W = 25.0            # mm kept for a net name beside a pin
BOX_W = 26.0
NAME_PT, PIN_PT, NET_PT, TITLE_PT = 6.5, 6.0, 6.0, 11.0
NET_COLOURS = ("#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#d62728", "#0e7f8a", "#666666", "#8a6d00", "#c2185b")
POWER_COLOURS = {"+5V": "#d35400", "+5V_IN": "#d35400", "GND": "#222222", "+3V3": "#c0392b"}
PLACE_TITLES = {Place.ENCLOSURE: "the enclosure: LED supply inlet, fuse, Pi and Pico",
                Place.SHIFTER: "the shifter board, near LED 0: the 74AHCT125 lifts the data to 5 V",
                Place.PLATE: "under the plate: the sensors, the first pixel's plug, the power feeds",
                Place.PANEL: "the panel: buttons and encoder"}


def net_colour(name: str) -> str:
    if name in POWER_COLOURS:
        return POWER_COLOURS[name]
    return NET_COLOURS[int(hashlib.sha1(name.encode()).hexdigest(), 16) % len(NET_COLOURS)]


@dataclass(frozen=True)
class Placed:
    part: Part
    x: float          # the box's left edge, mm on the page
    y: float          # its top
    height: float
    width: float = 26.0

    def pin_end(self, pin: Pin) -> tuple[float, float, int]:
        """Where a pin's stub ends on the page, and its side (-1 left, +1 right)."""
        left, right = _sides(self.part)
        if pin in left:
            return (self.x - STUB, self.y + 8 + PITCH * left.index(pin), -1)
        return (self.x + self.width + STUB, self.y + 8 + PITCH * right.index(pin), 1)


def _sides(part: Part) -> tuple[list[Pin], list[Pin]]:
    """The pins down the box's left and right sides, as a DIP package has them (1 at top left, the last at top
    right); a one-pin part has its pin on the right."""
    half = math.ceil(len(part.pins) / 2) if len(part.pins) > 1 else 0
    return list(part.pins[:half]), list(reversed(part.pins[half:]))


def _height(part: Part) -> float:
    left, right = _sides(part)
    return 8 + PITCH * max(len(left), len(right), 1)


def layout_pages(nl: Netlist) -> list[tuple[str, list[Placed]]]:
    """The parts of each place flowed into rows on as many A4 pages as they need."""
    pages: list[tuple[str, list[Placed]]] = []
    for place in Place:
        parts = [p for p in nl.parts if p.place is place]
        if not parts:
            continue
        title = PLACE_TITLES[place]
        placed: list[Placed] = []
        x, y, row_h = MARGIN, MARGIN + 14.0, 0.0
        for part in parts:
            h = _height(part)
            left, right = _sides(part)
            lw = STUB + LABEL_W if left else 2.0
            rw = STUB + LABEL_W if right else 2.0
            bw = BOX_W if len(part.pins) > 2 else 22.0
            if x + lw + bw + rw > PAGE[0] - MARGIN:
                x, y, row_h = MARGIN, y + row_h + 6, 0.0
            if y + h > PAGE[1] - MARGIN - 8:
                pages.append((title, placed))
                placed, x, y, row_h = [], MARGIN, MARGIN + 14.0, 0.0
            placed.append(Placed(part, x + lw, y, h, bw))
            row_h = max(row_h, h)
            x += lw + bw + rw + 4
        pages.append((title, placed))
    return pages


def draw_page(ax: Any, nl: Netlist, placed: Iterable[Placed], wires: bool) -> set[str]:
    """The boxes, pins and net names of one page; with `wires`, each net's pins on the page joined by a line
    (gid "net:NAME"). Returns the nets drawn as wires."""
    from matplotlib.patches import Rectangle

    net_of = nl.net_of()
    placed = list(placed)
    ends: dict[str, list[tuple[float, float]]] = {}
    for item in placed:
        part = item.part
        ax.add_patch(Rectangle((item.x, item.y), item.width, item.height, facecolor="white", edgecolor=INK,
                               linewidth=0.7, zorder=3))
        ax.text(item.x + item.width / 2, item.y + 1.2, part.ref, fontsize=NAME_PT + 1, fontweight="bold", ha="center",
                va="top", color=INK, zorder=4)
        ax.text(item.x + item.width / 2, item.y + 4.3, _short(part.name, 22), fontsize=PIN_PT, ha="center", va="top",
                color=INK, zorder=4)
        ax.text(item.x + item.width / 2, item.y + item.height + 0.6, _short(part.value, 30), fontsize=PIN_PT,
                ha="center", va="top", color="#555", zorder=4)
        for pin in part.pins:
            ex, ey, side = item.pin_end(pin)
            inner = ex - side * STUB
            ax.plot([inner, ex], [ey, ey], color=INK, linewidth=0.6, zorder=2)
            ax.text(inner - side * 0.8, ey, pin.name, fontsize=PIN_PT, ha="left" if side < 0 else "right",
                    va="center", color=INK, zorder=4)
            if pin.number != pin.name:
                ax.text(inner + side * 0.6, ey - 0.5, pin.number, fontsize=PIN_PT - 1, ha="left" if side > 0
                        else "right", va="bottom", color="#666", zorder=4)
            net = net_of.get((part.ref, pin.number))
            if pin.kind is PinKind.OPEN or net is None:
                ax.plot([ex], [ey], marker="x", markersize=4, color="#999", zorder=4)
                continue
            ax.text(ex + side * 0.8, ey, net, fontsize=NET_PT, fontweight="bold", color=net_colour(net),
                    ha="left" if side > 0 else "right", va="center", zorder=5,
                    bbox={"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.8})
            ends.setdefault(net, []).append((ex, ey))
    drawn: set[str] = set()
    if wires:
        for net, points in ends.items():
            if len(points) < 2:
                continue
            points.sort()
            for (x1, y1), (x2, y2) in itertools.pairwise(points):
                # Out along the pin, across, and in: wires meet pins square, under the boxes.
                mid = (x1 + x2) / 2 if abs(x1 - x2) > 1 else x1 + 3
                ax.plot([x1, mid, mid, x2], [y1, y1, y2, y2], color=net_colour(net), linewidth=0.7, alpha=0.8,
                        zorder=1, gid=f"net:{net}")
            drawn.add(net)
    return drawn


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def schematic_figures(nl: Netlist, profile_name: str, wires: bool = False) -> list[tuple[Any, set[str]]]:
    from matplotlib.figure import Figure

    pages = layout_pages(nl)
    out = []
    for number, (title, placed) in enumerate(pages, start=1):
        fig = Figure(figsize=(PAGE[0] / 25.4, PAGE[1] / 25.4))
        ax = mm_axes(fig, (0, 0, 1, 1), (0, PAGE[0]), (0, PAGE[1]))
        what = "wiring, part by part" if wires else "schematic"
        ax.text(MARGIN, MARGIN, f"{profile_name}: {what} · {title}", fontsize=TITLE_PT, fontweight="bold",
                va="top", color=INK)
        key = ("each line a wire: pins joined by one colour share the net named at them; × left open"
               if wires else "pins with the same net name are joined; × a pin left open on purpose; "
               "generated from the board profile, checked by the tests' electrical-rules check")
        ax.text(MARGIN, MARGIN + 6, key, fontsize=7, va="top", color="#444")
        ax.text(PAGE[0] - MARGIN, PAGE[1] - 6, f"page {number} of {len(pages)} · A4 landscape, print at 100 %",
                fontsize=6.5, ha="right", va="bottom", color=INK)
        drawn = draw_page(ax, nl, placed, wires)
        out.append((fig, drawn))
    return out


def write_schematic(path: Path, nl: Netlist, profile_name: str) -> None:
    from matplotlib.backends.backend_pdf import PdfPages

    with PdfPages(path, metadata={"Title": f"{profile_name}: schematic", "Creator": "conquista board kit"}) as pdf:
        for fig, _ in schematic_figures(nl, profile_name):
            pdf.savefig(fig)
