"""`conquista board check` as a state machine: what the built board has shown it can do, and what it has not.

The builder first sees the whole chain red, then green, then blue, each named, so a strip whose colour order is
not the profile's `color_order` shows at once (red looking green is a GRB/RGB swap) and the line printed says
which order to set. Then the LEDs walk along the chain, then taps every territory (each tap lights that territory and
names it), presses every button and turns the encoder. A territory whose sensor never closes is *silent*; a key
that is nobody's in the profile, or one tap that closes two territories' sensors, is named with the territories
involved, because those are the wiring faults a builder can fix with a meter.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from conquista.devices.events import ButtonEvent, Edge, EncoderEvent, PanelButton, PanelEvent
from conquista.hardware.profile import BoardProfile

TAPPED = (255, 255, 255)
WALK = (255, 255, 255)    # all three channels of each LED in turn: a pixel with one dead colour shows tinted
# The colour steps, in order: every LED of the chain in one pure colour (the current limit dims a long chain).
COLOUR_STEPS: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("red", (255, 0, 0)), ("green", (0, 255, 0)), ("blue", (0, 0, 255)))
NAMES = {"R": "red", "G": "green", "B": "blue"}
ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")


def seen_as(profile_order: str, true_order: str) -> tuple[str, str, str]:
    """What the builder sees for red, green, blue when the host sends `profile_order` to pixels of `true_order`:
    wire byte p carries colour profile_order[p], and the pixel lights it as true_order[p]."""
    return (NAMES[true_order[profile_order.index("R")]], NAMES[true_order[profile_order.index("G")]],
            NAMES[true_order[profile_order.index("B")]])


def colour_fixes(profile_order: str) -> list[str]:
    """One line per wrong-looking outcome of the colour steps, naming the color_order that fixes it."""
    return [f"if red, green, blue looked {', '.join(seen_as(profile_order, true))}: set strip.color_order = "
            f'"{true}" in the profile' for true in ORDERS if true != profile_order]
TOGETHER_S = 0.05      # two sensors closing this close together come from one tap


@dataclass
class SelfTest:
    profile: BoardProfile
    tapped: dict[int, int] = field(default_factory=dict)       # territory → taps seen
    buttons: set[PanelButton] = field(default_factory=set)
    turns: set[int] = field(default_factory=set)              # +1 and -1 once each way
    strangers: set[int] = field(default_factory=set)          # keys no territory owns
    doubles: set[frozenset[int]] = field(default_factory=set)  # territories that closed together
    last: int = -1                                            # the territory tapped last (lit)
    _last_press: tuple[int, float] | None = None

    @property
    def size(self) -> int:
        return self.profile.game_map.size

    # -- inputs -----------------------------------------------------------------------------------------------

    def key(self, key: int, pressed: bool, time: float) -> str | None:
        """A raw matrix key edge; returns what to tell the builder, if anything."""
        if not pressed:
            return None
        territory = self.profile.territory_of_key(key)
        if territory is None:
            self.strangers.add(key)
            row, col = divmod(key, self.profile.sensors.cols)
            return f"key {key} (row {row}, column {col}) closed, but no territory of the profile has it"
        return self.territory(territory, time)

    def territory(self, territory: int, time: float) -> str:
        self.tapped[territory] = self.tapped.get(territory, 0) + 1
        self.last = territory
        note = ""
        if self._last_press is not None:
            other, when = self._last_press
            if other != territory and time - when < TOGETHER_S:
                self.doubles.add(frozenset((other, territory)))
                note = f" — together with {self._name(other)}: one tap closed two sensors"
        self._last_press = (territory, time)
        return f"{self._name(territory)} ({len(self.tapped)} of {self.size}){note}"

    def panel(self, event: PanelEvent) -> str | None:
        if isinstance(event, EncoderEvent):
            self.turns.add(1 if event.steps > 0 else -1)
            return f"encoder {'+' if event.steps > 0 else ''}{event.steps}"
        if isinstance(event, ButtonEvent) and event.edge is Edge.PRESS:
            self.buttons.add(event.button)
            return f"{event.button.value.upper()} pressed"
        return None

    # -- results ----------------------------------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        return len(self.tapped) == self.size and len(self.buttons) == len(PanelButton) and len(self.turns) == 2

    def silent(self) -> list[str]:
        return [self._name(t) for t in range(self.size) if t not in self.tapped]

    def problems(self) -> list[str]:
        out = []
        silent = self.silent()
        if silent:
            out.append(f"silent sensors ({len(silent)}): {', '.join(silent)}")
        for pair in sorted(self.doubles, key=sorted):
            a, b = sorted(pair)
            out.append(f"{self._name(a)} and {self._name(b)} closed together: a short between their wires, or a "
                       "missing diode")
        for key in sorted(self.strangers):
            row, col = divmod(key, self.profile.sensors.cols)
            out.append(f"key {key} (row {row}, column {col}) belongs to no territory: check the profile's cells")
        missing = [b.value.upper() for b in PanelButton if b not in self.buttons]
        if missing:
            out.append(f"buttons never pressed: {', '.join(missing)}")
        if len(self.turns) < 2:
            out.append("the encoder was not turned both ways")
        return out

    def frame(self) -> bytearray:
        """The tapped territory lit; nothing else."""
        frame = bytearray(3 * self.profile.strip.length)
        if self.last >= 0:
            for led in self.profile.territory_leds[self.last]:
                frame[3 * led:3 * led + 3] = bytes(TAPPED)
        return frame

    def colour_frame(self, rgb: tuple[int, int, int]) -> bytearray:
        """Every LED of the chain in one colour (a colour step)."""
        return bytearray(bytes(rgb) * self.profile.strip.length)

    def walk_frame(self, led: int) -> bytearray:
        """The LED walk: one LED lit at a time, in chain order."""
        frame = bytearray(3 * self.profile.strip.length)
        frame[3 * led:3 * led + 3] = bytes(WALK)
        return frame

    def _name(self, territory: int) -> str:
        return self.profile.game_map.territories[territory].name_en
