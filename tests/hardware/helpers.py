"""The reference profile as plain data, to break one thing at a time in validation tests."""

from __future__ import annotations

import copy
import tomllib
from importlib import resources
from typing import Any

from conquista.rules.mapdata import GameMap, parse_map

_TEXT = resources.files("conquista.data.boards").joinpath("classic-42.toml").read_text("utf-8")
_DATA = tomllib.loads(_TEXT)


def reference_data() -> dict[str, Any]:
    return copy.deepcopy(_DATA)


def gpio_data() -> dict[str, Any]:
    """A small-board variant of the reference: every sensor on its own Pi GPIO instead of the matrix.

    The classic map has 42 territories and the header only 26 GPIOs, so this board is only ever validated,
    never opened; FakeBoard tests use `tiny_gpio_data` on a cut-down map instead.
    """
    data = reference_data()
    data["sensors"] = {"source": "gpio", "debounce_ms": 5}
    for entry in data["territories"].values():
        del entry["cell"]
    return data


def tiny_map() -> GameMap:
    """A one-continent prototype map (Oceania): small enough to wire each sensor to its own GPIO."""
    ids = ["indonesia", "new_guinea", "western_australia", "eastern_australia"]
    return parse_map(
        {
            "name": "oceania-prototype",
            "territories": [{"id": tid} for tid in ids],
            "continents": [{"id": "oceania", "bonus": 2, "territories": ids}],
            "links": [{"a": "indonesia", "b": "new_guinea"}, {"a": "indonesia", "b": "western_australia"},
                      {"a": "new_guinea", "b": "eastern_australia"},
                      {"a": "western_australia", "b": "eastern_australia"}],
        },
        "<tiny map>",
    )


def tiny_gpio_data() -> dict[str, Any]:
    """A prototype board for `tiny_map`: 4 territories of 2 LEDs, sensors on GPIO 4, 23, 24, 25, no buzzer."""
    data = reference_data()
    data["name"] = "oceania-prototype"
    data["map"] = "oceania-prototype"
    del data["buzzer"]
    data["sensors"] = {"source": "gpio", "debounce_ms": 5}
    pins = {"indonesia": 4, "new_guinea": 23, "western_australia": 24, "eastern_australia": 25}
    data["territories"] = {tid: {"leds": [2 * i, 2 * i + 1], "pin": pin} for i, (tid, pin) in enumerate(pins.items())}
    return data
