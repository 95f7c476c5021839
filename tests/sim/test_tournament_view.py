"""The tournament ending at the terminal: the status shows its clock, then its round, and each seat's points."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from rich.console import Console

from conquista_sim import SimulatedTable
from conquista_sim.board_view import render

TOURNAMENT = str(Path(__file__).resolve().parents[2] / "docs" / "rulesets" / "italian-tournament.toml")


def shown(table: SimulatedTable) -> str:
    console = Console(width=200, height=60, record=True, color_system=None)
    console.print(render(table, 200, 60))
    return console.export_text()


def test_the_terminal_shows_the_clock_the_round_and_the_points() -> None:
    with SimulatedTable(TOURNAMENT, 3, seed=1) as table:
        table.advance(0.5)      # the clock starts at the board's first tick of the game ...
        table.advance(1.0)      # ... and counts from there
        status = table.status().tournament
        assert status is not None
        text = shown(table)
        points = ", ".join(f"{c} {p}" for c, p in zip(table.game.rules.colours, status.points, strict=False))
        assert f"tournament clock 1:29:59 · points: {points}" in text
        table.referee.tournament = dataclasses.replace(table.referee.tournament, before=90 * 60.0)   # time up
        table.advance(0.1)
        text = shown(table)
        assert "tournament: the second-to-last round · points:" in text
        assert "the tournament clock runs out: round 1 is the second-to-last" in text
    with SimulatedTable("italian", 3, seed=1) as table:
        assert "tournament" not in shown(table)
