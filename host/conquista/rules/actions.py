"""Actions a player (or chance) applies to a game. Territories and cards are indices inside the engine.

Decision actions come from the player to move; `Roll` and `Draw` are chance outcomes supplied by the caller (the
engine never rolls or shuffles), and `Deal` is the chance outcome a game starts from.
"""

from __future__ import annotations

from conquista.rules.records import frozen_record


@frozen_record(slots=True)
class Deal:
    """Territory order dealt round-robin from `first_player`, and each seat's secret mission (if any)."""

    territory_order: tuple[int, ...]
    first_player: int
    missions: tuple[int, ...] = ()


@frozen_record(slots=True)
class Place:
    territory: int
    count: int = 1
    fleet: bool = False  # fleets instead of armies (rulesets with fleets: lamorisse-1954)


@frozen_record(slots=True)
class Trade:
    """Trade three cards. Stored sorted: the order of cards never changes a trade's meaning."""

    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "cards", tuple(sorted(self.cards)))
        except TypeError:
            pass  # not three comparable cards: kept as given, and the engine refuses the trade by name


@frozen_record(slots=True)
class EndPhase:
    pass


@frozen_record(slots=True)
class Attack:
    source: int
    target: int
    dice: int


@frozen_record(slots=True)
class Blitz:
    """Attack roll after roll until the target falls or the source is down to `stop_at`, each roll with `dice`
    dice (the attacker's choice) or fewer when the armies left no longer allow them; `dice` None: the most dice
    (a log written before blitzes took a count of dice replays so)."""

    source: int
    target: int
    stop_at: int = 1
    dice: int | None = None


@frozen_record(slots=True)
class Defend:
    """The defender's choice of dice when automatic defence is off."""

    dice: int


@frozen_record(slots=True)
class Roll:
    """Chance: the dice of one battle roll, in the order rolled, and where they came from."""

    attack: tuple[int, ...]
    defend: tuple[int, ...]
    source: str = "manual"


@frozen_record(slots=True)
class Occupy:
    """Armies that end up in the conquered territory (the minimum already moved in at the conquest)."""

    count: int


@frozen_record(slots=True)
class Fortify:
    source: int
    target: int
    count: int


@frozen_record(slots=True)
class Draw:
    """Chance: the card drawn from the deck at the end of a turn with a conquest."""

    card: int


@frozen_record(slots=True)
class Leave:
    """A table event: `seat` leaves the game. Their armies stay and only defend (with the most dice); their turns
    are skipped; on their own turn the turn ends as at a time-out. Not listed by `legal_actions()`."""

    seat: int


@frozen_record(slots=True)
class TimeOut:
    """A table event: the current player's turn time ran out (the referee owns the clock). Unplaced armies are
    spread over the player's border territories, a pending move-in takes its minimum, and the turn passes. Not
    listed by `legal_actions()`."""


@frozen_record(slots=True)
class ClockOut:
    """A table event: the tournament clock ran out (`tournament_ending`; the referee owns the clock). This round is
    the second-to-last, the next the last. Not listed by `legal_actions()`."""


@frozen_record(slots=True)
class ClosingRoll:
    """Chance: the two dice the board rolls at the end of a turn after the last round of a tournament game (a total
    at or under the closing number ends the game), and where they came from."""

    dice: tuple[int, ...]
    source: str = "manual"


Action = (Deal | Place | Trade | EndPhase | Attack | Blitz | Defend | Roll | Occupy | Fortify | Draw | Leave | TimeOut
          | ClockOut | ClosingRoll)
CHANCE_ACTIONS = (Roll, Draw, ClosingRoll)
