"""LED colours. A player colour named "black" cannot be lit, so it shows as white on the board."""

from __future__ import annotations

RGB = tuple[int, int, int]

PLAYER_RGB: dict[str, RGB] = {
    "red": (255, 0, 0),
    "blue": (0, 60, 255),
    "yellow": (255, 190, 0),
    "green": (0, 200, 40),
    "purple": (170, 0, 255),
    "black": (200, 200, 200),
    "orange": (255, 90, 0),
    "cyan": (0, 220, 220),
    "pink": (255, 60, 150),
    "white": (200, 200, 200),
}
OFF: RGB = (0, 0, 0)
ILLEGAL: RGB = (255, 0, 0)
ATTACK_DIE: RGB = (255, 0, 0)
DEFENCE_DIE: RGB = (0, 60, 255)
FAULT: RGB = (255, 80, 0)


def player_rgb(name: str) -> RGB:
    return PLAYER_RGB.get(name, (200, 200, 200))


def scale(colour: RGB, factor: float) -> RGB:
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))
