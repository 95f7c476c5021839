"""What players do at the table, as typed values, and the recogniser that turns raw press/release into them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Button(Enum):
    ROLL = "roll"        # roll / confirm
    CANCEL = "cancel"    # cancel / undo
    NEXT = "next"        # end the phase or turn


@dataclass(frozen=True, slots=True)
class Tap:
    territory: int


@dataclass(frozen=True, slots=True)
class LongPress:
    territory: int


@dataclass(frozen=True, slots=True)
class Press:
    button: Button


@dataclass(frozen=True, slots=True)
class Hold:
    button: Button


@dataclass(frozen=True, slots=True)
class Turn:
    """Encoder steps: positive clockwise."""

    steps: int


Gesture = Tap | LongPress | Press | Hold | Turn


class GestureRecogniser:
    """Game-level settling on top of the firmware's contact debounce: a press-release shorter than `min_tap_s`
    is noise, one held at least `long_press_s` is a long press (ROLL held = blitz)."""

    def __init__(self, min_tap_s: float = 0.02, long_press_s: float = 0.8) -> None:
        self.min_tap_s = min_tap_s
        self.long_press_s = long_press_s
        self._territory_down: dict[int, float] = {}
        self._button_down: dict[Button, float] = {}

    def territory_down(self, territory: int, now: float) -> None:
        self._territory_down[territory] = now

    def territory_up(self, territory: int, now: float) -> Gesture | None:
        since = self._territory_down.pop(territory, None)
        if since is None:
            return None  # a release without its press (e.g. after a link resync) is not a tap
        held = now - since
        if held < self.min_tap_s:
            return None
        return LongPress(territory) if held >= self.long_press_s else Tap(territory)

    def button_down(self, button: Button, now: float) -> None:
        self._button_down[button] = now

    def button_up(self, button: Button, now: float) -> Gesture | None:
        since = self._button_down.pop(button, None)
        if since is None:
            return None
        held = now - since
        if held < self.min_tap_s:
            return None
        return Hold(button) if held >= self.long_press_s else Press(button)
