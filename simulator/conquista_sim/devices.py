"""Fake devices: a clock the caller steps, an in-memory LED strip, fake matrix keys, and `FakeBoard`, which runs
the *real* gpiozero adapters of `conquista.devices.gpio` on gpiozero mock pins.

Each FakeBoard owns a private `MockFactory` passed to every device it opens; gpiozero's global
`Device.pin_factory` is never set, so boards built by different tests share no pins and no state. gpiozero's
`Button` runs a hold thread per button: close the board (or use it as a context manager) to stop them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from types import TracebackType
from typing import Any

from conquista.devices.current_limit import OutputStage
from conquista.devices.deferred import DeferredBuzzer, DeferredPanel
from conquista.devices.events import EventQueue, MatrixKeyEvent, PanelButton
from conquista.devices.gpio import GpioButtonPanel, GpioBuzzer, GpioSensorSource
from conquista.devices.interfaces import ButtonPanel, Buzzer, Clock, SensorSource
from conquista.devices.matrix import MatrixSensorSource
from conquista.hardware.profile import BoardProfile, SensorKind, StripSettings


class FakeClock:
    """A monotonic clock that moves only when told to: tests step time instead of sleeping."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"a monotonic clock cannot go back ({seconds} s)")
        self._now += seconds


class MemoryStrip:
    """A `LedStrip` that records frames instead of lighting LEDs.

    `show()` runs the same `OutputStage` (brightness, current limit) as the real strips, so `frames` holds what
    the LEDs would really emit, and `requested` what the caller asked for (the colours it meant). Only the most
    recent `keep` frames of each are kept, so a long simulated session does not grow without bound.
    """

    def __init__(self, settings: StripSettings, *, keep: int = 1000) -> None:
        self._stage = OutputStage.from_strip(settings)
        self.budget = self._stage.budget
        self.frames: deque[bytes] = deque(maxlen=keep)
        self.requested: deque[bytes] = deque(maxlen=keep)
        self.shown = 0
        self.closed = False

    @classmethod
    def from_profile(cls, profile: BoardProfile, *, keep: int = 1000) -> MemoryStrip:
        return cls(profile.strip, keep=keep)

    @property
    def length(self) -> int:
        return self._stage.length

    def show(self, frame: bytes | bytearray) -> None:
        if self.closed:
            raise RuntimeError("show() on a closed strip")
        emitted = self._stage.prepare(frame)
        self.requested.append(bytes(frame))
        self.frames.append(emitted)
        self.shown += 1

    @property
    def last_frame(self) -> bytes | None:
        """The last frame as emitted (after brightness and the current limit), or None before the first show."""
        return self.frames[-1] if self.frames else None

    @property
    def last_requested(self) -> bytes | None:
        """The last frame as the caller passed it."""
        return self.requested[-1] if self.requested else None

    def close(self) -> None:
        self.closed = True


class FakeKeySource:
    """A `PushKeySource` standing in for the Pico link: `press(key)` / `release(key)` as the firmware would report
    them, drained by `drain()` or pushed to a listener."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._queue: EventQueue[MatrixKeyEvent] = EventQueue()
        self.down: set[int] = set()
        self.closed = False

    def press(self, key: int) -> None:
        self.down.add(key)
        self._queue.put(MatrixKeyEvent(key, True, self._clock.now()))

    def release(self, key: int) -> None:
        self.down.discard(key)
        self._queue.put(MatrixKeyEvent(key, False, self._clock.now()))

    def drain(self) -> list[MatrixKeyEvent]:
        return self._queue.poll()

    def set_listener(self, listener: Callable[[object], None] | None) -> None:
        self._queue.set_listener(listener)

    def close(self) -> None:
        self.closed = True


# Quadrature sequences of one detent, as (pin, level) with both pins idle high (pulled up, switches to ground).
_CLOCKWISE = (("a", False), ("b", False), ("a", True), ("b", True))
_COUNTER_CLOCKWISE = (("b", False), ("a", False), ("b", True), ("a", True))


class FakeBoard:
    """Every input and output of a board, faked, built from a board profile.

    Inputs are the real adapters (`GpioButtonPanel`, `GpioSensorSource` or `MatrixSensorSource`, `GpioBuzzer`)
    on mock pins; the methods here move the pins the way a hand on the board would. Outputs are a `MemoryStrip`
    and the buzzer's mock PWM pin. Attributes `panel`, `sensors`, `strip`, `buzzer`, `clock` are what a referee is
    given. `defer_gpio` (the simulated table): gpiozero and the mock pins wait until a hand first moves a pin.
    """

    def __init__(self, profile: BoardProfile, clock: FakeClock | None = None, *, defer_gpio: bool = False) -> None:
        self.profile = profile
        self.clock = clock if clock is not None else FakeClock()
        self._factory: Any = None
        self.keys: FakeKeySource | None = None
        self.strip = MemoryStrip.from_profile(profile)
        self._button_pins = {
            PanelButton.ROLL: profile.buttons.roll,
            PanelButton.CANCEL: profile.buttons.cancel,
            PanelButton.NEXT: profile.buttons.next,
            PanelButton.ENCODER: profile.encoder.push,
        }
        self._closed = False
        self.panel: ButtonPanel
        self.buzzer: Buzzer | None
        self.sensors: SensorSource
        if defer_gpio and profile.sensors.kind is not SensorKind.GPIO:
            # The simulator's first frame (its menu) comes before gpiozero is even imported (about 20 ms of a
            # start): the panel and the buzzer are stand-ins until a hand first moves a pin (`open()`), the way
            # the real board opens them after its first frame. Keys need no pins, so they are there at once.
            self.keys = FakeKeySource(self.clock)
            self.sensors = MatrixSensorSource(self.keys, profile)
            self.panel = DeferredPanel(lambda: GpioButtonPanel(profile, self.clock, pin_factory=self.factory))
            buzzer_pin = profile.buzzer_pin
            self.buzzer = None if buzzer_pin is None else DeferredBuzzer(
                lambda: GpioBuzzer(buzzer_pin, pin_factory=self.factory))
            return
        self.panel = GpioButtonPanel(profile, self.clock, pin_factory=self.factory)
        try:
            if profile.sensors.kind is SensorKind.GPIO:
                self.sensors = GpioSensorSource(profile, self.clock, pin_factory=self.factory)
            else:
                self.keys = FakeKeySource(self.clock)
                self.sensors = MatrixSensorSource(self.keys, profile)
            self.buzzer = GpioBuzzer.from_profile(profile, pin_factory=self.factory)
        except BaseException:
            self.panel.close()
            self.factory.close()
            raise

    @property
    def factory(self) -> Any:
        """The board's private gpiozero `MockFactory` (made on first use)."""
        if self._factory is None:
            from gpiozero.pins.mock import MockFactory, MockPWMPin  # type: ignore[import-untyped]

            # PWM-capable mock pins everywhere, because TonalBuzzer refuses a pin without PWM.
            self._factory = MockFactory(pin_class=MockPWMPin)
        return self._factory

    def open(self) -> None:
        """Open the gpiozero parts a `defer_gpio` board left for later (nothing when they are open or the board
        is closed)."""
        if self._closed:
            return
        if isinstance(self.panel, DeferredPanel):
            self.panel.open()
        if isinstance(self.buzzer, DeferredBuzzer):
            self.buzzer.open()

    def pin(self, gpio: int) -> Any:
        """The mock pin of a BCM GPIO (for tests that want to look at it directly)."""
        self.open()
        return self.factory.pin(gpio)

    # -- hands on the board ------------------------------------------------------------------------------------

    def press(self, button: PanelButton) -> None:
        self.pin(self._button_pins[button]).drive_low()

    def release(self, button: PanelButton) -> None:
        self.pin(self._button_pins[button]).drive_high()

    def turn(self, steps: int) -> None:
        """Turn the encoder `steps` detents: positive clockwise, negative counter-clockwise."""
        pins = {"a": self.pin(self.profile.encoder.a), "b": self.pin(self.profile.encoder.b)}
        sequence = _CLOCKWISE if steps > 0 else _COUNTER_CLOCKWISE
        for _ in range(abs(steps)):
            for name, high in sequence:
                if high:
                    pins[name].drive_high()
                else:
                    pins[name].drive_low()

    def press_territory(self, territory: int) -> None:
        """Push down the sensor of a territory (by map index)."""
        if self.keys is not None:
            self.keys.press(self.profile.sensors.key_of_territory[territory])
        else:
            self.pin(self.profile.sensors.pin_of_territory[territory]).drive_low()

    def release_territory(self, territory: int) -> None:
        if self.keys is not None:
            self.keys.release(self.profile.sensors.key_of_territory[territory])
        else:
            self.pin(self.profile.sensors.pin_of_territory[territory]).drive_high()

    @property
    def buzzer_frequency(self) -> float | None:
        """The frequency on the buzzer's pin now (None when silent or when the board has no buzzer)."""
        if self.profile.buzzer_pin is None:
            return None
        frequency = self.pin(self.profile.buzzer_pin).frequency
        return None if frequency is None else float(frequency)

    # -- lifetime ----------------------------------------------------------------------------------------------

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.panel.close()
        self.sensors.close()
        if self.buzzer is not None:
            self.buzzer.close()
        self.strip.close()
        if self._factory is not None:
            self._factory.close()

    def __enter__(self) -> FakeBoard:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
