"""The board's event-driven loop: every input wakes it at once, and a frame goes to the strip only when the scene
changed.

Producers (gpiozero's callback threads, the serial link's reader, the web server's thread) only put their item into
the `BoardInbox`; the loop blocks on it, with a timeout no longer than the next animation step (a blink, the turn
clock, a bot's think time, a button held down toward its long hold). So a tap is handled as soon as it arrives rather
than at the next tick of a fixed-rate poll, and an idle board sends no frames at all. The referee is only ever
touched from this loop.
"""

from __future__ import annotations

import queue
from collections.abc import Callable

from conquista.app.runner import TableRunner
from conquista.devices.events import ButtonEvent, EncoderEvent, SensorEvent
from conquista.devices.interfaces import Clock
from conquista.rules.records import frozen_record
from conquista.table.referee import Referee

ANIMATION_STEP_S = 1 / 50   # while something blinks or pulses: the scene is looked at this often
IDLE_S = 0.25               # otherwise: time-outs (a defender's, the claims', the link's silence) are this exact


@frozen_record
class Wake:
    """Something changed outside the referee (a phone's command was queued): look now."""


Item = SensorEvent | ButtonEvent | EncoderEvent | Wake | object   # object: the link's health events


class BoardInbox:
    """Thread-safe: any thread puts, the board's loop takes."""

    def __init__(self) -> None:
        self._items: queue.SimpleQueue[Item] = queue.SimpleQueue()

    def put(self, item: Item) -> None:
        self._items.put(item)

    def wake(self) -> None:
        self._items.put(Wake())

    def take(self, timeout: float) -> list[Item]:
        """Every item waiting; blocks up to `timeout` seconds for the first one (nothing came: empty)."""
        out: list[Item] = []
        try:
            out.append(self._items.get(timeout=max(0.0, timeout)) if timeout > 0 else self._items.get_nowait())
        except queue.Empty:
            return out
        while True:
            try:
                out.append(self._items.get_nowait())
            except queue.Empty:
                return out


def animated(referee: Referee) -> bool:
    """Whether the lights change with time alone now (blinks, pulses, the ring running down): the table's view
    says (`TableView.animated`)."""
    return referee.view().animated


class BoardLoop:
    """Runs a table's runner from its inbox. `on_step(referee, now)` runs after each pass (the web companion: phone
    commands in, routed through the runner's router after each one, views out); `on_other(item)` takes what is
    neither a sensor nor a panel event (the link's health). The runner routes the referee's effects after every
    input and before every frame (app/routing.py: the journal first)."""

    def __init__(self, runner: TableRunner, clock: Clock, inbox: BoardInbox, *,
                 on_step: Callable[[Referee, float], None] | None = None,
                 on_other: Callable[[object], None] | None = None) -> None:
        self.runner = runner
        self.clock = clock
        self.inbox = inbox
        self.on_step = on_step
        self.on_other = on_other
        # What the app's threads post for the referee (a hint searched off this loop) wakes it too.
        runner.router.wake = inbox.wake
        self.frames = 0
        self._timeout = 0.0

    def run(self, should_stop: Callable[[], bool]) -> None:
        referee = self.runner.referee
        while not should_stop() and not referee.view().power_off:
            self.pass_once()

    def pass_once(self) -> None:
        """Wait for an input (or the next animation step), handle everything waiting, show a changed scene."""
        runner = self.runner
        for item in self.inbox.take(self._timeout):
            if isinstance(item, SensorEvent):
                runner.on_sensor(item)
            elif isinstance(item, ButtonEvent | EncoderEvent):
                runner.on_panel(item)
            elif not isinstance(item, Wake) and self.on_other is not None:
                self.on_other(item)
                runner.route(self.clock.now())   # e.g. the link's fault: routed before the next input
        now = self.clock.now()
        runner.advance(now)
        self.frames += runner.show_pass(now, self.on_step)   # the frame first, then the phones (their views)
        self._timeout = self._next_timeout(now)

    def _next_timeout(self, now: float) -> float:
        runner = self.runner
        timeout = ANIMATION_STEP_S if animated(runner.referee) or runner.recogniser.buttons_down() else IDLE_S
        bots = runner.bots
        if bots is not None:
            timeout = min(timeout, max(0.0, bots.due(runner.referee) - now))
        return timeout
