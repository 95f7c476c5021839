"""LED colours, chosen so that no two signals on the board can be mistaken for each other.

Every player colour, the neutral army, the selection pulse and the illegal-tap signal differ by a CIEDE2000 of at
least `MIN_DIFFERENCE` from each other as a WS2812B shows them, at every board brightness from
`MIN_BRIGHTNESS` to 255 (the model, a check the palette must pass and no part of play, is
`tests/table/led_perception.py`; `tests/table/test_colours.py` computes every pair). The
values are LED bytes, not sRGB: the LED's green is far brighter than its blue, so e.g. yellow needs less green than
on a screen. A player colour named "black" cannot be lit, so it shows as white.

Two LED palettes: the standard one, and one for colour-blind players (`Palette.COLOUR_BLIND`, chosen by the host
at set-up) whose seats stay apart under simulated protanopia, deuteranopia and tritanopia. Screens (browsers, the
terminal) draw sRGB, not LED bytes: `SCREEN_RGB` is what each name looks like there, told apart under the same
three simulations, and every screen also writes the owner's letter (`MARKS`), so nobody has to rely on colour.
The distances are in docs/playing.md and computed by tests/table/test_colour_vision.py.
"""

from __future__ import annotations

import enum

RGB = tuple[int, int, int]


class Palette(enum.Enum):
    """Which LED colours the seats take: the host chooses at set-up (`Referee.palette`)."""

    STANDARD = "standard"
    COLOUR_BLIND = "colour-blind"

    @classmethod
    def parse(cls, text: str) -> Palette:
        try:
            return cls(text)
        except ValueError:
            raise ValueError(f"no LED palette {text!r}; use one of {', '.join(p.value for p in cls)}") from None

MIN_DIFFERENCE = 20.0
MIN_BRIGHTNESS = 64

# Up to 8 seats; rulesets name their colours from these.
PLAYER_RGB: dict[str, RGB] = {
    "red": (255, 0, 0),
    "blue": (0, 64, 255),
    "yellow": (255, 150, 0),        # the LED's green is bright: this reads yellow, not orange
    "green": (0, 255, 0),
    "purple": (128, 96, 255),
    "black": (255, 255, 255),
    "pink": (170, 0, 64),
    "cyan": (0, 96, 128),
}
# For colour-blind players: apart by at least CVD_MIN_DIFFERENCE under each simulated deficiency (seats and the
# neutral army; the selection and the illegal tap are told by their blinking). Lightness carries most of it.
COLOUR_BLIND_RGB: dict[str, RGB] = {
    "red": (202, 16, 1),
    "blue": (2, 0, 183),
    "yellow": (209, 200, 6),
    "green": (12, 148, 20),
    "purple": (191, 30, 181),
    "black": (247, 233, 241),
    "pink": (241, 26, 89),
    "cyan": (10, 128, 200),
}
CVD_MIN_DIFFERENCE = 8.0
LED_PALETTES: dict[Palette, dict[str, RGB]] = {Palette.STANDARD: PLAYER_RGB, Palette.COLOUR_BLIND: COLOUR_BLIND_RGB}

# Screens: sRGB as a browser or terminal draws it, each colour what its name says. Every pair of seats and the
# neutral army differ by at least SCREEN_MIN_DIFFERENCE (CIEDE2000) to normal vision and under each simulated
# deficiency; the letter in MARKS is drawn with the colour everywhere.
SCREEN_RGB: dict[str, RGB] = {
    "red": (198, 42, 26),
    "blue": (56, 124, 222),
    "yellow": (254, 246, 38),
    "green": (45, 194, 82),
    "purple": (110, 40, 139),
    "black": (22, 22, 22),
    "pink": (254, 142, 187),
    "cyan": (53, 246, 251),
}
# The screens' colours when the host chose the colour-blind palette (issue 40): apart from each other, the neutral
# army and the sea (#2f4c69) by a CIEDE2000 of at least 11 under simulated deuteranopia (7.2 with SCREEN_RGB, purple
# against the sea), 12.7 under protanopia (10.0) and 16 under tritanopia (16.0); tests/table/test_colour_vision.py.
SCREEN_COLOUR_BLIND_RGB: dict[str, RGB] = {
    "red": (214, 28, 17),
    "blue": (62, 127, 246),
    "yellow": (254, 246, 38),
    "green": (45, 194, 82),
    "purple": (180, 40, 170),
    "black": (22, 22, 22),
    "pink": (254, 142, 187),
    "cyan": (53, 246, 251),
}
SCREEN_NEUTRAL: RGB = (128, 128, 128)
SCREEN_MIN_DIFFERENCE = 15.0
# One letter per colour, unique: black is K (as in CMYK, B is blue), pink is I (P is purple), white W.
MARKS: dict[str, str] = {"red": "R", "blue": "B", "yellow": "Y", "green": "G", "purple": "P", "black": "K",
                         "pink": "I", "cyan": "C", "white": "W", "neutral": "N"}

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


def player_rgb(name: str, palette: Palette = Palette.STANDARD) -> RGB:
    """A seat's LED colour in the host's palette."""
    colours = LED_PALETTES[palette]
    if name == WHITE_ALIAS:
        return colours["black"]
    try:
        return colours[name]
    except KeyError:
        raise ValueError(f"no LED colour for player colour {name!r}; use one of "
                         f"{', '.join(PLAYER_RGB)}") from None


def screen_rgb(name: str) -> RGB:
    """A seat's colour on a screen (sRGB); "white" is drawn white, "neutral" grey."""
    if name == WHITE_ALIAS:
        return (240, 240, 240)
    if name == "neutral":
        return SCREEN_NEUTRAL
    try:
        return SCREEN_RGB[name]
    except KeyError:
        raise ValueError(f"no screen colour for player colour {name!r}; use one of "
                         f"{', '.join(SCREEN_RGB)}") from None


def screen_hex(name: str) -> str:
    return "#{:02x}{:02x}{:02x}".format(*screen_rgb(name))


def screen_hex_in(name: str, palette: Palette) -> str:
    """A seat's colour on a screen in the host's palette (the colour-blind one changes the screens as the LEDs)."""
    if palette is Palette.COLOUR_BLIND and name in SCREEN_COLOUR_BLIND_RGB:
        return "#{:02x}{:02x}{:02x}".format(*SCREEN_COLOUR_BLIND_RGB[name])
    return screen_hex(name)


def mark(name: str) -> str:
    """The owner's letter, drawn beside the colour on every screen."""
    return MARKS.get(name, name[:1].upper())


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
