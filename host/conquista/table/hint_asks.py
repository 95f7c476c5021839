"""Hints asked at the table, apart from every other input: the hard bot's search takes a few seconds on a small
board, so the referee only accepts an ask and hands the search out (`HintWanted`, with the asking seat's view of
the game taken now); the app runs it off the board's loop and its answer comes back as an input (`HintFound`).
Pure: no thread, no clock.

One search at a time per seat: a second ask while hard thinks is answered "already thinking". An answer is given
only if the game is where it was when it was asked (the referee's count of moves, `moment`): another action applied
or undone, a new game, or hints turned off meanwhile, and the phone is told to ask again. What becomes of an ask
leaves as `HintNews` for the phone that asked.
"""

from __future__ import annotations

from enum import StrEnum

from conquista.rules.actions import Action
from conquista.rules.engine import Game
from conquista.rules.records import frozen_record


@frozen_record
class Hint:
    """What hard would do: the action, why in words, and the territories it names (highlighted)."""

    seat: int
    action: Action
    words: str
    territories: tuple[int, ...]


class HintState(StrEnum):
    """How a phone's ask stands (the web's "hint" frames say it in `state`)."""

    THINKING = "thinking"   # accepted: hard is searching
    GIVEN = "given"         # the answer
    REFUSED = "refused"     # not now (hints off, not this seat's move, paused) or already thinking
    STALE = "stale"         # the game moved on while hard was thinking: ask again


THINKING_WORDS = "hard is thinking\u2026"
BUSY_WORDS = "hard is already thinking for you: its answer comes here"
STALE_WORDS = "the game moved on while hard was thinking: ask again"


@frozen_record
class HintTicket:
    """One ask: the seat, the phone (`screen`, its connection), its number, and the referee's `moment` then."""

    seat: int
    screen: int
    serial: int
    moment: int


@frozen_record
class HintWanted:
    """An effect: search what hard would do for the ticket's seat on `view` (that seat's view of the game, a copy
    the board's loop no longer touches), and hand the answer back as `HintFound`."""

    ticket: HintTicket
    view: Game


@frozen_record
class HintNews:
    """An effect, for the phone that asked only: what became of its ask. A given hint has its words, the
    territories it names and how many hints the seat has asked for this game (`asked`, the journal keeps it)."""

    screen: int
    seat: int
    state: HintState
    text: str
    territories: tuple[int, ...] = ()
    asked: int = 0


@frozen_record(slots=True)
class HintAsks:
    """The asks being searched, one per seat: a value (a part of the table's state); each change returns a new
    one."""

    thinking: tuple[HintTicket, ...] = ()
    serial: int = 0

    def ask(self, seat: int, screen: int, moment: int) -> tuple[HintAsks, HintTicket | HintNews]:
        """A seat's phone asks: the ticket to search for, or the news that hard already thinks for that seat."""
        if any(t.seat == seat for t in self.thinking):
            return self, HintNews(screen, seat, HintState.REFUSED, BUSY_WORDS)
        ticket = HintTicket(seat, screen, self.serial + 1, moment)
        return HintAsks((*self.thinking, ticket), self.serial + 1), ticket

    def answered(self, ticket: HintTicket) -> tuple[HintAsks, bool]:
        """The search for `ticket` is over: True if it was the one being searched (its seat may ask again)."""
        if ticket not in self.thinking:
            return self, False
        return HintAsks(tuple(t for t in self.thinking if t != ticket), self.serial), True
