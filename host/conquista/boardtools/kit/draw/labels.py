"""Labels that never cover each other: each is measured as matplotlib will draw it (its box on the page, from the
Agg renderer) and, when it would overlap a label or mark already there, moved round its anchor until it does not.
The wiring needs it: 150 LED numbers, 42 matrix cells and the power points crowd a map where parts are 8 mm apart.
"""

from __future__ import annotations

import math
from typing import Any

PAD_PX = 2.0                             # pixels kept between two boxes (a label's white backing reaches past its text)
RINGS_MM = (0.0, 2.5, 4.0, 6.0, 8.0, 11.0, 14.0)   # how far from its anchor a label may be moved
DIRECTIONS = 12


class Labels:
    """The boxes taken on one axes; `place` adds a label where it is clear of them."""

    def __init__(self, ax: Any) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        self.ax = ax
        fig = ax.figure
        if not isinstance(fig.canvas, FigureCanvasAgg):
            FigureCanvasAgg(fig)
        self.renderer = fig.canvas.get_renderer()
        self.taken: list[Any] = []

    def box(self, text: Any) -> Any:
        return text.get_window_extent(self.renderer).padded(PAD_PX)

    def block(self, text: Any) -> None:
        """A label that stays where it is (an LED's number in its circle): others keep clear of it."""
        self.taken.append(self.box(text))

    def block_disc(self, x: float, y: float, radius: float) -> None:
        """A mark on the board (an LED's circle, a switch): labels keep clear of it."""
        from matplotlib.transforms import Bbox

        corners = self.ax.transData.transform([(x - radius, y - radius), (x + radius, y + radius)])
        self.taken.append(Bbox.from_extents(*corners.min(axis=0), *corners.max(axis=0)))

    def clear(self, text: Any) -> bool:
        box = self.box(text)
        return not any(box.overlaps(other) for other in self.taken)

    def place(self, text: Any) -> Any:
        """Move `text` from its anchor to the nearest place clear of every box taken, and take its box; a label
        with no clear place within reach stays at its anchor."""
        x0, y0 = text.get_position()
        for ring in RINGS_MM:
            for step in range(DIRECTIONS if ring else 1):
                angle = 2 * math.pi * step / DIRECTIONS - math.pi / 2
                text.set_position((x0 + ring * math.cos(angle), y0 + ring * math.sin(angle)))
                if self.clear(text):
                    self.taken.append(self.box(text))
                    return text
        text.set_position((x0, y0))
        self.taken.append(self.box(text))
        return text


def overlapping(texts: list[Any], renderer: Any) -> list[tuple[str, str]]:
    """Pairs of texts whose drawn boxes overlap (for tests and for checking a page)."""
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts if t.get_text().strip()]
    found = []
    for i, (name, box) in enumerate(boxes):
        for other, other_box in boxes[i + 1:]:
            if box.overlaps(other_box):
                found.append((name, other))
    return found
