"""The simulated board: fakes that satisfy the devices' interfaces, for tests and for people without a board.

`SimulatedTable` is loaded on first use, so the light modules here (the fake `machine` the firmware tests share,
the simulated Pico) import without the whole table behind them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conquista_sim.table import SimulatedTable

__all__ = ["SimulatedTable"]


def __getattr__(name: str) -> object:
    if name == "SimulatedTable":
        from conquista_sim.table import SimulatedTable

        return SimulatedTable
    raise AttributeError(f"module 'conquista_sim' has no attribute {name!r}")
