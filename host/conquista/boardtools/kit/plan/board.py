"""The board's face in millimetres (x right, y down from the top-left corner, as the builder looks at it): the map
scaled into the top, a band below it for the dice panel, the status ring, the buttons and the encoder, and a margin
all round for the mounting screws. The parts of the band are placed here; the territories' parts in `placement`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from conquista.errors import BoardToolError
from conquista.hardware.profile import BoardProfile

DEFAULT_SIZE = (680.0, 480.0)   # the classic board's size, mm
# The largest board the kit draws: a table top of 2 × 2 m. Beyond it the layout's grids and the tiled pages grow
# without bound (a 100 m board runs for hours, 1e308 mm ends out of memory), and no builder's table is larger.
MAX_SIZE = (2000.0, 2000.0)
MARGIN = 12.0                   # mm round the map: the frame's battens and the mounting screws
BAND = 96.0                     # mm below the map for the panel
MIN_MAP_HEIGHT = 120.0          # mm: a map squeezed lower than this is not a board
PIP_PITCH = 10.0                # mm between a die's neighbouring pips
DIE_SIDE = 2 * PIP_PITCH + 14   # mm: the printed square of a die
DIE_PITCH = DIE_SIDE + 6
MIN_SPACING = 8.0               # mm between the centres of any two parts
GAP = 26.0                      # mm between the band's groups


class PartKind(StrEnum):
    SWITCH = "switch"
    LED = "led"
    BUTTON = "button"
    ENCODER = "encoder"
    MOUNT = "mount"
    CABLE = "cable"


# The hole drilled in the base plate for each kind of part, in mm (hardware/README.md, "Mechanical build").
HOLE_MM = {PartKind.SWITCH: 4.0, PartKind.LED: 6.0, PartKind.BUTTON: 12.0, PartKind.ENCODER: 7.0,
           PartKind.MOUNT: 3.5, PartKind.CABLE: 12.0}


# The mark printed over each kind of part, as a radius in mm: a ring to press over a switch, a small window over an
# LED, a disc under a button or the encoder's knob; the other holes are printed at their size.
PRINTED_RADIUS_MM = {PartKind.SWITCH: 5.0, PartKind.LED: 3.0, PartKind.BUTTON: 9.0, PartKind.ENCODER: 9.0}


@dataclass(frozen=True)
class Part:
    """One part mounted in the plate: a territory's switch or LED, a pip, a ring LED, a button, a hole."""

    kind: PartKind
    x: float
    y: float
    name: str                      # what the builder reads beside it: "alaska", "ROLL", "attack die 1 centre"
    led: int | None = None         # its index along the LED chain
    territory: str | None = None   # the territory it belongs to

    @property
    def hole(self) -> float:
        return HOLE_MM[self.kind]

    @property
    def printed_radius(self) -> float:
        """How far from its centre the part's printed mark reaches, mm."""
        return PRINTED_RADIUS_MM.get(self.kind, self.hole / 2)


@dataclass(frozen=True)
class Frame:
    """Where the map sits on the board: mm = offset + scale × the outline's units."""

    width: float
    height: float
    scale: float
    x0: float
    y0: float
    map_width: float
    map_height: float

    def mm(self, x: float, y: float) -> tuple[float, float]:
        return (self.x0 + self.scale * x, self.y0 + self.scale * y)

    @property
    def band_top(self) -> float:
        return self.height - MARGIN - BAND


def parse_size(text: str) -> tuple[float, float]:
    """'680x480' -> (680.0, 480.0): the board's width and height in mm."""
    parts = text.lower().replace("×", "x").split("x")
    try:
        width, height = (float(p) for p in parts)
    except ValueError:
        raise BoardToolError(f"--size {text}: give the board's width and height in mm as WxH, e.g. --size "
                             "680x480") from None
    if not (math.isfinite(width) and math.isfinite(height)) or width <= 0 or height <= 0:
        raise BoardToolError(f"--size {text}: both numbers must be mm above 0, e.g. --size 680x480")
    if width > MAX_SIZE[0] or height > MAX_SIZE[1]:
        raise BoardToolError(f"--size {text}: the kit draws boards of at most {MAX_SIZE[0]:g}x{MAX_SIZE[1]:g} mm; "
                             "give the board's size in mm, e.g. --size 680x480")
    return width, height


def band_width(profile: BoardProfile) -> float:
    """The width the panel below the map needs: three dice, the ring, the buttons, the encoder, the cable holes."""
    return 2 * MARGIN + 3 * DIE_PITCH + GAP + 2 * ring_radius(len(profile.ring)) + GAP + 3 * 30 + GAP + 20 + 60


def ring_radius(count: int) -> float:
    """The ring's radius: its LEDs at least 9 mm apart along the circle, never under 30 mm (a 60 mm ring)."""
    return max(30.0, 9.0 / (2 * math.sin(math.pi / max(count, 2))))


def frame(size: tuple[float, float], outline_width: float, outline_height: float,
          profile: BoardProfile) -> Frame:
    """The map fitted into the board above the band, centred across; one line naming --size when it cannot fit."""
    width, height = size
    need_w = band_width(profile)
    need_h = 2 * MARGIN + BAND + MIN_MAP_HEIGHT
    if width < need_w or height < need_h:
        raise BoardToolError(f"--size {width:g}x{height:g}: too small for the map and the panel below it; give at "
                             f"least --size {math.ceil(max(width, need_w))}x{math.ceil(max(height, need_h))}")
    room_w, room_h = width - 2 * MARGIN, height - 2 * MARGIN - BAND
    scale = min(room_w / outline_width, room_h / outline_height)
    map_w, map_h = outline_width * scale, outline_height * scale
    return Frame(width, height, scale, MARGIN + (room_w - map_w) / 2, MARGIN + (room_h - map_h) / 2, map_w, map_h)


def panel_parts(profile: BoardProfile, f: Frame) -> list[Part]:
    """The band's parts, left to right: the dice (attack on top, defence below), the ring, the buttons, the
    encoder; then the mounting holes round the edge and the cable holes."""
    parts: list[Part] = []
    top = f.band_top
    offsets = ((-1, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (1, 1))   # PIP_NAMES order
    from conquista.hardware.profile import PIP_NAMES

    for row, (side, dice) in enumerate((("attack", profile.dice_attack), ("defence", profile.dice_defence))):
        for d, die in enumerate(dice):
            cx = MARGIN + DIE_PITCH / 2 + d * DIE_PITCH
            cy = top + 14 + DIE_SIDE / 2 + row * DIE_PITCH
            for led, (ox, oy), pip in zip(die, offsets, PIP_NAMES, strict=False):
                parts.append(Part(PartKind.LED, cx + ox * PIP_PITCH, cy + oy * PIP_PITCH,
                                  f"{side} die {d + 1} {pip.replace('_', ' ')}", led))
    radius = ring_radius(len(profile.ring))
    ring_x = MARGIN + 3 * DIE_PITCH + GAP + radius
    ring_y = top + BAND / 2 + 4
    for i, led in enumerate(profile.ring):
        angle = 2 * math.pi * i / len(profile.ring)
        parts.append(Part(PartKind.LED, ring_x + radius * math.sin(angle), ring_y - radius * math.cos(angle),
                          f"ring {i + 1}", led))
    x = ring_x + radius + GAP + 6
    for name in ("ROLL", "CANCEL", "NEXT"):
        parts.append(Part(PartKind.BUTTON, x, ring_y, name))
        x += 30
    parts.append(Part(PartKind.ENCODER, x - 30 + GAP + 10, ring_y, "encoder"))
    w, h = f.width, f.height
    for mx, my in ((6, 6), (w / 2, 6), (w - 6, 6), (6, h - 6), (w / 2, h - 6), (w - 6, h - 6)):
        parts.append(Part(PartKind.MOUNT, mx, my, "mounting screw"))
    for i, cx in enumerate((w - MARGIN - 50, w - MARGIN - 20)):
        parts.append(Part(PartKind.CABLE, cx, h - MARGIN - 20, ("LED supply lead", "Pi power lead")[i]))
    return parts


def ring_centre(profile: BoardProfile, f: Frame) -> tuple[float, float, float]:
    radius = ring_radius(len(profile.ring))
    return (MARGIN + 3 * DIE_PITCH + GAP + radius, f.band_top + BAND / 2 + 4, radius)
