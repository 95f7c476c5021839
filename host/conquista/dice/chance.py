"""Drives a game: deals from a random generator and answers the engine's chance steps from a dice source.

This is the seam between the pure engine and randomness: the engine asks, this module supplies, and everything it
supplies goes into the game log as a chance action.
"""

from __future__ import annotations

import random

from conquista.dice.sources import DiceSource
from conquista.rules.actions import Action, Deal, Draw, Roll
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.mapdata import GameMap
from conquista.rules.rulesets import Ruleset


def random_deal(rules: Ruleset, game_map: GameMap, players: int, rng: random.Random) -> Deal:
    order = list(range(game_map.size))
    rng.shuffle(order)
    first = rng.randrange(players)
    missions = tuple(rng.sample(list(rules.missions), players)) if rules.objective == "missions" else ()
    return Deal(tuple(order), first, missions)


def new_game(rules: Ruleset, game_map: GameMap, players: int, rng: random.Random) -> Game:
    return Game(rules, game_map, players, random_deal(rules, game_map, players, rng))


def chance_action(game: Game, dice: DiceSource, rng: random.Random) -> Action:
    """The outcome of the chance step the game is waiting for."""
    if game.phase is Phase.ROLL:
        attack, defend = dice.roll(game.attack_dice, game.defend_dice)
        return Roll(attack, defend, dice.name)
    if game.phase is Phase.DRAW:
        pile = game.deck if game.deck else game.discard
        return Draw(pile[int(rng.random() * len(pile))])
    raise ValueError(f"the game is not waiting for chance (phase {game.phase.value})")
