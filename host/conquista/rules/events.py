"""Typed events `Game.apply()` returns: what the table shows (lights, dice, blinks) and what a log view prints."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Phase(Enum):
    SETUP = "setup"                  # initial placement, in rotation
    REINFORCE = "reinforce"
    ATTACK = "attack"
    DEFEND = "defend"                # the defender chooses dice (automatic defence off)
    ROLL = "roll"                    # chance: a battle roll is awaited
    OCCUPY = "occupy"                # after a conquest: how many armies move in
    ELIMINATION_TRADE = "elimination_trade"  # after taking a beaten player's cards
    FORTIFY = "fortify"
    DRAW = "draw"                    # chance: the end-of-turn card is awaited
    OVER = "over"


@dataclass(frozen=True, slots=True)
class ArmiesPlaced:
    player: int
    territory: int
    count: int


@dataclass(frozen=True, slots=True)
class CardsTraded:
    player: int
    cards: tuple[int, ...]
    kind: str
    armies: int          # the set's value
    bonus: int = 0       # territory bonus added to the pool with it (placed on the territory: ArmiesPlaced events)


@dataclass(frozen=True, slots=True)
class BattleRolled:
    source: int
    target: int
    attack: tuple[int, ...]
    defend: tuple[int, ...]
    attacker_losses: int
    defender_losses: int


@dataclass(frozen=True, slots=True)
class TerritoryConquered:
    territory: int
    source: int
    player: int
    previous_owner: int
    armies_moved: int


@dataclass(frozen=True, slots=True)
class PlayerEliminated:
    player: int
    by: int
    cards_taken: int


@dataclass(frozen=True, slots=True)
class ArmiesMoved:
    source: int
    target: int
    count: int


@dataclass(frozen=True, slots=True)
class CardDrawn:
    player: int
    card: int


@dataclass(frozen=True, slots=True)
class DeckReshuffled:
    cards: int


@dataclass(frozen=True, slots=True)
class PhaseStarted:
    player: int
    phase: Phase


@dataclass(frozen=True, slots=True)
class TurnStarted:
    player: int
    turn: int
    round: int
    reinforcements: int


@dataclass(frozen=True, slots=True)
class GameOver:
    winner: int
    reason: str


Event = (ArmiesPlaced | CardsTraded | BattleRolled | TerritoryConquered | PlayerEliminated | ArmiesMoved
         | CardDrawn | DeckReshuffled | PhaseStarted | TurnStarted | GameOver)
