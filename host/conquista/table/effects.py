"""What leaves the referee for the shell to route (`Referee.step` returns them; `take_effects` takes those of
inputs handed over another way). The shell (conquista.app.routing) sends them on in one order: the journal first
(an applied action is on disk before any light or screen shows it), then the shell's own decisions (a question's
answer, the game chosen at the set-up menu), the buzzer, the phones and the terminal.

- an action applied or undone (the journal's rows);
- what became of a phone's seat claim (`ClaimNews`), and a game started on the table, whose seats the phones
  follow at once (a seat gone, or now a bot's, unbinds its phones);
- what the table asks the shell to do: a question answered that the table does not answer itself, the set-up
  menu's choice, a new game asked for after the end, a seat handed to a bot;
- a hint to search off the board's loop (`HintWanted`), and what became of a phone's ask for one (`HintNews`,
  for that phone; a given one's count is the journal's too), both in table/hint_asks.py.
"""

from __future__ import annotations

from collections.abc import Mapping

from conquista.rules.actions import Action
from conquista.rules.events import Event
from conquista.rules.records import frozen_record
from conquista.table.hint_asks import HintNews, HintWanted
from conquista.table.questions import TableQuestion
from conquista.table.seat_claims import ClaimNews
from conquista.table.setup_choice import SetupChoice


@frozen_record
class ActionApplied:
    """`action` was applied, with its `events`; `seq` is its index in the game's log (the journal's row: a row
    the journal already holds, such as one written when it started following the game, is not written again)."""

    action: Action
    events: tuple[Event, ...]
    seq: int


@frozen_record
class ActionUndone:
    """The last action, `action` (at index `seq` of the game's log), was taken back."""

    action: Action
    seq: int


@frozen_record
class GameStarted:
    """A new or resumed game is refereed from now on, with `players` seats; `bots`: the seats bots play (each
    bot's kind), or None when the bot seats stay as they were."""

    players: int
    bots: Mapping[int, str] | None = None


@frozen_record
class Answered:
    """The table answered a question the shell put (`yes`: ROLL) at time `now`."""

    question: TableQuestion
    yes: bool
    now: float


@frozen_record
class SetupChosen:
    """ROLL confirmed the set-up menu's last step: the shell deals and starts the game chosen."""

    choice: SetupChoice
    now: float


@frozen_record
class NewGameAsked:
    """ROLL after the game's end: the shell offers the set-up menu for the next game."""

    now: float


@frozen_record
class SeatToBot:
    """A player left and the table chose a bot for `seat`: the shell seats it (and the journal says so)."""

    seat: int
    now: float


@frozen_record
class PhoneRefused:
    """A phone's command (from `screen`, its connection) the table refused, and why: for that phone only (a trade's
    words name the cards)."""

    screen: int
    reason: str


Effect = (ActionApplied | ActionUndone | ClaimNews | GameStarted | Answered | SetupChosen | NewGameAsked | SeatToBot
          | HintWanted | HintNews | PhoneRefused)
