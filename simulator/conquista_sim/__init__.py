"""The simulated board: fakes that satisfy the devices' interfaces, for tests and for people without a board."""

from conquista_sim.table import SimulatedTable

__all__ = ["SimulatedTable"]
