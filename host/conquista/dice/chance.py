"""Drives a game: deals it and answers the engine's chance steps, all from the game's one chance source.

This is the seam between the pure engine and randomness: the engine asks, this module supplies, and everything it
supplies goes into the game log as a chance action.
"""

from __future__ import annotations

import random

from conquista.dice.sources import DiceSource, SeededDice
from conquista.rules.actions import Action, Deal, Draw, Roll
from conquista.rules.choices import Objective
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.mapdata import GameMap
from conquista.rules.rulesets import Ruleset


def random_deal(rules: Ruleset, game_map: GameMap, players: int, source: DiceSource | random.Random) -> Deal:
    """The deal from the chance source (a `random.Random` is taken as seeded dice on that generator)."""
    if isinstance(source, random.Random):
        source = SeededDice(rng=source)
    missions = tuple(rules.missions) if rules.objective is Objective.MISSIONS else ()
    return source.deal(game_map.size, players, missions)


def new_game(rules: Ruleset, game_map: GameMap, players: int, source: DiceSource | random.Random) -> Game:
    return Game(rules, game_map, players, random_deal(rules, game_map, players, source))


def chance_action(game: Game, dice: DiceSource) -> Action:
    """The outcome of the chance step the game is waiting for (a battle roll or a card draw), from the game's chance
    source."""
    if game.phase is Phase.ROLL and game.battle is not None:
        attack, defend = dice.roll(game.battle.attack_dice, game.battle.defend_dice)
        return Roll(attack, defend, dice.name)
    if game.phase is Phase.DRAW:
        pile = game.deck if game.deck else game.discard
        return Draw(pile[dice.draw(len(pile))])
    raise ValueError(f"the game is not waiting for chance (phase {game.phase.value})")
