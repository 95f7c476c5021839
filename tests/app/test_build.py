"""build_table: the one assembly of referee, layout, runner and journal, used by the real and the simulated board."""

from __future__ import annotations

import random
from pathlib import Path

from conquista.app.build import build_table
from conquista.dice.chance import new_game
from conquista.dice.sources import SeededDice
from conquista.hardware.profile import load_profile
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset
from conquista.table.gestures import GestureRecogniser
from conquista.table.referee import Referee
from conquista_sim import SimulatedTable
from conquista_sim.devices import MemoryStrip


def test_the_runner_paints_the_referees_scene_through_the_profiles_layout() -> None:
    game_map = load_map()
    profile = load_profile(None, game_map)
    game = new_game(load_ruleset("classic"), game_map, 3, random.Random(4))
    strip = MemoryStrip.from_profile(profile)
    recogniser = GestureRecogniser(long_press_s=0.5)
    table = build_table(game, profile, SeededDice(seed=4), strip, recogniser=recogniser)
    assert table.referee.game is game and table.runner.referee is table.referee
    assert table.runner.recogniser is recogniser and table.runner.strip is strip
    assert table.layout.ring_length == len(profile.ring) == len(table.referee.scene(0.0).ring)
    table.runner.render(0.0)
    frame = strip.last_requested
    assert frame is not None
    scene = table.referee.scene(0.0)
    assert [table.layout.territory_color(frame, t) for t in range(game_map.size)] == list(scene.territories)


class RecordingJournal:
    def __init__(self) -> None:
        self.attached: list[Referee] = []
        self.path = Path("/nonexistent/games.sqlite3")   # no settings beside it: the standard colours

    def row_times(self) -> list[float]:
        return []

    def hint_counts(self, _game: object) -> tuple[tuple[int, int], ...]:
        return ()

    def table_inputs(self) -> list[object]:
        return []

    def attach(self, referee: Referee) -> None:
        self.attached.append(referee)


def test_a_journal_is_attached_before_the_table_is_handed_out() -> None:
    game_map = load_map()
    profile = load_profile(None, game_map)
    game = new_game(load_ruleset("italian"), game_map, 3, random.Random(2))
    journal = RecordingJournal()
    table = build_table(game, profile, SeededDice(seed=2), MemoryStrip.from_profile(profile),
                        journal=journal)
    assert journal.attached == [table.referee]


def test_the_simulated_table_is_built_by_build_table() -> None:
    with SimulatedTable("classic", 3, seed=1) as sim:
        assert sim.runner.referee is sim.referee and sim.runner.layout is sim.layout
        assert sim.runner.strip is sim.board.strip
