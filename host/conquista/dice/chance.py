"""Drives a game: deals it and answers the engine's chance steps, all from the game's one chance source.

This is the seam between the pure engine and randomness: the engine asks, this module supplies, and everything it
supplies goes into the game log as a chance action. `GameChance` is the source of whichever game a table plays:
each new game gets a fresh source of the chosen kind, a resumed committed game its own stream back.
"""

from __future__ import annotations

import random

from conquista.dice.sources import CommittedDice, DiceKind, DiceSource, SeededDice, make_source
from conquista.errors import SeedError
from conquista.rules.actions import Action, ClosingRoll, Deal, Draw, Roll
from conquista.rules.choices import Objective
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.mapdata import GameMap
from conquista.rules.ruleset import Ruleset


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
        if type(dice) is SeededDice:  # hands back a ready action (simulations: every other action is a roll)
            return dice.roll_action(game.battle.attack_dice, game.battle.defend_dice)
        attack, defend = dice.roll(game.battle.attack_dice, game.battle.defend_dice)
        return Roll(attack, defend, dice.name)
    if game.phase is Phase.DRAW:
        pile = game.deck if game.deck else game.discard
        return Draw(pile[dice.draw(len(pile))])
    if game.phase is Phase.CLOSING_ROLL:  # the tournament ending's two dice
        return ClosingRoll(dice.roll(2, 0)[0], dice.name)
    raise ValueError(f"the game is not waiting for chance (phase {game.phase.value})")


def committed_used(game: Game) -> tuple[int, int]:
    """(committed rolls, card draws) already in the game's log: where its committed stream goes on after a resume.
    Rolls from another source (physical dice typed in) do not advance the stream; every draw does."""
    rolls = draws = 0
    for action in game.log:
        if isinstance(action, Roll | ClosingRoll):  # a tournament's closing roll is one roll of the stream too
            rolls += action.source == CommittedDice.name
        elif isinstance(action, Draw):
            draws += 1
    return rolls, draws


class GameChance:
    """The chance source of the game a table plays, by kind ("os", "seeded", "committed": `--dice`).

    The referee holds this object as its `DiceSource` for the whole session; `new()` gives the next game its own
    source (a committed game a fresh secret seed, a seeded game the seed afresh, so one seed replays one game) and
    `resume()` gives a saved game back its stream. `source` is the current source (e.g. the `CommittedDice` whose
    commitment is shown)."""

    def __init__(self, kind: str, seed: int | str | None = None) -> None:
        self.seed = seed
        self.source: DiceSource = make_source(kind, seed)   # first: it names an unknown kind and the known ones
        self.kind = DiceKind(kind)
        self.name = self.source.name

    def _use(self, source: DiceSource) -> DiceSource:
        self.source, self.name = source, source.name
        return source

    def new(self) -> DiceSource:
        """A fresh source of the chosen kind for a new game (deal it with `new_game(..., chance)`)."""
        return self._use(make_source(self.kind, self.seed))

    def use(self, kind: DiceKind) -> DiceSource:
        """A source of another kind for the game in play (the chosen kind stays for new games)."""
        return self._use(make_source(kind, self.seed))

    def resume_committed(self, game: Game, seed: bytes) -> CommittedDice:
        """Go on with a committed game's own stream: the seed it was committed to, past the draws and rolls its log
        already holds. The deal is re-derived to make sure the seed is this game's."""
        dice = CommittedDice(seed)
        if game.log and dice.deal(game.map.size, game.players, _missions(game)) != game.log[0]:
            raise SeedError("the saved committed seed does not give this game's deal")
        dice.resume(*committed_used(game))
        self._use(dice)
        return dice

    def committed(self) -> CommittedDice | None:
        return self.source if isinstance(self.source, CommittedDice) else None

    def roll(self, attack: int, defend: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return self.source.roll(attack, defend)

    def draw(self, cards: int) -> int:
        return self.source.draw(cards)

    def deal(self, territories: int, players: int, missions: tuple[int, ...]) -> Deal:
        return self.source.deal(territories, players, missions)


def _missions(game: Game) -> tuple[int, ...]:
    return tuple(game.rules.missions) if game.rules.objective is Objective.MISSIONS else ()
