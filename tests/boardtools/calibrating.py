"""A calibration at a simulated board, stepped by hand: the test is the builder and the board's loop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conquista.boardtools.calibration import Calibration
from conquista.boardtools.calibration_at_board import CalibrationSession
from conquista.hardware.profile import load_profile
from conquista.rules.mapdata import load_map
from conquista_sim.devices import FakeBoard
from conquista_sim.wiring import AutoBuilder, shuffled_profile

MAP = load_map(None)


class SteppedCalibration:
    def __init__(self, tmp_path: Path, *, watch: Any = None, remote: Any = None, seed: int = 3) -> None:
        hidden, _ = shuffled_profile(seed, MAP)
        base = load_profile(None, MAP)
        self.board = FakeBoard(hidden)
        self.builder = AutoBuilder(self.board)
        self.lines: list[str] = []
        self.calibration = Calibration(MAP, base.strip.length, base.sensors.rows * base.sensors.cols)
        assert self.board.keys is not None
        self.session = CalibrationSession(self.calibration, self.board.keys, self.board.panel, self.board.strip,
                                          tmp_path / "board.toml.calibrating", self.lines.append, watch=watch,
                                          remote=remote)
        self.now = 0.0

    def answer(self, times: int = 1) -> None:
        """The builder answers the question asked, as often as asked."""
        for _ in range(times):
            self.now += 1.0
            self.builder.answer(self.session.ask(self.now))  # type: ignore[arg-type]
            self.session.pump(self.now)

    def tap(self, territory: int) -> None:
        self.now += 1.0
        self.board.press_territory(territory)
        self.board.release_territory(territory)
        self.session.pump(self.now)

    def wait(self, seconds: float) -> None:
        """Nothing happens for a while (the board's loop goes round)."""
        self.now += seconds
        self.session.pump(self.now)

    def close(self) -> None:
        self.board.close()
