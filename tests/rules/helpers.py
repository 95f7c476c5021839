"""Builders for rule tests: a game at a chosen position without playing up to it."""

from __future__ import annotations

import random
from typing import Any

from conquista.rules.actions import Deal
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.mapdata import GameMap, load_map
from conquista.rules.rulesets import load_ruleset

MAP = load_map()


def tid(name: str) -> int:
    return MAP.index(name)


def dealt(rules: str = "italian", players: int = 3, seed: int = 0, **overrides: Any) -> Game:
    ruleset = load_ruleset(rules, overrides or None)
    rng = random.Random(seed)
    order = list(range(MAP.size))
    rng.shuffle(order)
    missions = tuple(ruleset.missions[:players]) if ruleset.objective == "missions" else ()
    return Game(ruleset, MAP, players, Deal(tuple(order), 0, missions))


def position(rules: str = "italian", players: int = 2, owners: dict[str, int] | None = None,
             armies: dict[str, int] | None = None, default_owner: int = 1, current: int = 0,
             phase: Phase = Phase.ATTACK, round_: int = 5, game_map: GameMap = MAP, **overrides: Any) -> Game:
    """A game where every territory belongs to `default_owner` with 1 army, except those listed."""
    game = dealt(rules, players, **overrides)
    for t in range(game_map.size):
        game.owner[t] = default_owner
        game.armies[t] = 1
    for name, seat in (owners or {}).items():
        game.owner[tid(name)] = seat
    for name, count in (armies or {}).items():
        game.armies[tid(name)] = count
    game.territory_count = [game.owner.count(p) for p in range(players)]
    game.reserve = [0] * players
    game.current = current
    game.phase = phase
    game.round = round_
    game.turn = round_ * players
    game.pool = 0
    game.placed_total = sum(game.armies)
    game.lost_total = 0
    return game
