"""What players do at the table, as typed values, and the recogniser that turns raw press/release into them."""

from __future__ import annotations

from enum import Enum

from conquista.rules.records import frozen_record


class Button(Enum):
    ROLL = "roll"        # roll / confirm
    CANCEL = "cancel"    # cancel / undo
    NEXT = "next"        # end the phase or turn


@frozen_record(slots=True)
class Tap:
    territory: int


@frozen_record(slots=True)
class LongPress:
    territory: int


@frozen_record(slots=True)
class Press:
    button: Button


@frozen_record(slots=True)
class Hold:
    button: Button


@frozen_record(slots=True)
class HeldDown:
    """A button still held down long after it was pressed (NEXT for 5 s: power off; CANCEL for 3 s: the player
    to move leaves the game); its release then makes no other gesture."""

    button: Button


@frozen_record(slots=True)
class Chord:
    """ROLL and NEXT pressed together: it grants a phone's seat claim. Each button alone means something in every
    mode (the game, the menu, a question), the two together nothing else, so a claim never takes a press meant
    for the game. The two buttons' releases then make no other gesture."""


@frozen_record(slots=True)
class Turn:
    """Encoder steps: positive clockwise."""

    steps: int


Gesture = Tap | LongPress | Press | Hold | HeldDown | Chord | Turn
CHORD = frozenset({Button.ROLL, Button.NEXT})


class GestureRecogniser:
    """Game-level settling on top of the firmware's contact debounce: a press-release shorter than `min_tap_s`
    is noise, one held at least `long_press_s` is a long press (ROLL held = blitz). A button of `held_down`
    still down after its time (NEXT: `held_down_s`, the power-off question; CANCEL: `leave_hold_s`, the question
    whether the player to move leaves) is reported by `poll` while it is down (the players see the question
    without letting go), once; its release is then no gesture."""

    def __init__(self, min_tap_s: float = 0.02, long_press_s: float = 0.8, held_down_s: float = 5.0,
                 held_down: frozenset[Button] = frozenset({Button.NEXT, Button.CANCEL}),
                 leave_hold_s: float = 3.0) -> None:
        self.min_tap_s = min_tap_s
        self.long_press_s = long_press_s
        self.held_down_s = held_down_s
        self.leave_hold_s = leave_hold_s
        self.held_down = held_down
        self._territory_down: dict[int, float] = {}
        self._button_down: dict[Button, float] = {}
        self._reported: set[Button] = set()

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

    def button_down(self, button: Button, now: float) -> Gesture | None:
        """A button goes down: ROLL and NEXT both down is the chord (reported now, their releases then silent)."""
        self._button_down[button] = now
        self._reported.discard(button)
        if CHORD <= self._button_down.keys() and not CHORD & self._reported:
            self._reported |= CHORD
            return Chord()
        return None

    def poll(self, now: float) -> Gesture | None:
        """Call once per frame: a button of `held_down` down for `held_down_s` by now, reported once."""
        for button, since in self._button_down.items():
            if button in self.held_down and button not in self._reported and now - since >= self._hold_s(button):
                self._reported.add(button)
                return HeldDown(button)
        return None

    def buttons_down(self) -> bool:
        """Whether a button is down now (its long hold may come: the board's loop looks again soon)."""
        return bool(self._button_down)

    def button_up(self, button: Button, now: float) -> Gesture | None:
        since = self._button_down.pop(button, None)
        if since is None or button in self._reported:
            self._reported.discard(button)
            return None
        held = now - since
        if held < self.min_tap_s:
            return None
        if button in self.held_down and held >= self._hold_s(button):
            return HeldDown(button)  # not polled in time: the release still asks
        return Hold(button) if held >= self.long_press_s else Press(button)

    def _hold_s(self, button: Button) -> float:
        return self.leave_hold_s if button is Button.CANCEL else self.held_down_s
