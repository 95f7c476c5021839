"""The phase groups named beside Phase match what the engine allows."""

from __future__ import annotations

import random

import pytest

from conquista.dice.chance import new_game
from conquista.rules.actions import Place
from conquista.rules.events import PLACING_PHASES, Phase
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset


@pytest.mark.parametrize(("rules", "players"), [("italian", 3), ("french-1976-duel", 2)])
def test_armies_are_placed_only_in_the_placing_phases(rules: str, players: int) -> None:
    placed_in: set[Phase] = set()
    for seed in range(2):
        rng = random.Random(seed)
        game = new_game(load_ruleset(rules), load_map(), players, rng)
        for _ in range(1500):
            if game.phase is Phase.OVER:
                break
            legal = game.legal_actions()
            if any(isinstance(action, Place) for action in legal):
                placed_in.add(game.phase)
            game.apply(rng.choice(legal))
    assert placed_in <= PLACING_PHASES
    assert {Phase.SETUP, Phase.REINFORCE} <= placed_in
    if rules == "french-1976-duel":
        assert Phase.NEUTRAL_REINFORCE in placed_in
