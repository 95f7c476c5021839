"""reachable(): the one breadth-first search (map connectivity, fortify paths)."""

from __future__ import annotations

import pytest

from conquista.errors import RulesetError
from conquista.rules.graph import reachable
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

# 0 - 1 - 2 - 3   4 - 5 (two islands)
LINKS = ((1,), (0, 2), (1, 3), (2,), (5,), (4,))


def test_reachable_over_links_includes_the_start_and_stops_at_the_islands_edge() -> None:
    assert reachable(LINKS, 0) == {0, 1, 2, 3}
    assert reachable(LINKS, 5) == {4, 5}


def test_with_colours_only_through_territories_of_the_starts_colour() -> None:
    owner = (0, 0, 1, 0, 0, 0)
    assert reachable(LINKS, 0, owner) == {0, 1}  # 3 is owned too, but 2 (another's) cuts the path
    assert reachable(LINKS, 2, owner) == {2}


def test_the_classic_map_is_one_connected_piece() -> None:
    game_map = load_map()
    assert reachable(game_map.neighbours, 0) == set(range(game_map.size))


def test_one_player_count_check_names_the_range() -> None:
    rules = load_ruleset("classic")
    rules.check_players(2)
    with pytest.raises(RulesetError, match=r"2–6 players, not 7; use --players 2\.\.6$"):
        rules.check_players(7, "; use --players 2..6")
