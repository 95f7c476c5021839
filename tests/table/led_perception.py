"""How a colour sent to a WS2812B looks to a player: LED bytes → light → CIELAB, and the CIEDE2000 difference.

The palette in `conquista/table/colours.py` is chosen with this model so that no two signals on the board can be
mistaken for each other. The model, and why:

- A WS2812B dims each channel by PWM, so the light it emits is proportional to the byte it receives (a gamma of 1;
  the sRGB decoding curve does not apply). The board's brightness (0-255) scales every byte before it is sent
  (`devices/current_limit.py`), so it scales the light the same way.
- Its three emitters are close to monochromatic. Their chromaticities are those of the datasheet's typical dominant
  wavelengths (red 625 nm, green 525 nm, blue 470 nm, on the CIE 1931 spectral locus) and their relative luminances
  those of the datasheet's typical luminous intensities (390-420, 660-720 and 180-200 mcd).
- The eye's non-linearity is CIELAB's: the reference white is the LED's own white at full drive, which is what an
  eye adapted to the lit board takes for white.

CIEDE2000 follows Sharma, Wu and Dalal, "The CIEDE2000 color-difference formula: implementation notes,
supplementary test data, and mathematical observations", Color Res. Appl. 30(1), 2005 (their test data is
`tests/table/test_perception.py`).
"""

from __future__ import annotations

import math

Lab = tuple[float, float, float]
Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

# (x, y) chromaticity and relative luminance of each emitter at full drive.
EMITTERS = (
    ((0.7006, 0.2993), 405.0),   # red, 625 nm
    ((0.1142, 0.8262), 690.0),   # green, 525 nm
    ((0.1241, 0.0578), 190.0),   # blue, 470 nm
)


def _emitter_matrix() -> Matrix:
    """Columns: the XYZ of each emitter at full drive, scaled so that full white has Y = 1."""
    total = sum(luminance for _, luminance in EMITTERS)
    columns = []
    for (x, y), luminance in EMITTERS:
        big_y = luminance / total
        columns.append((x / y * big_y, big_y, (1.0 - x - y) / y * big_y))
    return ((columns[0][0], columns[1][0], columns[2][0]),
            (columns[0][1], columns[1][1], columns[2][1]),
            (columns[0][2], columns[1][2], columns[2][2]))


TO_XYZ = _emitter_matrix()
WHITE = tuple(sum(row) for row in TO_XYZ)  # the XYZ of (255, 255, 255) at full brightness


def led_xyz(rgb: tuple[int, int, int], brightness: int = 255) -> tuple[float, float, float]:
    """The light of one LED driven with `rgb` at the board's `brightness` (both 0-255)."""
    linear = [channel / 255 * brightness / 255 for channel in rgb]
    return (sum(m * c for m, c in zip(TO_XYZ[0], linear, strict=True)),
            sum(m * c for m, c in zip(TO_XYZ[1], linear, strict=True)),
            sum(m * c for m, c in zip(TO_XYZ[2], linear, strict=True)))


def _lab_f(t: float) -> float:
    delta = 6 / 29
    return t ** (1 / 3) if t > delta ** 3 else t / (3 * delta * delta) + 4 / 29


def xyz_to_lab(xyz: tuple[float, float, float], white: tuple[float, ...] = WHITE) -> Lab:
    fx, fy, fz = (_lab_f(v / w) for v, w in zip(xyz, white, strict=True))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def led_lab(rgb: tuple[int, int, int], brightness: int = 255) -> Lab:
    return xyz_to_lab(led_xyz(rgb, brightness))


def ciede2000(first: Lab, second: Lab) -> float:
    """The CIEDE2000 colour difference (kL = kC = kH = 1)."""
    l1, a1, b1 = first
    l2, a2, b2 = second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = _hue_degrees(b1, a1p)
    h2p = _hue_degrees(b2, a2p)

    delta_l = l2 - l1
    delta_c = c2p - c1p
    if c1p * c2p == 0:
        delta_h_angle = 0.0
    else:
        delta_h_angle = h2p - h1p
        if delta_h_angle > 180:
            delta_h_angle -= 360
        elif delta_h_angle < -180:
            delta_h_angle += 360
    delta_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(delta_h_angle / 2))

    l_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp_mean = (h1p + h2p + 360) / 2
    else:
        hp_mean = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hp_mean - 30)) + 0.24 * math.cos(math.radians(2 * hp_mean))
         + 0.32 * math.cos(math.radians(3 * hp_mean + 6)) - 0.20 * math.cos(math.radians(4 * hp_mean - 63)))
    delta_theta = 30 * math.exp(-(((hp_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * delta_theta)) * r_c
    return math.sqrt((delta_l / s_l) ** 2 + (delta_c / s_c) ** 2 + (delta_h / s_h) ** 2
                     + r_t * (delta_c / s_c) * (delta_h / s_h))


def _hue_degrees(b: float, a: float) -> float:
    if a == 0 and b == 0:
        return 0.0
    return math.degrees(math.atan2(b, a)) % 360


def led_difference(first: tuple[int, int, int], second: tuple[int, int, int], brightness: int = 255) -> float:
    """CIEDE2000 between two LED colours as the players see them at the board's brightness."""
    return ciede2000(led_lab(first, brightness), led_lab(second, brightness))
