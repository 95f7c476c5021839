"""Pi GPIO devices through gpiozero: the button panel, the encoder, per-territory sensors and the buzzer.

gpiozero is imported when a device is opened, not when this module is. Every constructor takes `pin_factory`:
None means gpiozero's default (lgpio on a Pi); the simulator passes its own `MockFactory`, so the very same
adapters run on mock pins without touching gpiozero's global `Device.pin_factory`.

gpiozero calls back from its own thread on a real Pi; the callbacks here only stamp the time and queue a typed
event, and the referee drains the queue (`poll`) or takes the events as they come (`set_listener`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from conquista.devices.errors import DeviceError
from conquista.devices.events import (
    ButtonEvent,
    Edge,
    EncoderEvent,
    EventQueue,
    PanelButton,
    PanelEvent,
    SensorEvent,
)
from conquista.devices.interfaces import Clock
from conquista.hardware.profile import BoardProfile, SensorKind

GPIO_HINT = ("run on a Raspberry Pi with gpiozero's lgpio backend (`sudo apt install python3-lgpio`), "
             "check that no other program uses the pin, or use `conquista sim`")


def _gpiozero() -> Any:
    import gpiozero  # type: ignore[import-untyped]  # gpiozero ships no type information

    return gpiozero


@contextmanager
def _opening(what: str, pin: int, opened: list[Any]) -> Iterator[None]:
    """Turn a gpiozero failure into a DeviceError naming the part and the pin; close what was already opened."""
    gz = _gpiozero()
    try:
        # gpiozero warns once per pin backend it fails to load; the DeviceError below says it in one line.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", gz.PinFactoryFallback)
            yield
    except (gz.GPIOZeroError, OSError) as exc:
        for device in reversed(opened):
            device.close()
        opened.clear()
        raise DeviceError(f"{what} on GPIO{pin}: {type(exc).__name__}: {exc}; {GPIO_HINT}") from None


def _seconds(ms: int) -> float | None:
    return ms / 1000.0 if ms else None


class GpioButtonPanel:
    """`ButtonPanel` on gpiozero: ROLL, CANCEL, NEXT and the encoder's push as `Button`s, the encoder's detents
    from `RotaryEncoder`. Long presses are the referee's business (it has the clock and the press times)."""

    def __init__(self, profile: BoardProfile, clock: Clock, *, pin_factory: object | None = None) -> None:
        gz = _gpiozero()
        self._clock = clock
        self._queue: EventQueue[PanelEvent] = EventQueue()
        self._devices: list[Any] = []
        bounce = _seconds(profile.buttons.bounce_ms)
        wiring = (
            (PanelButton.ROLL, profile.buttons.roll),
            (PanelButton.CANCEL, profile.buttons.cancel),
            (PanelButton.NEXT, profile.buttons.next),
            (PanelButton.ENCODER, profile.encoder.push),
        )
        for button, pin in wiring:
            with _opening(f"{button.value} button", pin, self._devices):
                device = gz.Button(pin, pull_up=True, bounce_time=bounce, pin_factory=pin_factory)
                self._devices.append(device)
                device.when_pressed = partial(self._button, button, Edge.PRESS)
                device.when_released = partial(self._button, button, Edge.RELEASE)
        with _opening("rotary encoder", profile.encoder.a, self._devices):
            # max_steps=0: the encoder only reports detents; the referee keeps the counts.
            encoder = gz.RotaryEncoder(profile.encoder.a, profile.encoder.b, max_steps=0, pin_factory=pin_factory)
            self._devices.append(encoder)
            encoder.when_rotated_clockwise = partial(self._rotated, 1)
            encoder.when_rotated_counter_clockwise = partial(self._rotated, -1)

    def _button(self, button: PanelButton, edge: Edge) -> None:
        self._queue.put(ButtonEvent(button, edge, self._clock.now()))

    def _rotated(self, steps: int) -> None:
        self._queue.put(EncoderEvent(steps, self._clock.now()))

    def poll(self) -> list[PanelEvent]:
        return self._queue.poll()

    def set_listener(self, listener: Callable[[PanelEvent], None] | None) -> None:
        self._queue.set_listener(listener)

    def close(self) -> None:
        # Button runs a hold thread per device; closing stops it and frees the pins for the next owner.
        while self._devices:
            self._devices.pop().close()


class GpioSensorSource:
    """`SensorSource` with one GPIO per territory (a small board without the Pico). A sensor closes to ground,
    so the internal pull-up makes the pin read low while the territory is pressed."""

    def __init__(self, profile: BoardProfile, clock: Clock, *, pin_factory: object | None = None) -> None:
        if profile.sensors.kind is not SensorKind.GPIO:
            raise DeviceError(f"{profile.source}: sensors.source is {profile.sensors.kind.value!r}, so the "
                              "territory sensors come over the serial link, not from Pi GPIOs")
        gz = _gpiozero()
        self._clock = clock
        self._queue: EventQueue[SensorEvent] = EventQueue()
        self._devices: list[Any] = []
        bounce = _seconds(profile.sensors.debounce_ms)
        for territory, pin in enumerate(profile.sensors.pin_of_territory):
            name = profile.game_map.id(territory)
            with _opening(f"sensor of {name!r}", pin, self._devices):
                # DigitalInputDevice rather than Button: no hold thread per territory (42 threads on a Pi Zero).
                device = gz.DigitalInputDevice(pin, pull_up=True, bounce_time=bounce, pin_factory=pin_factory)
                self._devices.append(device)
                device.when_activated = partial(self._changed, territory, Edge.PRESS)
                device.when_deactivated = partial(self._changed, territory, Edge.RELEASE)

    def _changed(self, territory: int, edge: Edge) -> None:
        self._queue.put(SensorEvent(territory, edge, self._clock.now()))

    def poll(self) -> list[SensorEvent]:
        return self._queue.poll()

    def set_listener(self, listener: Callable[[SensorEvent], None] | None) -> None:
        self._queue.set_listener(listener)

    def close(self) -> None:
        while self._devices:
            self._devices.pop().close()


class GpioBuzzer:
    """`Buzzer` on gpiozero's `TonalBuzzer` (a passive piezo on a PWM-capable output).

    The piezo covers three octaves either side of A4 (55 Hz to 3.52 kHz); frequencies outside are clamped to the
    nearest end, because a slightly wrong beep is better than an error in the middle of a game.
    """

    def __init__(self, pin: int, *, pin_factory: object | None = None) -> None:
        gz = _gpiozero()
        self._tone_class = gz.tones.Tone
        opened: list[Any] = []
        with _opening("buzzer", pin, opened):
            self._device: Any = gz.TonalBuzzer(pin, octaves=3, pin_factory=pin_factory)
        self._low = float(self._device.min_tone.frequency)
        self._high = float(self._device.max_tone.frequency)

    @classmethod
    def from_profile(cls, profile: BoardProfile, *, pin_factory: object | None = None) -> GpioBuzzer | None:
        """The profile's buzzer, or None when the board has none."""
        if profile.buzzer_pin is None:
            return None
        return cls(profile.buzzer_pin, pin_factory=pin_factory)

    @property
    def frequency_hz(self) -> float | None:
        """The tone playing now, or None when silent."""
        tone = self._device.tone
        return None if tone is None else float(tone.frequency)

    def play(self, frequency_hz: float) -> None:
        frequency = min(max(frequency_hz, self._low), self._high)
        self._device.play(self._tone_class(frequency=frequency))

    def stop(self) -> None:
        self._device.stop()

    def close(self) -> None:
        self._device.close()
