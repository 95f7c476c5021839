"""The join URL as a QR code (segno's `make_qr`, never a Micro QR), drawn with half blocks for a terminal.

Two rows of modules per line, as segno's compact terminal output: a light module is drawn (the terminal's text
colour), a dark one left blank, so the code reads on a dark terminal, and on any terminal when drawn white on
black. segno is imported here only, when a code is drawn.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

BORDER = 2          # the quiet zone, in modules: enough for phone cameras, half the standard's four
HALF_BLOCKS = {(False, False): "█", (True, False): "▀", (False, True): "▄", (True, True): " "}   # (top, bottom) dark


def qr_matrix(url: str, border: int = BORDER) -> list[list[bool]]:
    """The modules of the join URL's QR code with its quiet zone, True for dark."""
    import segno

    code = segno.make_qr(url)
    return [[bool(module) for module in row] for row in code.matrix_iter(border=border)]


@functools.lru_cache(maxsize=4)     # the terminal redraws the same code with every move
def qr_lines(url: str, border: int = BORDER) -> tuple[str, ...]:
    """The QR code as text lines of half blocks: about as many columns as modules and half as many lines."""
    rows = qr_matrix(url, border)
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))    # below the code: light, as the quiet zone
    return tuple("".join(HALF_BLOCKS[pair] for pair in zip(top, bottom, strict=True))
                 for top, bottom in zip(rows[::2], rows[1::2], strict=True))


@functools.lru_cache(maxsize=4)     # every TV that loads the board asks for it: made once per join address
def qr_svg(url: str, border: int = BORDER) -> tuple[bytes, str]:
    """The QR code as an SVG image and its ETag (a hash of the image, quoted as HTTP has it)."""
    import hashlib
    import io

    import segno

    out = io.BytesIO()
    segno.make_qr(url).save(out, kind="svg", scale=6, border=border)
    svg = out.getvalue()
    return svg, f'"{hashlib.sha256(svg).hexdigest()[:20]}"'


def from_lines(lines: Iterable[str]) -> list[list[bool]]:
    """The modules back from half-block lines (for checking what a terminal shows)."""
    pairs = {char: pair for pair, char in HALF_BLOCKS.items()}
    rows: list[list[bool]] = []
    for line in lines:
        decoded = [pairs[char] for char in line]
        rows += [[top for top, _ in decoded], [bottom for _, bottom in decoded]]
    return rows
