"""The current limiter: every limited frame is within budget, a frame within budget is untouched."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquista.devices.current_limit import OutputStage, PowerBudget

frames = st.integers(1, 200).flatmap(lambda n: st.binary(min_size=3 * n, max_size=3 * n))
budgets = st.builds(
    PowerBudget,
    supply_ma=st.floats(1.0, 20_000.0),
    ma_per_channel=st.floats(0.5, 60.0),
    idle_ma_per_led=st.floats(0.0, 2.0),
)


def affordable(budget: PowerBudget, frame: bytes) -> bool:
    """The budget covers the frame's LEDs even when dark (validation guarantees this for a real profile)."""
    return budget.current_ma(bytes(len(frame))) <= budget.supply_ma


@given(frames, budgets)
def test_limited_frame_is_within_budget(frame: bytes, budget: PowerBudget) -> None:
    if not affordable(budget, frame):
        return
    limited = budget.limit(frame)
    assert len(limited) == len(frame)
    assert budget.current_ma(limited) <= budget.supply_ma


@given(frames, budgets)
def test_frame_within_budget_is_unchanged(frame: bytes, budget: PowerBudget) -> None:
    if budget.current_ma(frame) <= budget.supply_ma:
        assert budget.limit(frame) == frame


@given(frames, budgets)
def test_limiting_only_dims_and_keeps_the_order_of_values(frame: bytes, budget: PowerBudget) -> None:
    if not affordable(budget, frame):
        return
    limited = budget.limit(frame)
    assert all(after <= before for before, after in zip(frame, limited, strict=True))
    # Uniform scaling: a brighter channel never ends up darker than a dimmer one.
    pairs = sorted(zip(frame, limited, strict=True))
    assert all(a[1] <= b[1] for a, b in itertools.pairwise(pairs))


def test_white_strip_over_budget_is_scaled_to_it() -> None:
    budget = PowerBudget(supply_ma=3500, ma_per_channel=20, idle_ma_per_led=1)
    white = bytes([255]) * 450  # 150 LEDs: 150 + 150 × 60 = 9150 mA estimated
    assert budget.current_ma(white) == pytest.approx(9150)
    limited = budget.limit(white)
    assert budget.current_ma(limited) <= 3500
    # The budget is used, not wasted: flooring loses less than one unit per byte (450), plus one for the fit.
    assert budget.current_ma(limited) > 3500 - (450 + 1) * 20 / 255


def test_bytearray_input_gives_bytes() -> None:
    budget = PowerBudget(supply_ma=100, ma_per_channel=20, idle_ma_per_led=0)
    assert budget.limit(bytearray(b"\x01\x02\x03")) == b"\x01\x02\x03"
    assert isinstance(budget.limit(bytearray(300 * b"\xff")), bytes)


def test_output_stage_applies_brightness_then_limit() -> None:
    stage = OutputStage(length=2, brightness=128, budget=PowerBudget(10_000, 20, 1))
    assert stage.prepare(bytes([255, 0, 100, 10, 20, 30])) == bytes([128, 0, 50, 5, 10, 15])


def test_output_stage_refuses_a_frame_of_the_wrong_length() -> None:
    stage = OutputStage(length=2, brightness=255, budget=PowerBudget(10_000, 20, 1))
    with pytest.raises(ValueError, match="6 bytes"):
        stage.prepare(bytes(5))


@given(st.binary(min_size=450, max_size=450))
def test_reference_profile_frames_stay_within_its_supply(frame: bytes) -> None:
    from conquista.hardware.profile import load_profile

    strip = load_profile().strip
    stage = OutputStage.from_strip(strip)
    assert stage.budget.current_ma(stage.prepare(frame)) <= strip.supply_ma
