"""The simulator's fakes: the clock, the in-memory strip, and a whole FakeBoard's lifetime."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquista.devices.events import ButtonEvent, Edge, PanelButton, SensorEvent
from conquista.devices.frames import LedLayout
from conquista.hardware.profile import BoardProfile, load_profile
from conquista_sim.devices import FakeBoard, FakeClock, MemoryStrip


def test_fake_clock_moves_only_forward() -> None:
    clock = FakeClock(2.0)
    clock.advance(0.5)
    assert clock.now() == 2.5
    with pytest.raises(ValueError):
        clock.advance(-0.1)


def test_memory_strip_records_requested_and_emitted_frames(profile: BoardProfile) -> None:
    strip = MemoryStrip.from_profile(profile)
    assert strip.last_frame is None
    layout = LedLayout(profile)
    frame = layout.blank()
    layout.paint_territory(frame, 0, (200, 100, 0))
    strip.show(frame)
    assert strip.last_requested == bytes(frame)
    assert strip.last_frame is not None
    # Brightness 128 of 255 in the reference profile.
    assert layout.territory_color(strip.last_frame, 0) == (100, 50, 0)
    assert strip.shown == 1


def test_memory_strip_keeps_a_bounded_history(profile: BoardProfile) -> None:
    strip = MemoryStrip.from_profile(profile, keep=3)
    for value in range(5):
        strip.show(bytes([value]) * 450)
    assert len(strip.frames) == 3 and strip.shown == 5
    assert strip.last_requested == bytes([4]) * 450


def test_memory_strip_refuses_wrong_length_and_use_after_close(profile: BoardProfile) -> None:
    strip = MemoryStrip.from_profile(profile)
    with pytest.raises(ValueError):
        strip.show(bytes(3))
    strip.close()
    with pytest.raises(RuntimeError):
        strip.show(bytes(450))


_PROFILE = load_profile()


@settings(max_examples=50)
@given(st.binary(min_size=450, max_size=450))
def test_every_recorded_frame_is_within_the_supply_budget(frame: bytes) -> None:
    strip = MemoryStrip.from_profile(_PROFILE)
    strip.show(frame)
    assert strip.last_frame is not None
    assert strip.budget.current_ma(strip.last_frame) <= _PROFILE.strip.supply_ma


def test_board_taps_through_the_matrix(board: FakeBoard, profile: BoardProfile) -> None:
    japan = profile.game_map.index("japan")
    board.press_territory(japan)
    board.clock.advance(0.05)
    board.release_territory(japan)
    assert board.sensors.poll() == [SensorEvent(japan, Edge.PRESS, 100.0), SensorEvent(japan, Edge.RELEASE, 100.05)]
    assert board.keys is not None and board.keys.down == set()


def test_closed_board_stops_reporting(profile: BoardProfile) -> None:
    board = FakeBoard(profile)
    board.press(PanelButton.ROLL)
    board.release(PanelButton.ROLL)
    board.close()
    board.close()  # idempotent
    assert board.strip.closed
    board.panel.poll()
    board.press(PanelButton.ROLL)  # the devices are closed: nothing listens to the pin any more
    assert board.panel.poll() == []


def test_a_deferred_board_opens_its_pins_when_a_hand_first_moves_one(profile: BoardProfile) -> None:
    with FakeBoard(profile, FakeClock(100.0), defer_gpio=True) as board:
        got: list[object] = []
        board.panel.set_listener(got.append)      # handed on to the real panel when it opens
        assert board.buzzer is not None
        board.buzzer.play(440.0)                  # asked for before the pins exist: it sounds once they do
        board.press(PanelButton.ROLL)
        assert got == [ButtonEvent(PanelButton.ROLL, Edge.PRESS, 100.0)]
        assert board.buzzer_frequency == pytest.approx(440.0)
        board.turn(1)
        assert len(got) == 2


def test_a_deferred_board_closed_unopened_closes_cleanly(profile: BoardProfile) -> None:
    board = FakeBoard(profile, defer_gpio=True)
    board.close()
    assert board.strip.closed and board.panel.poll() == []
