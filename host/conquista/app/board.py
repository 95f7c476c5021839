"""The composition root of a real board: builds the devices a board profile describes and runs the referee.

This is the only place (with firmware/main.py) where real hardware is opened. A missing device is a one-line
error that says what to do; there is no fallback to the simulator.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conquista.app.build import build_table
from conquista.devices.clock import MonotonicClock
from conquista.devices.interfaces import ButtonPanel, Buzzer, Clock, LedStrip, SensorSource
from conquista.dice.sources import DiceSource
from conquista.hardware.profile import BoardProfile, SensorKind, StripDriver
from conquista.journal import GameJournal
from conquista.rules.engine import Game
from conquista.table.bot_seats import BotSeats
from conquista.table.referee import Referee

FRAME_PERIOD_S = 1 / 50


@dataclass
class BoardDevices:
    sensors: SensorSource
    panel: ButtonPanel
    strip: LedStrip
    buzzer: Buzzer | None
    closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        # Close in reverse order of opening, and keep going if one fails: the LEDs must still go dark.
        for close in reversed(self.closers):
            with contextlib.suppress(Exception):
                close()


def open_devices(profile: BoardProfile, clock: Clock, sensors_url: str | None = None,
                 on_link_event: Callable[[object], None] | None = None) -> BoardDevices:
    """Open every device of the profile; on any failure close what was opened and re-raise the one-line error."""
    from conquista.devices.gpio import GpioButtonPanel, GpioBuzzer, GpioSensorSource
    from conquista.devices.matrix import MatrixSensorSource

    closers: list[Callable[[], None]] = []
    try:
        link: Any = None
        if profile.sensors.kind is SensorKind.SERIAL or profile.strip.driver is StripDriver.PICO:
            from conquista.link.source import SerialSensorSource

            link = SerialSensorSource(sensors_url, clock=clock.now)
            link.start()
            closers.append(link.close)
        sensors: SensorSource
        if profile.sensors.kind is SensorKind.SERIAL:
            sensors = MatrixSensorSource(link, profile, on_other=on_link_event)
        else:
            sensors = GpioSensorSource(profile, clock)
        closers.append(sensors.close)
        panel = GpioButtonPanel(profile, clock)
        closers.append(panel.close)
        strip: LedStrip
        if profile.strip.driver is StripDriver.PICO:
            from conquista.devices.link_strip import LinkStrip

            strip = LinkStrip(link, profile.strip)
        else:
            from conquista.devices.ws281x import Ws281xStrip

            strip = Ws281xStrip(profile.strip)
        closers.append(strip.close)
        buzzer = GpioBuzzer.from_profile(profile)
        if buzzer is not None:
            closers.append(buzzer.close)
    except BaseException:
        BoardDevices(None, None, None, None, closers).close()  # type: ignore[arg-type]
        raise
    return BoardDevices(sensors, panel, strip, buzzer, closers)


def link_fault_handler(referee_of: Callable[[], Referee]) -> Callable[[object], None]:
    """The link's health events become the referee's fault state: the game holds while the link is down."""
    from conquista.link.session import Health, HealthEvent

    def on_event(event: object) -> None:
        if isinstance(event, HealthEvent):
            referee_of().fault = "" if event.health is Health.OK else f"sensor link {event.health.value}: " \
                                                                       f"{event.reason}"

    return on_event


def run_board(game: Game, profile: BoardProfile, dice: DiceSource, *, sensors_url: str | None = None,
              physical_dice: bool = False, seed: int | None = None,
              should_stop: Callable[[], bool] = lambda: False, journal: GameJournal | None = None,
              on_start: Callable[[Referee], None] | None = None,
              on_step: Callable[[Referee, float], None] | None = None,
              bots: BotSeats | None = None) -> Referee:
    """Referee `game` on the real board until `should_stop()`; returns the referee. With a journal every action
    is on disk before the frame that shows it; `on_start` may put a question to the table (resume?); `on_step`
    runs on this loop after each pass (the web app's phones act and their views are published from here); `bots`
    play their seats from this loop too, one gesture at a time."""
    clock = MonotonicClock()
    # The link reports its health only when polled, from the loop below, so the table exists by then.
    built: list[Referee] = []
    devices = open_devices(profile, clock, sensors_url, link_fault_handler(lambda: built[0]))
    sounds: CuePlayer | None = None
    try:
        from conquista.app.sounds import CuePlayer

        sounds = CuePlayer(devices.buzzer, muted=profile.buzzer_muted)
        table = build_table(game, profile, dice, devices.strip, physical_dice=physical_dice, journal=journal,
                            sounds=sounds)
        built.append(table.referee)
        if on_start is not None:
            on_start(table.referee)
        while not should_stop():
            started = clock.now()
            table.runner.step(devices.sensors, devices.panel, clock)
            if bots is not None:
                bots.step(table.referee, clock.now())
            if on_step is not None:
                on_step(table.referee, clock.now())
            spare = FRAME_PERIOD_S - (clock.now() - started)
            if spare > 0:
                time.sleep(spare)
    finally:
        if sounds is not None:
            sounds.close()
        devices.close()
    return table.referee
