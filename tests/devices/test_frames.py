"""LedLayout paints and reads by meaning; the packed colours match rpi-ws281x's 0xRRGGBB."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquista.devices.frames import DIE_FACES, DiceSide, LedLayout, fill, to_packed_colors
from conquista.hardware.profile import BoardProfile


def test_paint_territory_lights_all_its_leds_and_nothing_else(profile: BoardProfile) -> None:
    layout = LedLayout(profile)
    frame = layout.blank()
    greenland = profile.game_map.index("greenland")
    layout.paint_territory(frame, greenland, (1, 2, 3))
    assert layout.territory_colors(frame, greenland) == ((1, 2, 3),) * len(profile.territory_leds[greenland])
    lit = {i // 3 for i, v in enumerate(frame) if v}
    assert lit == set(profile.territory_leds[greenland])


@pytest.mark.parametrize("side", list(DiceSide))
@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_die_faces_read_back(profile: BoardProfile, side: DiceSide, value: int) -> None:
    layout = LedLayout(profile)
    frame = layout.blank()
    layout.paint_die(frame, side, 2, value, (255, 0, 0))
    assert layout.die_value(frame, side, 2) == value
    assert layout.die_value(frame, side, 0) is None
    assert sum(1 for v in frame if v) == len(DIE_FACES[value - 1])


def test_die_off_and_bad_value(profile: BoardProfile) -> None:
    layout = LedLayout(profile)
    frame = layout.blank()
    layout.paint_die(frame, DiceSide.ATTACK, 0, 6, (9, 9, 9))
    layout.paint_die(frame, DiceSide.ATTACK, 0, None, (9, 9, 9))
    assert not any(frame)
    with pytest.raises(ValueError):
        layout.paint_die(frame, DiceSide.ATTACK, 0, 7, (9, 9, 9))


def test_ring(profile: BoardProfile) -> None:
    layout = LedLayout(profile)
    frame = layout.blank()
    layout.paint_ring(frame, layout.ring_length - 1, (0, 0, 7))
    assert layout.ring_color(frame, layout.ring_length - 1) == (0, 0, 7)
    assert frame[3 * profile.ring[-1] + 2] == 7


def test_fill() -> None:
    frame = bytearray(9)
    fill(frame, (1, 2, 3))
    assert bytes(frame) == bytes([1, 2, 3] * 3)


@given(st.integers(0, 60).flatmap(lambda n: st.binary(min_size=3 * n, max_size=3 * n)))
def test_packed_colours_are_rrggbb(frame: bytes) -> None:
    expected = [(frame[i] << 16) | (frame[i + 1] << 8) | frame[i + 2] for i in range(0, len(frame), 3)]
    assert to_packed_colors(frame) == expected
