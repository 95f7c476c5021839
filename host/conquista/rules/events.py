"""Typed events `Game.apply()` returns: what the table shows (lights, dice, blinks) and what a log view prints.

Events are immutable named tuples, not frozen dataclasses: a simulated game creates one per battle roll, and a tuple
is built several times faster. Equality still includes the type (`_typed`), so an ArmiesMoved never equals the
ArmiesPlaced with the same numbers, nor a plain tuple.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Final, NamedTuple, TypeVar

_E = TypeVar("_E")


def _typed(cls: type[_E]) -> type[_E]:
    def __eq__(self: tuple[Any, ...], other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)

    def __ne__(self: tuple[Any, ...], other: object) -> bool:
        return not __eq__(self, other)

    def __hash__(self: tuple[Any, ...]) -> int:
        return hash((type(self).__name__, *self))

    cls.__eq__ = __eq__  # type: ignore[assignment,method-assign]
    cls.__ne__ = __ne__  # type: ignore[assignment,method-assign]
    cls.__hash__ = __hash__  # type: ignore[assignment,method-assign]
    return cls


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
    # The neutral army (french-1976-duel): the current player's opponent acts for it, inside the current turn.
    NEUTRAL_REINFORCE = "neutral_reinforce"  # the opponent places the neutral army's reinforcements
    NEUTRAL_ATTACK = "neutral_attack"        # the opponent attacks the current player with neutral armies
    # The tournament ending (tournament_ending): chance, the closing roll of two dice at the end of a turn.
    CLOSING_ROLL = "closing_roll"


# The phases in which armies are placed: the player's own (the set-up, reinforcements, after an elimination trade)
# or, in the duel, the neutral army's, placed by the current player's opponent. The referee takes a tap as a
# placement in them and the ring and the phones show the armies left to place.
PLACING_PHASES = frozenset({Phase.SETUP, Phase.REINFORCE, Phase.ELIMINATION_TRADE, Phase.NEUTRAL_REINFORCE})

# The phases the rules' hottest paths test (combat.py, position.py), as plain names bound once: a member read from
# its Enum class (`Phase.ATTACK`) goes through EnumType's __getattr__ hook, which costs more (about 60 ns in
# CPython 3.11) than the rest of a roll's check; an imported name is one global read.
PHASE_SETUP: Final = Phase.SETUP
PHASE_REINFORCE: Final = Phase.REINFORCE
PHASE_ATTACK: Final = Phase.ATTACK
PHASE_DEFEND: Final = Phase.DEFEND
PHASE_ROLL: Final = Phase.ROLL
PHASE_OCCUPY: Final = Phase.OCCUPY
PHASE_ELIMINATION_TRADE: Final = Phase.ELIMINATION_TRADE
PHASE_DRAW: Final = Phase.DRAW
PHASE_OVER: Final = Phase.OVER
PHASE_NEUTRAL_REINFORCE: Final = Phase.NEUTRAL_REINFORCE
PHASE_NEUTRAL_ATTACK: Final = Phase.NEUTRAL_ATTACK
PHASE_CLOSING_ROLL: Final = Phase.CLOSING_ROLL
PHASE_FORTIFY: Final = Phase.FORTIFY


@_typed
class ArmiesPlaced(NamedTuple):
    player: int
    territory: int
    count: int  # type: ignore[assignment]  # shadows tuple.count, which no caller needs
    fleet: bool = False  # lamorisse-1954: the player took fleets instead of armies


@_typed
class CardsTraded(NamedTuple):
    player: int
    cards: tuple[int, ...]
    kind: str
    armies: int          # the set's value
    bonus: int = 0       # territory bonus added to the pool with it (placed on the territory: ArmiesPlaced events)


@_typed
class BattleRolled(NamedTuple):
    source: int
    target: int
    attack: tuple[int, ...]
    defend: tuple[int, ...]
    attacker_losses: int
    defender_losses: int
    # lamorisse-1954: which side's unit was a fleet (a fleet's die counts less against an army)
    attack_fleet: bool = False
    defend_fleet: bool = False


@_typed
class TerritoryConquered(NamedTuple):
    territory: int
    source: int
    player: int
    previous_owner: int
    armies_moved: int


@_typed
class PlayerEliminated(NamedTuple):
    player: int
    by: int
    cards_taken: int


@_typed
class ArmiesMoved(NamedTuple):
    source: int
    target: int
    count: int  # type: ignore[assignment]  # shadows tuple.count, which no caller needs


@_typed
class CardDrawn(NamedTuple):
    player: int
    card: int


@_typed
class DeckReshuffled(NamedTuple):
    cards: int


@_typed
class PhaseStarted(NamedTuple):
    player: int
    phase: Phase


@_typed
class TurnStarted(NamedTuple):
    player: int
    turn: int
    round: int
    reinforcements: int


@_typed
class NeutralReinforcements(NamedTuple):
    """The neutral army receives `armies`, which the seat `player` (the current player's opponent) places."""

    player: int
    armies: int


@_typed
class NeutralArmyDefeated(NamedTuple):
    """The neutral army's last territory fell to `player`: the game goes on as a plain duel."""

    player: int


@_typed
class GameOver(NamedTuple):
    winner: int
    reason: str


@_typed
class PlayerLeft(NamedTuple):
    player: int


@_typed
class TurnTimedOut(NamedTuple):
    player: int


@_typed
class NeutralStepsEnded(NamedTuple):
    """The neutral army's steps of this turn end without its commander, `player` (the current player's opponent):
    they left the game, or (`timed_out`) their time for the neutral steps ran out. Unplaced neutral reinforcements
    were spread over its border, a pending neutral move-in kept its minimum, its attacks are over."""

    player: int
    timed_out: bool


@_typed
class TournamentClockOut(NamedTuple):
    """The tournament clock ran out in `round`: it is the second-to-last round, the next one the last."""

    round: int


@_typed
class ClosingRolled(NamedTuple):
    """The closing roll after `player`'s turn: `dice` against `closing_number`; `ends` when their total is at or
    under it (the game ends by points)."""

    player: int
    dice: tuple[int, ...]
    closing_number: int
    ends: bool


@_typed
class TieBreakRound(NamedTuple):
    """The game ended by the dice with `players` tied on points and armies: they play one more round, alone."""

    players: tuple[int, ...]


@_typed
class TerritoryDealt(NamedTuple):
    """A territory dealt during the game (the progressive deal of lamorisse-1954), with one army on it."""

    player: int
    territory: int


Event = (ArmiesPlaced | CardsTraded | BattleRolled | TerritoryConquered | PlayerEliminated | ArmiesMoved
         | CardDrawn | DeckReshuffled | PhaseStarted | TurnStarted | NeutralReinforcements | NeutralArmyDefeated
         | GameOver | PlayerLeft | TurnTimedOut | NeutralStepsEnded | TournamentClockOut | ClosingRolled
         | TieBreakRound | TerritoryDealt)
