"""What reaches the referee, as typed values: a gesture at the board (conquista.table.gestures), a fault from a named
source, a seat claim from a phone and its refusal by the seat's phone, time passing, the host's settings and what the
app offers. `Referee.step` takes them, with the time, and nothing else changes the referee (tests/test_code_shape.py
fails on a field written from outside it); the gestures keep their own module because the recogniser makes them."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from conquista.dice.sources import DiceSource
from conquista.rules.engine import Game
from conquista.rules.records import frozen_record
from conquista.table.colours import Palette
from conquista.table.gestures import Gesture
from conquista.table.hint_asks import Hint, HintTicket
from conquista.table.questions import TableQuestion

if TYPE_CHECKING:  # the menu is built by the app, and only when it is shown
    from conquista.table.setup_menu import SetupMenu


class FaultSource(Enum):
    """Where a fault comes from, most important first: each source's fault is kept apart, so none clears
    another's (a link that recovers does not lift the host's pause)."""

    LINK = "link"          # the sensor link to the Pico: the game holds
    HOST = "host"          # paused from the host's phone: the game holds
    STORAGE = "storage"    # the journal cannot write: the ring says so, play goes on (kept in memory)


HOLDING = (FaultSource.LINK, FaultSource.HOST)   # the faults that stop the game; the ring shows the first


@frozen_record
class Fault:
    """A source's fault (`text`), or its end (None)."""

    source: FaultSource
    text: str | None


@frozen_record
class SeatClaim:
    """A phone (`screen`, its connection) asks for `seat`; the board grants it with the chord (ROLL and NEXT)."""

    screen: int
    seat: int


@frozen_record
class RefuseClaim:
    """The phone holding `seat` refuses the claim waiting for it."""

    seat: int


@frozen_record
class Tick:
    """Time passing: time-outs and the turn clock."""


# The host's settings: from the host's phone, the set-up menu's choice, or the command line.

@frozen_record
class SetPalette:
    """The seats' LED colours (standard or colour-blind); the next games keep them."""

    palette: Palette


@frozen_record
class SetPhysicalDice:
    """Battles are rolled with physical dice typed in with the encoder (True), or by the table's dice source."""

    physical: bool


@frozen_record
class SetHints:
    """Hints for a learner: whether a seat's phone may ask for them, and whether the LEDs show them too."""

    allowed: bool
    leds: bool


@frozen_record
class SetTimeOuts:
    """The defender's time to choose the dice (then the most are rolled) and a phone's seat claim's time to be
    granted (then it expires); None keeps the one the table has."""

    defend_s: float | None = None
    claim_s: float | None = None


# Hints for a learner (table/hint_asks.py): a phone's ask, the search's answer from off the board's loop, and the
# counts a resumed game's journal kept.

@frozen_record
class AskHint:
    """The phone `screen` of `seat` asks what hard would do in its place."""

    seat: int
    screen: int


@frozen_record
class HintFound:
    """The search for `ticket` is over: the hint, or None and why not (`failure`)."""

    ticket: HintTicket
    hint: Hint | None
    failure: str = ""


@frozen_record
class SavedHints:
    """The hints each seat asked for this game before it was resumed ((seat, count) pairs, the journal's)."""

    counts: tuple[tuple[int, int], ...]


# What the app offers, as data the modes read.

@frozen_record
class OfferBots:
    """The table has bots: a player leaving may hand the seat to one (`SeatToBot`)."""

    available: bool


@frozen_record
class OfferNewGame:
    """ROLL once the game is over asks for the next game's set-up menu (`NewGameAsked`)."""

    offered: bool


# A phone's commands, as the server took them (the referee decides who may act: `SeatAct`'s seat only when the
# board waits for it and nothing holds the game; `TradeSet` only a set the seat holds, in its reinforcement).

@frozen_record
class SeatAct:
    """A gesture from the phone of `seat`: taken only when the board waits for that seat and phones may act."""

    seat: int
    gesture: Gesture


@frozen_record
class TradeSet:
    """The phone (`screen`) of `seat` trades a set of `cards`; a refusal goes back to that phone only
    (`PhoneRefused`), since the words name the cards."""

    seat: int
    cards: tuple[int, ...]
    screen: int


@frozen_record
class LeaveSeat:
    """`seat` leaves the game (the host's phone, `screen`; -1: not a phone's), or with `bot` a bot takes it."""

    seat: int
    bot: bool = False
    screen: int = -1


@frozen_record
class ForgetClaim:
    """The phone `screen` closed: a seat claim it left waiting goes."""

    screen: int


# What the app puts to the table: the set-up menu, a question, a line of the log, a notice, the tournament's
# saved clock, a game only shown (a replay).

@frozen_record
class OfferMenu:
    """Show the set-up menu until ROLL confirms its last step (its choice leaves as `SetupChosen`)."""

    menu: SetupMenu


@frozen_record
class AskQuestion:
    """Put a yes/no question to the table (ROLL: yes, CANCEL: no)."""

    question: TableQuestion


@frozen_record
class WithdrawQuestion:
    """Take back `question` if it is still asked."""

    question: TableQuestion


@frozen_record
class Note:
    """A line of the app's own in the log (a bot says why it acts; a replay tells an action's events)."""

    line: str


@frozen_record
class Say:
    """A notice on the screens (plain words, not a refusal): e.g. a saved game resumed."""

    text: str


@frozen_record
class ClockSaved:
    """The tournament ending's clock of play as the journal saved it: the moments of its rows."""

    rows: tuple[float, ...]


@frozen_record
class ShowGame:
    """Show `game` from now on without playing it (a replay: chance steps are left waiting). `fresh_log`: the log
    starts again (a replay stepped back: its lines are told again from the deal)."""

    game: Game
    fresh_log: bool = False


@frozen_record(eq=False)
class StartGame:
    """Referee a new or resumed game from now on (`Referee.start` says it): `said` is the notice the screens
    show, `bots` the seats bots play (None: as they were), `dice` the game's chance source (None: the table's);
    `settings` a resumed game's own, taken before its pending chance step is answered."""

    game: Game
    said: str
    bots: tuple[tuple[int, str], ...] | None = None
    dice: DiceSource | None = None
    settings: tuple[Setting, ...] = ()


@frozen_record(eq=False)
class TakeGame:
    """Referee `game` from here on with no words of it (a test's position, a game swapped in): selections, undo
    and effects start afresh, the log is the game's own and a pending chance step is answered."""

    game: Game


@frozen_record
class HostFirstSeat:
    """The table is set up from a phone: the first seat granted to a phone hosts (the app's offer, once)."""


@frozen_record
class AsHost:
    """A host's command from the phone holding `seat` (`screen`, its connection): the referee takes `act` only when
    that seat hosts, and otherwise refuses it to that phone (`PhoneRefused`)."""

    seat: int
    screen: int
    act: HostAct


Setting = SetPalette | SetPhysicalDice | SetHints | SetTimeOuts | OfferBots | OfferNewGame
HostAct = SetHints | SetPhysicalDice | Fault | LeaveSeat   # what a host's phone may ask of the table
Hinting = AskHint | HintFound | SavedHints
PhoneCommand = SeatAct | TradeSet | LeaveSeat | ForgetClaim
AppInput = (OfferMenu | AskQuestion | WithdrawQuestion | Note | Say | ClockSaved | ShowGame | StartGame
            | TakeGame)
Input = (Gesture | Fault | SeatClaim | RefuseClaim | Tick | Setting | Hinting | PhoneCommand | AppInput | HostFirstSeat
         | AsHost)

HOST_FIRST_SEAT = HostFirstSeat()
TICK = Tick()   # time passing, made once: the board's loop hands it to the referee at every pass
