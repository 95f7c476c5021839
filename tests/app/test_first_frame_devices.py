"""`open_devices(after_first_frame=True)` (issue 22): what the first frame does not need waits for it. The Pico's
link waits when the Pi drives the strip (tests/app/test_board_app.py), and opens at once when the Pico does."""

from __future__ import annotations

import dataclasses

import pytest

from conquista.app.board import open_devices
from conquista.devices.clock import MonotonicClock
from conquista.devices.deferred import DeferredSensors
from conquista.devices.link_strip import LinkStrip
from conquista.devices.matrix import MatrixSensorSource
from conquista.hardware.profile import StripDriver, load_profile
from conquista_sim.pico import SimulatedPico


def test_a_strip_the_pico_drives_opens_the_link_before_the_first_frame() -> None:
    reference = load_profile()
    profile = dataclasses.replace(reference, strip=dataclasses.replace(reference.strip, driver=StripDriver.PICO))
    # A Pico that drives the strip says how many LEDs in its HELLO (issue 37): as many as the profile has.
    pico = SimulatedPico(debounce_ms=5, led_count=reference.strip.length).start()
    devices = open_devices(profile, MonotonicClock(), pico.url, push=lambda event: None, after_first_frame=True)
    try:
        assert isinstance(devices.strip, LinkStrip) and devices.link is not None
        assert isinstance(devices.sensors, MatrixSensorSource)     # opened with the link, not deferred
        assert not isinstance(devices.sensors, DeferredSensors)
    finally:
        devices.close()
        pico.stop()


def test_deferred_sensors_hand_their_listener_on_and_refuse_to_open_once_closed() -> None:
    from conquista.devices.events import Edge, SensorEvent

    class Source:
        def __init__(self) -> None:
            self.listener: object = None
            self.closed = False

        def poll(self) -> list[SensorEvent]:
            return [SensorEvent(3, Edge.PRESS, 1.0)]

        def set_listener(self, listener: object) -> None:
            self.listener = listener

        def close(self) -> None:
            self.closed = True

    source = Source()
    late = DeferredSensors(lambda: source)
    got: list[SensorEvent] = []
    late.set_listener(got.append)
    assert late.poll() == [] and not late.opened
    late.open()
    assert late.opened and source.listener == got.append and late.poll() == [SensorEvent(3, Edge.PRESS, 1.0)]
    late.close()
    assert source.closed
    never = DeferredSensors(lambda: source)
    never.close()
    with pytest.raises(RuntimeError, match="the territory sensors were closed before they were opened"):
        never.open()
