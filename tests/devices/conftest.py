"""Fixtures for device tests: the reference profile, and fake boards closed after each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conquista.hardware.profile import BoardProfile, load_profile, parse_profile
from conquista_sim.devices import FakeBoard, FakeClock
from tests.hardware.helpers import tiny_gpio_data, tiny_map


@pytest.fixture(scope="session")
def profile() -> BoardProfile:
    return load_profile()


@pytest.fixture(scope="session")
def gpio_profile() -> BoardProfile:
    return parse_profile(tiny_gpio_data(), "<tiny gpio board>", tiny_map())


@pytest.fixture
def board(profile: BoardProfile) -> Iterator[FakeBoard]:
    with FakeBoard(profile, FakeClock(100.0)) as fake:
        yield fake


@pytest.fixture
def gpio_board(gpio_profile: BoardProfile) -> Iterator[FakeBoard]:
    with FakeBoard(gpio_profile, FakeClock(100.0)) as fake:
        yield fake
