"""Issue 22 §4: `simulate` pauses the cyclic garbage collector while its games run. That is safe only because a game
makes no reference cycles: each is freed by reference counting. Both are checked here, for every kind of bot."""

from __future__ import annotations

import gc

import pytest

from conquista.bots.simulate import simulate
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset


@pytest.mark.parametrize(("rules", "players", "bots"), [
    ("classic", 4, ["greedy"]), ("italian", 3, ["greedy", "random"]), ("french-1976-duel", 2, ["planner", "greedy"]),
    ("lamorisse-1954", 5, ["greedy"]),
])
def test_games_make_no_reference_cycles(rules: str, players: int, bots: list[str]) -> None:
    gc.collect()
    simulate(load_ruleset(rules), load_map(), players, 3, 1, bots, turn_cap=200)
    assert gc.collect() == 0


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_it_was(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        simulate(load_ruleset("classic"), load_map(), 2, 1, 1, ["greedy"])
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
