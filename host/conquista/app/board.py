"""The composition root of a real board: builds the devices a board profile describes and runs the referee.

This is the only place (with firmware/main.py) where real hardware is opened. A missing device is a one-line
error that says what to do; there is no fallback to the simulator.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conquista.app.board_loop import BoardInbox, BoardLoop
from conquista.app.build import build_table, follow_journal
from conquista.app.routing import EffectRouter
from conquista.devices.clock import MonotonicClock
from conquista.devices.interfaces import ButtonPanel, Buzzer, Clock, LedStrip, SensorSource
from conquista.dice.sources import DiceSource
from conquista.hardware.profile import BoardProfile, SensorKind, StripDriver
from conquista.rules.engine import Game
from conquista.rules.records import frozen_record
from conquista.table.bot_player import BotSeats
from conquista.table.inputs import Fault, FaultSource
from conquista.table.referee import Referee

if TYPE_CHECKING:
    from conquista.journal import GameJournal  # sqlite3 and the journal load with the journal play opens


@frozen_record
class JournalToOpen:
    """A journal `run_board` opens once the first frame shows: `path`, where it will be (the board's settings are
    read from beside it for that frame), and `open()`, which opens it (and may raise its one-line error); a second
    call returns the journal opened by the first."""

    path: Path
    open: Callable[[], GameJournal]


@dataclass
class BoardDevices:
    """The devices of a real board, opened by `open_devices` (and closed, in reverse order, by `close`)."""

    sensors: SensorSource | None     # None when only the raw keys were asked for (`keys_only`)
    panel: ButtonPanel
    strip: LedStrip
    buzzer: Buzzer | None
    closers: list[Callable[[], None]] = field(default_factory=list)
    link: Any = None                 # the Pico's link (a SerialSensorSource), when the profile uses it
    deferred: list[Callable[[], None]] = field(default_factory=list)   # opens what waited (`after_first_frame`)

    def open_deferred(self) -> None:
        """Open the devices `open_devices(after_first_frame=True)` left for later (a failure is its one line)."""
        while self.deferred:
            self.deferred.pop(0)()

    def close(self) -> None:
        # Close in reverse order of opening, and keep going if one fails: the LEDs must still go dark.
        # Once: `play` opens them before the board runs and closes them again if it never got that far.
        while self.closers:
            with contextlib.suppress(Exception):
                self.closers.pop()()


def open_devices(profile: BoardProfile, clock: Clock, sensors_url: str | None = None,
                 on_link_event: Callable[[object], None] | None = None,
                 push: Callable[[object], None] | None = None, *, keys_only: bool = False,
                 after_first_frame: bool = False) -> BoardDevices:
    """Open every device of the profile; on any failure close what was opened and re-raise the one-line error.
    With `push`, every input event (and the link's health events) is handed to it as it happens, in the
    producer's thread (the board loop's inbox); without, they wait for `poll()`. `keys_only`: the Pico's raw
    matrix keys (`link`), not mapped to territories (calibration finds that mapping), and no buzzer. The one
    opening of a real board: `play`, `board check` and `board calibrate` use it. `after_first_frame` (`play`): the
    buttons and the buzzer, which the first frame does not need, open at `BoardDevices.open_deferred()`, so
    gpiozero is not even imported before the board's first frame; so do the territory sensors (the Pico's link)
    when the Pi drives the strip itself (then `link` stays None: it is opened later)."""
    opener = _DeviceOpener(profile, clock, sensors_url, on_link_event, push, keys_only=keys_only,
                           later=after_first_frame)
    try:
        sensors = opener.sensors()
        panel = opener.panel()
        if push is not None:
            if sensors is not None:
                sensors.set_listener(push)
            panel.set_listener(push)
        strip = opener.strip()
        buzzer = opener.buzzer()
    except BaseException:
        BoardDevices(None, None, None, None, opener.closers).close()  # type: ignore[arg-type]
        raise
    return BoardDevices(sensors, panel, strip, buzzer, opener.closers, opener.link, opener.deferred)


class _DeviceOpener:
    """Opens a profile's devices one at a time, each in its own step, keeping each one's closer (a failure closes
    all that opened) and, with `later`, what waits for the first frame (`deferred`). Not a dataclass: `play`
    makes it before its first frame."""

    def __init__(self, profile: BoardProfile, clock: Clock, sensors_url: str | None,
                 on_link_event: Callable[[object], None] | None, push: Callable[[object], None] | None, *,
                 keys_only: bool, later: bool) -> None:
        self.profile = profile
        self.clock = clock
        self.sensors_url = sensors_url
        self.on_link_event = on_link_event
        self.push = push
        self.keys_only = keys_only
        self.later = later
        self.closers: list[Callable[[], None]] = []
        self.deferred: list[Callable[[], None]] = []
        self.link: Any = None                 # the Pico's link (a SerialSensorSource), once open
        self._matrix: Any = None              # the territory sensors behind it (a MatrixSensorSource)

    def sensors(self) -> SensorSource | None:
        """The territory sensors: now, or, when the Pi drives the strip itself and they may wait, after the first
        frame: that frame needs no sensor, so the link (its import, the port, the firmware's answer) or the GPIO
        sensors open after it, before the buttons."""
        if self.later and not self.keys_only and self.profile.strip.driver is not StripDriver.PICO:
            from conquista.devices.deferred import DeferredSensors

            late_sensors = DeferredSensors(lambda: _opened(self._open_sensors()))
            self.deferred.append(late_sensors.open)
            self.closers.append(late_sensors.close)
            return late_sensors
        return self._open_sensors()

    def _open_sensors(self) -> SensorSource | None:
        """The link to the Pico (when the profile uses it) and the territory sensors behind it or on GPIO."""
        profile = self.profile
        if self.keys_only or profile.sensors.kind is SensorKind.SERIAL or profile.strip.driver is StripDriver.PICO:
            self._open_link()
        sensors: SensorSource | None
        if self.keys_only:
            return None
        if profile.sensors.kind is SensorKind.SERIAL:
            from conquista.devices.matrix import MatrixSensorSource

            sensors = self._matrix = MatrixSensorSource(
                self.link, profile, on_other=self.push if self.push is not None else self.on_link_event)
        else:
            from conquista.devices.gpio import GpioSensorSource

            sensors = GpioSensorSource(profile, self.clock)
        self.closers.append(sensors.close)
        return sensors

    def _open_link(self) -> None:
        from conquista.link.source import SerialSensorSource

        # Pushed: the link's reader hands each event to the matrix, which maps it and pushes it on.
        link = SerialSensorSource(self.sensors_url, clock=self.clock.now,
                                  on_event=None if self.push is None else self._to_matrix)
        link.start()
        self.closers.append(link.close)
        self.link = link

    def _to_matrix(self, event: object) -> None:
        if self._matrix is not None:   # none before the matrix opens, nor for the raw keys
            self._matrix.feed(event)

    def panel(self) -> ButtonPanel:
        panel: ButtonPanel
        if self.later:
            from conquista.devices.deferred import DeferredPanel

            late_panel = DeferredPanel(lambda: _gpio_panel(self.profile, self.clock))
            self.deferred.append(late_panel.open)
            panel = late_panel
        else:
            panel = _gpio_panel(self.profile, self.clock)
        self.closers.append(panel.close)
        return panel

    def strip(self) -> LedStrip:
        strip: LedStrip
        if self.profile.strip.driver is StripDriver.PICO:
            from conquista.devices.link_strip import LinkStrip

            strip = LinkStrip(self.link, self.profile.strip)
        else:
            from conquista.devices.ws281x import Ws281xStrip

            strip = Ws281xStrip(self.profile.strip)
        self.closers.append(strip.close)
        return strip

    def buzzer(self) -> Buzzer | None:
        pin = self.profile.buzzer_pin
        if self.keys_only or pin is None:
            return None
        buzzer: Buzzer
        if self.later:
            from conquista.devices.deferred import DeferredBuzzer

            late_buzzer = DeferredBuzzer(lambda: _gpio_buzzer(pin))
            self.deferred.append(late_buzzer.open)
            buzzer = late_buzzer
        else:
            buzzer = _gpio_buzzer(pin)
        self.closers.append(buzzer.close)
        return buzzer


def _gpio_panel(profile: BoardProfile, clock: Clock) -> ButtonPanel:
    from conquista.devices.gpio import GpioButtonPanel  # here: play opens it after the first frame

    return GpioButtonPanel(profile, clock)


def _gpio_buzzer(pin: int) -> Buzzer:
    from conquista.devices.gpio import GpioBuzzer

    return GpioBuzzer(pin)


def _opened(sensors: SensorSource | None) -> SensorSource:
    assert sensors is not None, "keys_only opens no sensors, and opens them at once"
    return sensors


def link_fault_handler(referee_of: Callable[[], Referee], clock: Clock) -> Callable[[object], None]:
    """The link's health events become the referee's link fault (kept apart from the host's pause and the
    journal's): the game holds while the link is down. Called on the board's loop."""

    def on_event(event: object) -> None:
        # Imported here: the link's modules are loaded once it opens (after the first frame when it can wait), and
        # only the link sends these events.
        from conquista.link.session import Health, HealthEvent

        if isinstance(event, HealthEvent):
            text = None if event.health is Health.OK else f"sensor link {event.health.value}: {event.reason}"
            referee_of().step(Fault(FaultSource.LINK, text), clock.now())

    return on_event


def run_board(game: Game, profile: BoardProfile, dice: DiceSource, *, sensors_url: str | None = None,
              physical_dice: bool = False, seed: int | None = None,
              should_stop: Callable[[], bool] = lambda: False, journal: GameJournal | None = None,
              on_start: Callable[[Referee], None] | None = None,
              on_step: Callable[[Referee, float], None] | None = None, bots: BotSeats | None = None,
              inbox: BoardInbox | None = None, after_first_frame: Callable[[], None] | None = None,
              devices: BoardDevices | None = None, router: EffectRouter | None = None,
              journal_later: JournalToOpen | None = None) -> Referee:
    """Referee `game` on the real board until `should_stop()` or the players switch it off (`referee.power_off`:
    the journal is closed, then the LEDs go dark; the caller runs the shutdown command). Returns the referee.
    With a journal every action is on disk before the frame that shows it; `on_start` may put a question to the
    table (resume?) or offer the set-up menu; `on_step` runs on this loop after each pass (the web app's phones act
    and their views are published from here); `bots` play their seats with gestures made on this loop. The loop
    is event-driven (app/board_loop.py): whatever puts into `inbox` (the devices, and the web app's `wake`) wakes
    it at once. `after_first_frame` runs once the first frame is on the strip (the web app starts then: the
    board's menu or resumed game does not wait for it). `devices`: the board's devices already opened with
    `push=inbox.put` (`play` opens them first, so that a missing one is the first thing said); they are closed
    here as the ones opened here are. `router`: where the referee's effects leave (app/routing.py); the caller
    may hang its decisions and its phones on it. `journal_later` (instead of `journal`): the journal opened once
    the first frame shows, before anything can be applied (`play --new`: no saved game decides that frame); its
    `open()` may already have been called by `after_first_frame` (it must return the same journal)."""
    clock = MonotonicClock()
    inbox = inbox if inbox is not None else BoardInbox()
    # Health events are queued like taps and handled on the loop, so the table exists by then.
    built: list[Referee] = []
    on_link = link_fault_handler(lambda: built[0], clock)
    if devices is None:
        devices = open_devices(profile, clock, sensors_url, push=inbox.put)
    sounds: CuePlayer | None = None
    try:
        from conquista.app.sounds import CuePlayer

        sounds = CuePlayer(devices.buzzer, muted=profile.buzzer_muted)
        table = build_table(game, profile, dice, devices.strip, physical_dice=physical_dice, journal=journal,
                            sounds=sounds, bots=bots, router=router,
                            settings_beside=journal_later.path if journal_later is not None else None)
        built.append(table.referee)
        if on_start is not None:
            on_start(table.referee)
        loop = BoardLoop(table.runner, clock, inbox, on_step=on_step, on_other=on_link)
        if journal_later is None:
            if after_first_frame is not None or devices.deferred:
                loop.pass_once()        # the first frame
        else:
            # The first frame straight from the scene: no input taken, no time-out, no bot's move, so nothing can
            # be applied before the journal follows the game (below, before the loop takes its first input).
            table.runner.show_if_changed(clock.now())
        if after_first_frame is not None:
            after_first_frame()         # it may open the journal and the waiting devices itself (play: once its
                                        # web app serves, so that a phone's first page does not wait for them)
        if journal_later is not None:
            journal = journal_later.open()
            # Journals the game dealt, before anything is applied.
            follow_journal(table.referee, journal, table.router, bots)
        devices.open_deferred()         # the sensors, buttons and buzzer, if they waited for the first frame
        loop.run(should_stop)
        if table.referee.view().power_off:
            if journal is not None:
                journal.close()        # the game on disk first: the power may go as soon as the LEDs are dark
            devices.strip.show(bytes(3 * devices.strip.length))
    finally:
        if sounds is not None:
            sounds.close()
        devices.close()
    return table.referee
