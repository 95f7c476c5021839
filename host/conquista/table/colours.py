"""LED colours, chosen so that no two signals on the board can be mistaken for each other.

Every player colour, the neutral army, the selection pulse and the illegal-tap signal differ by a CIEDE2000 of at
least `MIN_DIFFERENCE` from each other as a WS2812B shows them, at every board brightness from
`MIN_BRIGHTNESS` to 255 (the model is `perception.py`; `tests/table/test_colours.py` computes every pair). The
values are LED bytes, not sRGB: the LED's green is far brighter than its blue, so e.g. yellow needs less green than
on a screen. A player colour named "black" cannot be lit, so it shows as white.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

MIN_DIFFERENCE = 20.0
MIN_BRIGHTNESS = 64

# Up to 8 seats; rulesets name their colours from these.
PLAYER_RGB: dict[str, RGB] = {
    "red": (255, 0, 0),
    "blue": (0, 64, 255),
    "yellow": (170, 128, 48),
    "green": (0, 255, 0),
    "purple": (128, 96, 255),
    "black": (255, 255, 255),
    "pink": (170, 0, 64),
    "cyan": (0, 96, 128),
}
WHITE_ALIAS = "white"           # the same LED colour as "black", for rulesets that call that seat white
NEUTRAL: RGB = (24, 24, 24)      # the neutral army: a dim white no player colour comes near
SELECT: RGB = (128, 255, 128)    # the selection pulse alternates a territory's colour with this
ILLEGAL: RGB = (170, 255, 0)     # the illegal-tap blink: this colour and dark, fast (see ILLEGAL_BLINK_*)
OFF: RGB = (0, 0, 0)
ATTACK_DIE: RGB = (255, 0, 0)
DEFENCE_DIE: RGB = (0, 64, 255)
FAULT: RGB = (255, 80, 0)

# The illegal tap: three short flashes at 5 Hz. A lost army blinks the owner's colour at 2.5 Hz and the selection
# pulse is a slow swap, so none of the three patterns looks like another.
ILLEGAL_BLINK_PERIOD_S = 0.2
ILLEGAL_BLINK_ON_S = 0.12
ILLEGAL_BLINKS = 3
SELECT_PERIOD_S = 1.2           # owner colour for half of it, SELECT for the other half


def player_rgb(name: str) -> RGB:
    if name == WHITE_ALIAS:
        return PLAYER_RGB["black"]
    try:
        return PLAYER_RGB[name]
    except KeyError:
        raise ValueError(f"no LED colour for player colour {name!r}; use one of "
                         f"{', '.join(PLAYER_RGB)}") from None


def signal_colours() -> dict[str, RGB]:
    """Every colour that must be told apart from every other: the seats, the neutral army and the two signals."""
    return {**PLAYER_RGB, "neutral": NEUTRAL, "selection pulse": SELECT, "illegal tap": ILLEGAL}


def illegal_blink(age: float) -> RGB | None:
    """The illegal-tap signal `age` seconds after the tap, or None once it is over."""
    if not 0 <= age < ILLEGAL_BLINK_PERIOD_S * ILLEGAL_BLINKS:
        return None
    return ILLEGAL if age % ILLEGAL_BLINK_PERIOD_S < ILLEGAL_BLINK_ON_S else OFF


def selection_pulse(owner: RGB, now: float) -> RGB:
    return owner if now % SELECT_PERIOD_S < SELECT_PERIOD_S / 2 else SELECT


def scale(colour: RGB, factor: float) -> RGB:
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))
