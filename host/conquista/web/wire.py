"""The web's wire records between the server's thread and the board's loop: the commands a phone's message becomes
(phone → board), and what the board sends back (claim answers, refusals, notices to a seat's phone, snapshots of
every view). The companion and the views both use them; neither owns them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from conquista.dice.sources import DiceSource
from conquista.rules.engine import Game
from conquista.table.colours import Palette
from conquista.table.gestures import Gesture
from conquista.table.hint_asks import HintState
from conquista.table.inputs import Setting
from conquista.table.seat_claims import ClaimState
from conquista.web.seats import Grant

# ---------------------------------------------------------------------------------------- phone → board

@dataclass(frozen=True)
class ClaimSeat:
    connection: int
    seat: int


@dataclass(frozen=True)
class SeatGesture:
    """A tap or a press made from a seat's phone; it counts only while that seat is to move."""

    seat: int
    gesture: Gesture


@dataclass(frozen=True)
class SeatTrade:
    seat: int
    cards: tuple[int, ...]
    connection: int = -1


@dataclass(frozen=True)
class SeatHint:
    """A seated phone asks what the hard bot would do in its place (docs/playing.md, "Hints")."""

    seat: int
    connection: int


@dataclass(frozen=True)
class HostHints:
    """The host allows hints for the table or not, and on the board's LEDs too or not."""

    seat: int
    allowed: bool
    leds: bool
    connection: int = -1   # the phone's, for a refusal (not the host's seat)


@dataclass(frozen=True)
class HostPause:
    seat: int
    paused: bool
    connection: int = -1   # the phone's, for a refusal (not the host's seat)


@dataclass(frozen=True)
class HostDice:
    """The host switches between the board's electronic dice and physical dice typed in with the encoder."""

    seat: int
    physical: bool
    connection: int = -1   # the phone's, for a refusal (not the host's seat)


@dataclass(frozen=True)
class GameSetUp:
    """A game the host's phone asks for, in the structure the board's composition root starts games from: a new
    game (ruleset, players, which seats bots play and which bot, the ruleset's house switches, the dice), or a
    saved game resumed (`resume`, its id; the rest is then the saved game's own)."""

    rules: str = ""
    players: int = 0
    bots: tuple[tuple[int, str], ...] = ()     # (seat, bot kind), by seat; every other seat is a person
    automatic_defence: bool | None = None      # None: as the ruleset says
    committed_dice: bool = False               # provably fair: a commitment shown now, the seed when the game ends
    resume: int | None = None
    tournament_ending: bool | None = None      # None: as the ruleset says (docs/rules.md, "Tournament ending")
    palette: Palette | None = None             # the board's LED colours from now on (None: as they are)


@dataclass(frozen=True)
class StartedGame:
    """What the composition root made of a `GameSetUp`: the game (already journalled), its bots, and its dice
    source (None: keep the board's)."""

    game: Game
    bots: dict[int, str] = field(default_factory=dict)
    dice: DiceSource | None = None
    note: str = ""                             # for the table, e.g. the committed dice's commitment
    # A resumed game's own settings (physical dice, hints, time-outs), taken before its pending chance step.
    settings: tuple[Setting, ...] = ()


@dataclass(frozen=True)
class SavedChoice:
    """An unfinished saved game the host may resume."""

    id: int
    rules: str
    players: int
    turn: int
    last_played: str
    seats: tuple[str, ...] | None = None


@dataclass(frozen=True)
class HostNewGame:
    """The host sets up a game (`GameSetUp`); the one being played is abandoned, or kept when another saved game
    is resumed."""

    connection: int
    seat: int
    setup: GameSetUp


@dataclass(frozen=True)
class HostRemote:
    """The host gives `target` to a player away from the table: a link with the seat's token, no ROLL needed."""

    connection: int
    seat: int
    target: int


@dataclass(frozen=True)
class HostLeave:
    """The host makes `target` leave the game (docs/rules.md, "Table features"): the armies stay and only defend, or
    with `bot` a bot takes the seat. The same path as CANCEL held down at the board: the referee checks it, the
    journal records it."""

    connection: int
    seat: int
    target: int
    bot: bool = False


@dataclass(frozen=True)
class RefuseClaim:
    """The phone holding `seat` refuses the claim another phone made for it."""

    seat: int


@dataclass(frozen=True)
class ScreenClosed:
    """A connection closed: a claim it left waiting goes at once (rather than blocking others until it expires)."""

    connection: int


Command = (ClaimSeat | SeatGesture | SeatTrade | HostPause | HostDice | HostNewGame | HostRemote | HostLeave
           | RefuseClaim | ScreenClosed | SeatHint | HostHints)


# ---------------------------------------------------------------------------------------- board → server

@dataclass(frozen=True)
class ClaimAnswer:
    """The board's answer to a phone's claim: granted (with the token), refused, or expired."""

    connection: int
    seat: int
    state: ClaimState           # REMOTE: a link the host asked for, to hand to a player away from the table
    reason: str = ""
    grant: Grant | None = None


@dataclass(frozen=True)
class Refusal:
    """A command refused for one screen only: its reason may name the seat's own cards, so it is not public."""

    connection: int
    reason: str


@dataclass(frozen=True)
class Snapshot:
    """Every audience's view, serialised once: the public one, each seat's, the host's."""

    version: int
    public: str
    seats: tuple[str, ...]
    host: str
    host_seat: int

    def public_dict(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.public)
        return parsed


@dataclass(frozen=True)
class SeatNotice:
    """For the phones holding `seat` only: another phone asks for the seat (they may refuse it)."""

    seat: int
    text: str


@dataclass(frozen=True)
class HintAnswer:
    """For the phone that asked: what the hard bot would do, in words, with the territories to look at (ids);
    or that it is thinking, or why there is no hint now (table/hint_asks.py's `HintState`)."""

    connection: int
    seat: int
    text: str
    territories: tuple[str, ...] = ()
    state: HintState = HintState.GIVEN

    @property
    def given(self) -> bool:
        return self.state is HintState.GIVEN


@dataclass(frozen=True)
class Unseated:
    """`seat` changed hands (a bot took it, its player left, a new game has other seats): every connection bound to
    it stops receiving its private view and is told `reason`."""

    seat: int
    reason: str


Outgoing = ClaimAnswer | Refusal | SeatNotice | Unseated | Snapshot | HintAnswer
