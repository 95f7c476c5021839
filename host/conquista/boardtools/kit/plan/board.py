"""The board's face in millimetres (x right, y down from the top-left corner, as the builder looks at it): the map
scaled into the top, a band below it for the dice panel, the status ring, the buttons and the encoder, and a margin
all round for the mounting screws. The parts of the band are placed here; the territories' parts in `placement`.

The `Route` is how the board is built, and sets the holes and pitches: the weekend route (the default) pushes
pre-wired 12 mm bullet pixels into 12 mm holes, 16 mm apart at least (their flanges are 13.5 mm), with the dice
pips at 15 mm; the status ring is a ring board at its real diameter (a 24-LED ring's LEDs sit on a 59 mm circle,
7.7 mm apart on one PCB); the sensors are the profile's (touch pads for an MPR121 profile, switches for a
matrix). The "single" route is the former one: single WS2812B pixels on 10 mm PCBs, 12 mm apart, hand-wired.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from conquista.errors import BoardToolError
from conquista.hardware.profile import BoardProfile, SensorKind, SensorPart

DEFAULT_SIZE = (680.0, 480.0)   # the classic board's size, mm
# The largest board the kit draws: a table top of 2 × 2 m. Beyond it the layout's grids and the tiled pages grow
# without bound (a 100 m board runs for hours, 1e308 mm ends out of memory), and no builder's table is larger.
MAX_SIZE = (2000.0, 2000.0)
MARGIN = 12.0                   # mm round the map: the frame's battens and the mounting screws
MIN_MAP_HEIGHT = 120.0          # mm: a map squeezed lower than this is not a board
GAP = 26.0                      # mm between the band's groups
LEDS = ("string", "single")     # --leds: pre-wired bullet pixel strings (the weekend route), or single pixels


class PartKind(StrEnum):
    SWITCH = "switch"
    TOUCH = "touch"        # a capacitive pad of copper tape on the plate under the print; its wire's hole
    LED = "led"
    RING = "ring"          # the hole the status ring's board sits in
    BUTTON = "button"
    ENCODER = "encoder"
    MOUNT = "mount"
    CABLE = "cable"        # no longer drilled in the plate: the leads come in through the enclosure's back
    SUPPORT = "support"    # a block glued under the plate, on the frame's middle rail: not drilled


SENSORS = (PartKind.SWITCH, PartKind.TOUCH)   # a territory's sensor, whichever the route

# The hole drilled in the base plate for each kind of part, in mm; an LED's is the route's (`Route.led_hole`).
HOLE_MM = {PartKind.SWITCH: 4.0, PartKind.TOUCH: 3.0, PartKind.LED: 6.0, PartKind.BUTTON: 12.0,
           PartKind.ENCODER: 7.0, PartKind.MOUNT: 4.5, PartKind.CABLE: 12.0, PartKind.SUPPORT: 0.0}
SUPPORT_MM = 30.0     # a support block's side: clear of every hole
TOUCH_PAD_MM = 16.0   # a touch pad's side: copper tape, a fingertip's width


# The mark printed over each kind of part, as a radius in mm: a ring to press over a switch, a small window over an
# LED, a disc under a button or the encoder's knob; the other holes are printed at their size.
PRINTED_RADIUS_MM = {PartKind.SWITCH: 5.0, PartKind.TOUCH: TOUCH_PAD_MM / 2, PartKind.LED: 3.0,
                     PartKind.BUTTON: 9.0, PartKind.ENCODER: 9.0}


@dataclass(frozen=True)
class RingBoard:
    """A WS2812B ring board as sold (Adafruit NeoPixel Ring 12/16/24 and their clones): its size, mm."""

    leds: int
    outer: float
    inner: float
    part_number: str

    @property
    def radius(self) -> float:
        """The circle the LEDs' centres sit on: half-way across the ring."""
        return (self.outer + self.inner) / 4


RING_BOARDS = {12: RingBoard(12, 37.0, 23.0, "Adafruit 1643"), 16: RingBoard(16, 44.5, 31.75, "Adafruit 1463"),
               24: RingBoard(24, 65.6, 52.3, "Adafruit 1586")}


@dataclass(frozen=True)
class Route:
    """How this board is built: the LEDs' kind and pitches, the sensors' kind."""

    leds: str                  # "string" (12 mm bullet pixels) or "single" (WS2812B on 10 mm PCBs)
    sensor: PartKind           # TOUCH (MPR121 pads) or SWITCH (a matrix or GPIO switches)
    spacing: float             # mm between the centres of any two separate parts
    edge: float                # mm from a part's centre to its territory's border, at least
    sensor_clear: float        # mm from the sensor's centre to any other part's
    led_hole: float            # mm
    pip_pitch: float           # mm between a die's neighbouring pips
    ring: RingBoard | None     # the ring board, when one is sold for the profile's ring; else pixels on a circle

    @property
    def die_side(self) -> float:
        return 2 * self.pip_pitch + 14

    @property
    def die_pitch(self) -> float:
        return self.die_side + 6

    @property
    def band(self) -> float:
        """mm below the map for the panel: two rows of dice and their labels."""
        return max(96.0, 2 * self.die_pitch + 16)


def route_for(profile: BoardProfile, leds: str = "string") -> Route:
    touch = profile.sensors.kind is SensorKind.SERIAL and profile.sensors.part is SensorPart.MPR121
    sensor = PartKind.TOUCH if touch else PartKind.SWITCH
    ring = RING_BOARDS.get(len(profile.ring))
    # A touch pad is the territory's own copper (its outline less 3 mm, with a window round each LED): only its
    # wire's 3 mm hole needs room, 9 mm from an LED's centre. A switch's ring needs a part's spacing.
    if leds == "string":
        return Route("string", sensor, 16.0, 7.0, 9.0 if touch else 16.0, 12.0, 15.0, ring)
    if leds == "single":
        return Route("single", sensor, 12.0 if not touch else 10.0, 5.0 if touch else 4.0, 8.0, 6.0, 12.0, ring)
    raise BoardToolError(f"--leds {leds}: use {' or '.join(LEDS)}")


@dataclass(frozen=True)
class Part:
    """One part mounted in the plate: a territory's switch or LED, a pip, a ring LED, a button, a hole."""

    kind: PartKind
    x: float
    y: float
    name: str                      # what the builder reads beside it: "alaska", "ROLL", "attack die 1 centre"
    led: int | None = None         # its index along the LED chain
    territory: str | None = None   # the territory it belongs to
    diameter: float | None = None  # its hole, mm, when not the kind's (an LED's is the route's; 0: none)
    board: str | None = None       # the board it is soldered on ("ring"): pitches on one PCB are its maker's

    @property
    def hole(self) -> float:
        return HOLE_MM[self.kind] if self.diameter is None else self.diameter

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
    band: float = 96.0

    def mm(self, x: float, y: float) -> tuple[float, float]:
        return (self.x0 + self.scale * x, self.y0 + self.scale * y)

    @property
    def band_top(self) -> float:
        return self.height - MARGIN - self.band


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


def band_width(profile: BoardProfile, route: Route) -> float:
    """The width the panel below the map needs: three dice, the ring, the buttons, the encoder, the cable holes."""
    return (2 * MARGIN + 3 * route.die_pitch + GAP + 2 * ring_reach(profile, route) + GAP + 3 * 30 + GAP + 20
            + 60)


def ring_radius(profile: BoardProfile, route: Route) -> float:
    """The circle of the ring's LEDs: the ring board's, else pixels at the route's spacing, never under 30 mm."""
    if route.ring is not None:
        return route.ring.radius
    return max(30.0, route.spacing / (2 * math.sin(math.pi / max(len(profile.ring), 2))))


def ring_reach(profile: BoardProfile, route: Route) -> float:
    """How far the ring reaches from its centre: its board's edge, or its pixels' holes."""
    if route.ring is not None:
        return max(30.0, route.ring.outer / 2)
    return ring_radius(profile, route) + route.led_hole / 2


def frame(size: tuple[float, float], outline_width: float, outline_height: float,
          profile: BoardProfile, route: Route) -> Frame:
    """The map fitted into the board above the band, centred across; one line naming --size when it cannot fit."""
    width, height = size
    band = route.band
    need_w = band_width(profile, route)
    need_h = 2 * MARGIN + band + MIN_MAP_HEIGHT
    if width < need_w or height < need_h:
        raise BoardToolError(f"--size {width:g}x{height:g}: too small for the map and the panel below it; give at "
                             f"least --size {math.ceil(max(width, need_w))}x{math.ceil(max(height, need_h))}")
    room_w, room_h = width - 2 * MARGIN, height - 2 * MARGIN - band
    scale = min(room_w / outline_width, room_h / outline_height)
    map_w, map_h = outline_width * scale, outline_height * scale
    return Frame(width, height, scale, MARGIN + (room_w - map_w) / 2, MARGIN + (room_h - map_h) / 2, map_w, map_h,
                 band)


def panel_parts(profile: BoardProfile, f: Frame, route: Route) -> list[Part]:
    """The band's parts, left to right: the dice (attack on top, defence below), the ring, the buttons, the
    encoder; then the mounting holes round the edge and the cable holes."""
    parts: list[Part] = []
    top = f.band_top
    offsets = ((-1, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (1, 1))   # PIP_NAMES order
    from conquista.hardware.profile import PIP_NAMES

    pitch = route.pip_pitch
    for row, (side, dice) in enumerate((("attack", profile.dice_attack), ("defence", profile.dice_defence))):
        for d, die in enumerate(dice):
            cx = MARGIN + route.die_pitch / 2 + d * route.die_pitch
            cy = top + 14 + route.die_side / 2 + row * route.die_pitch
            for led, (ox, oy), pip in zip(die, offsets, PIP_NAMES, strict=False):
                parts.append(Part(PartKind.LED, cx + ox * pitch, cy + oy * pitch,
                                  f"{side} die {d + 1} {pip.replace('_', ' ')}", led, diameter=route.led_hole))
    ring_x, ring_y, radius = ring_centre(profile, f, route)
    on_board = route.ring is not None
    if route.ring is not None:    # one hole the ring board sits in; its LEDs need none of their own
        parts.append(Part(PartKind.RING, ring_x, ring_y, f"{route.ring.leds}-LED ring board",
                          diameter=route.ring.outer + 1))
    for i, led in enumerate(profile.ring):
        angle = 2 * math.pi * i / len(profile.ring)
        parts.append(Part(PartKind.LED, ring_x + radius * math.sin(angle), ring_y - radius * math.cos(angle),
                          f"ring {i + 1}", led, diameter=0.0 if on_board else route.led_hole,
                          board="ring" if on_board else None))
    x = ring_x + ring_reach(profile, route) + GAP + 6
    for name in ("ROLL", "CANCEL", "NEXT"):
        parts.append(Part(PartKind.BUTTON, x, ring_y, name))
        x += 30
    parts.append(Part(PartKind.ENCODER, x - 30 + GAP + 10, ring_y, "encoder"))
    w, h = f.width, f.height
    # M4 screws into threaded inserts in the frame, in the margin and printed as marks: the plate lifts off with
    # its wires on connectors, and nothing is hidden under the print. No cable comes through the printed face:
    # the leads enter through the enclosure's back wall.
    for mx, my in ((6, 6), (w / 2, 6), (w - 6, 6), (6, h - 6), (w / 2, h - 6), (w - 6, h - 6)):
        parts.append(Part(PartKind.MOUNT, mx, my, "M4 screw"))
    return parts


def ring_centre(profile: BoardProfile, f: Frame, route: Route) -> tuple[float, float, float]:
    """The ring's centre and the radius of its LEDs' circle, mm."""
    reach = ring_reach(profile, route)
    return (MARGIN + 3 * route.die_pitch + GAP + reach, f.band_top + f.band / 2 + 4, ring_radius(profile, route))
