"""The Pico-driven strip: limited frames go to the link as RGB tuples; frames lost while it is down come back."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from conquista.devices.current_limit import OutputStage
from conquista.devices.errors import DeviceError
from conquista.devices.link_strip import LinkStrip
from conquista.hardware.profile import BoardProfile, StripDriver, StripSettings


class FakeLink:
    def __init__(self) -> None:
        self.up = True
        self.sent: list[list[tuple[int, int, int]]] = []

    def show_leds(self, colors: Sequence[tuple[int, int, int]]) -> bool:
        if self.up:
            self.sent.append(list(colors))
        return self.up


@pytest.fixture
def pico_settings(profile: BoardProfile) -> StripSettings:
    return dataclasses.replace(profile.strip, driver=StripDriver.PICO)


def test_frames_are_limited_then_sent_as_tuples(pico_settings: StripSettings) -> None:
    link = FakeLink()
    strip = LinkStrip(link, pico_settings)
    white = bytes([255]) * 450
    strip.show(white)
    stage = OutputStage.from_strip(pico_settings)
    emitted = stage.prepare(white)
    assert link.sent == [[tuple(emitted[i:i + 3]) for i in range(0, 450, 3)]]
    assert stage.budget.current_ma(emitted) <= pico_settings.supply_ma


def test_frame_lost_while_the_link_is_down_is_resent(pico_settings: StripSettings) -> None:
    link = FakeLink()
    strip = LinkStrip(link, pico_settings)
    link.up = False
    strip.show(bytes([20]) * 450)
    assert strip.dropped == 1 and link.sent == []
    assert not strip.resend()
    link.up = True
    assert strip.resend()
    assert link.sent[-1][0] == (10, 10, 10)  # brightness 128/255 of 20


def test_ws281x_profile_is_refused(profile: BoardProfile) -> None:
    with pytest.raises(DeviceError, match="rpi-ws281x"):
        LinkStrip(FakeLink(), profile.strip)
