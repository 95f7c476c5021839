"""Every signal on the board is told apart from every other, as a WS2812B shows it (issue 12)."""

from __future__ import annotations

import itertools

import pytest

from conquista.dice.sources import SeededDice
from conquista.hardware.profile import load_profile
from conquista.rules.events import Phase
from conquista.table.colours import (
    ILLEGAL,
    ILLEGAL_BLINK_PERIOD_S,
    ILLEGAL_BLINKS,
    MIN_BRIGHTNESS,
    MIN_DIFFERENCE,
    OFF,
    PLAYER_RGB,
    SELECT,
    illegal_blink,
    player_rgb,
    selection_pulse,
    signal_colours,
)
from conquista.table.gestures import Tap
from conquista.table.referee import Referee
from tests.rules.helpers import position, tid
from tests.table.led_perception import led_difference

SHIPPED_BRIGHTNESS = load_profile().strip.brightness


def close_pairs(colours: dict[str, tuple[int, int, int]], brightness: int) -> list[tuple[str, str]]:
    return [(a, b) for a, b in itertools.combinations(colours, 2)
            if led_difference(colours[a], colours[b], brightness) < MIN_DIFFERENCE]


def test_the_palette_has_eight_seats_the_neutral_army_and_both_signals() -> None:
    colours = signal_colours()
    assert len(PLAYER_RGB) == 8
    assert len(set(colours.values())) == len(colours) == 11


@pytest.mark.parametrize("brightness", sorted({MIN_BRIGHTNESS, 96, SHIPPED_BRIGHTNESS, 192, 255}))
def test_every_pair_differs_by_at_least_the_minimum(brightness: int) -> None:
    assert close_pairs(signal_colours(), brightness) == []


def test_the_shipped_brightness_is_within_the_range_the_palette_holds_for() -> None:
    assert MIN_BRIGHTNESS <= SHIPPED_BRIGHTNESS <= 255


def test_the_old_palette_fails_the_same_check() -> None:
    # The check can fail: before issue 12 the illegal tap flashed the red player's own red, and the pulse dimmed
    # a colour towards others (white at 10 % is grey).
    old = {"red": (255, 0, 0), "blue": (0, 60, 255), "yellow": (255, 190, 0), "green": (0, 200, 40),
           "purple": (170, 0, 255), "black": (200, 200, 200), "illegal": (255, 0, 0), "dim white": (20, 20, 20)}
    assert close_pairs(old, SHIPPED_BRIGHTNESS) == [("red", "illegal")]


def test_an_illegal_tap_blinks_three_times_then_stops() -> None:
    step = 0.01
    samples = [illegal_blink(i * step) for i in range(int(1.0 / step))]
    shown = [s for s in samples if s is not None]
    assert len(shown) == pytest.approx(ILLEGAL_BLINKS * ILLEGAL_BLINK_PERIOD_S / step, abs=1)
    flashes = sum(1 for before, now in itertools.pairwise([OFF, *shown]) if before == OFF and now == ILLEGAL)
    assert flashes == ILLEGAL_BLINKS
    assert set(shown) == {ILLEGAL, OFF}
    assert illegal_blink(-0.1) is None


def test_the_selection_pulse_swaps_the_owner_colour_with_the_selection_colour() -> None:
    for name, rgb in PLAYER_RGB.items():
        seen = {selection_pulse(rgb, t / 10) for t in range(24)}
        assert seen == {rgb, SELECT}, name


def test_white_is_black_and_unknown_colours_are_named() -> None:
    assert player_rgb("white") == player_rgb("black")
    with pytest.raises(ValueError, match=r"'mauve'.*red"):
        player_rgb("mauve")


def test_the_referee_blinks_an_illegal_tap_and_pulses_a_selection() -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0}, armies={"alaska": 3}, phase=Phase.ATTACK)
    referee = Referee(game, SeededDice(1))
    red = player_rgb(game.rules.colours[0])
    bad = tid("brazil")
    referee.handle(Tap(tid("alaska")), 0.0)
    referee.handle(Tap(bad), 1.0)
    assert [referee.scene(1.0 + age).territories[bad] for age in (0.05, 0.15, 0.25, 0.35, 0.45, 0.55)] == [
        ILLEGAL, OFF, ILLEGAL, OFF, ILLEGAL, OFF]
    assert referee.scene(1.7).territories[bad] == player_rgb(game.rules.colours[game.owner[bad]])
    assert {referee.scene(t / 10).territories[tid("alaska")] for t in range(30, 42)} == {red, SELECT}
