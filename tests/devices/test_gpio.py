"""The real gpiozero adapters, driven through gpiozero's mock pins by FakeBoard."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import gpiozero  # type: ignore[import-untyped]
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin  # type: ignore[import-untyped]

from conquista.devices.errors import DeviceError
from conquista.devices.events import ButtonEvent, Edge, EncoderEvent, PanelButton, PanelEvent, SensorEvent
from conquista.devices.gpio import GpioButtonPanel, GpioBuzzer, GpioSensorSource
from conquista.hardware.profile import BoardProfile
from conquista_sim.devices import FakeBoard, FakeClock


def test_button_press_and_release_carry_the_clock_time(board: FakeBoard) -> None:
    board.press(PanelButton.ROLL)
    board.clock.advance(1.25)
    board.release(PanelButton.ROLL)
    assert board.panel.poll() == [
        ButtonEvent(PanelButton.ROLL, Edge.PRESS, 100.0),
        ButtonEvent(PanelButton.ROLL, Edge.RELEASE, 101.25),
    ]


@pytest.mark.parametrize("button", list(PanelButton))
def test_each_button_is_on_its_profile_pin(board: FakeBoard, profile: BoardProfile, button: PanelButton) -> None:
    pin = {PanelButton.ROLL: profile.buttons.roll, PanelButton.CANCEL: profile.buttons.cancel,
           PanelButton.NEXT: profile.buttons.next, PanelButton.ENCODER: profile.encoder.push}[button]
    board.pin(pin).drive_low()
    assert board.panel.poll() == [ButtonEvent(button, Edge.PRESS, 100.0)]


def test_encoder_detents(board: FakeBoard) -> None:
    board.turn(3)
    board.turn(-2)
    steps = [e.steps for e in board.panel.poll() if isinstance(e, EncoderEvent)]
    assert steps == [1, 1, 1, -1, -1]


def test_encoder_half_turn_is_not_a_step(board: FakeBoard, profile: BoardProfile) -> None:
    # Contact wiggle that goes back before the detent must not count.
    a = board.pin(profile.encoder.a)
    a.drive_low()
    a.drive_high()
    assert board.panel.poll() == []


def test_listener_receives_panel_events_as_they_happen(board: FakeBoard) -> None:
    got: list[PanelEvent] = []
    board.panel.set_listener(got.append)
    board.press(PanelButton.NEXT)
    assert got == [ButtonEvent(PanelButton.NEXT, Edge.PRESS, 100.0)]
    assert board.panel.poll() == []


def test_gpio_sensors(gpio_board: FakeBoard, gpio_profile: BoardProfile) -> None:
    new_guinea = gpio_profile.game_map.index("new_guinea")
    gpio_board.press_territory(new_guinea)
    gpio_board.clock.advance(0.1)
    gpio_board.release_territory(new_guinea)
    assert gpio_board.sensors.poll() == [
        SensorEvent(new_guinea, Edge.PRESS, 100.0),
        SensorEvent(new_guinea, Edge.RELEASE, 100.1),
    ]
    # The pin is the profile's: GPIO 23 for new_guinea in the prototype board.
    gpio_board.pin(23).drive_low()
    assert [e.territory for e in gpio_board.sensors.poll()] == [new_guinea]


def test_gpio_sensor_source_refuses_a_matrix_profile(profile: BoardProfile) -> None:
    with pytest.raises(DeviceError, match="serial link"):
        GpioSensorSource(profile, FakeClock(), pin_factory=MockFactory())


def test_buzzer_plays_and_stops(board: FakeBoard) -> None:
    assert board.buzzer is not None
    board.buzzer.play(880.0)
    assert board.buzzer_frequency == pytest.approx(880.0)
    assert board.buzzer.frequency_hz == pytest.approx(880.0)
    board.buzzer.stop()
    assert board.buzzer_frequency is None


def test_buzzer_clamps_out_of_range_tones(board: FakeBoard) -> None:
    assert board.buzzer is not None
    board.buzzer.play(20_000.0)
    assert board.buzzer_frequency == pytest.approx(3520.0)


def test_board_without_buzzer(gpio_board: FakeBoard) -> None:
    assert gpio_board.buzzer is None
    assert gpio_board.buzzer_frequency is None


def test_fake_boards_leave_gpiozero_global_state_alone(profile: BoardProfile) -> None:
    before = gpiozero.Device.pin_factory
    threads = threading.active_count()
    with FakeBoard(profile) as first, FakeBoard(profile) as second:
        # Two boards on the same GPIO numbers: possible only because each has its own mock factory.
        first.press(PanelButton.ROLL)
        assert second.panel.poll() == []
        assert len(first.panel.poll()) == 1
    assert gpiozero.Device.pin_factory is before
    assert threading.active_count() == threads


def test_pin_already_in_use_is_a_device_error_naming_the_pin(profile: BoardProfile) -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    holder = gpiozero.DigitalInputDevice(profile.buttons.cancel, pin_factory=factory)
    try:
        with pytest.raises(DeviceError) as info:
            GpioButtonPanel(profile, FakeClock(), pin_factory=factory)
        message = str(info.value)
        assert message.startswith(f"cancel button on GPIO{profile.buttons.cancel}: ")
        assert "conquista sim" in message and "\n" not in message
        # The ROLL button opened before the failure was closed again: its pin is free.
        gpiozero.DigitalInputDevice(profile.buttons.roll, pin_factory=factory).close()
    finally:
        holder.close()
        factory.close()


@pytest.fixture
def no_gpio(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """gpiozero on a computer without GPIO: no default pin factory can load."""

    def fail() -> object:
        raise gpiozero.BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    monkeypatch.setattr(gpiozero.Device, "_default_pin_factory", staticmethod(fail))
    yield


@pytest.mark.usefixtures("no_gpio")
def test_no_gpio_on_this_computer_is_a_clear_error(profile: BoardProfile) -> None:
    with pytest.raises(DeviceError) as info:
        GpioButtonPanel(profile, FakeClock())
    message = str(info.value)
    assert f"GPIO{profile.buttons.roll}" in message and "BadPinFactory" in message
    assert "Raspberry Pi" in message and "conquista sim" in message


@pytest.mark.usefixtures("no_gpio")
def test_no_gpio_buzzer_is_a_clear_error(profile: BoardProfile) -> None:
    assert profile.buzzer_pin is not None
    with pytest.raises(DeviceError, match=f"buzzer on GPIO{profile.buzzer_pin}"):
        GpioBuzzer(profile.buzzer_pin)
