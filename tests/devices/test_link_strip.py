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


@pytest.mark.parametrize(("order", "wire"), [("GRB", (0, 255, 0)), ("RGB", (255, 0, 0)), ("BRG", (0, 0, 255)),
                                             ("BGR", (0, 0, 255)), ("RBG", (255, 0, 0)), ("GBR", (0, 255, 0))])
def test_color_order_is_honoured_on_the_pico_path(pico_settings: StripSettings, order: str,
                                                  wire: tuple[int, int, int]) -> None:
    """Red sent through the firmware's GRB output: the first byte on the wire is the profile's first colour."""
    settings = dataclasses.replace(pico_settings, color_order=order, brightness=255)
    link = FakeLink()
    LinkStrip(link, settings).show(bytes([255, 0, 0]) + bytes(447))
    r, g, b = link.sent[0][0]
    on_wire = (g, r, b)                       # what cqfw.leds.LedOutput writes for NeoPixel's GRB ORDER
    as_pixel_reads = {order[i]: on_wire[i] for i in range(3)}
    assert (as_pixel_reads["R"], as_pixel_reads["G"], as_pixel_reads["B"]) == (255, 0, 0)
    assert on_wire[order.index("R")] == 255 and wire[0] + wire[1] + wire[2] == 255


class HelloLink(FakeLink):
    def __init__(self, led_count: int | None) -> None:
        super().__init__()
        from conquista.link.messages import Hello

        self.firmware = Hello(0, 1, (0, 2, 0), 6, 7, 10, 1, led_count)


def test_a_firmware_driving_another_number_of_leds_is_refused_in_one_line(pico_settings: StripSettings) -> None:
    with pytest.raises(DeviceError) as refused:
        LinkStrip(HelloLink(0), pico_settings)
    assert str(refused.value) == ("the Pico's firmware drives 0 LEDs (led_count in its config.json) but the profile "
                                  'has strip.length = 150: set "led_count": 150 in firmware/config.json, then run '
                                  "`conquista firmware deploy`")
    LinkStrip(HelloLink(150), pico_settings)          # the same count: fine
    LinkStrip(HelloLink(None), pico_settings)         # a firmware too old to say: not refused
