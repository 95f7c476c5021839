"""Hints searched off the board's loop: the hard bot's search for a hint takes a fraction of a second here and a few
seconds on a Pi Zero 2 W, and taps, buttons, LED frames and the phones must not wait for it.

The referee asks for a search with its effect `HintWanted`, which carries the asking seat's view of the game (a copy
the loop no longer touches, taken when the phone asked); the router hands it here (`think`), a thread searches it,
and the answer goes back to the loop as the referee's input `HintFound` (`deliver`: the router's `post`, which wakes
the loop). The referee gives it only if the game has not moved meanwhile (table/hint_asks.py). The hard bot's own
cap per decision bounds the search; the referee lets each seat have one search at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from conquista.rules.engine import Game
from conquista.table.hint_asks import Hint, HintWanted
from conquista.table.inputs import HintFound

if TYPE_CHECKING:
    from conquista.table.referee import Referee

Search = Callable[[Game, int], Hint]
FAILED = "hard could not work out a hint this time: ask again"


def hard_search(view: Game, seat: int) -> Hint:
    """The hard bot on the seat's view (table/hints.py), imported at the first hint: the board's start never
    waits for it."""
    from conquista.table.hints import hint_on

    return hint_on(view, seat)


class HintWorker:
    """Runs each `HintWanted` in a thread of its own and delivers its `HintFound` from there."""

    def __init__(self, deliver: Callable[[HintFound], None], search: Search = hard_search) -> None:
        self.deliver = deliver
        self.search = search

    def think(self, _referee: Referee, wanted: HintWanted) -> None:
        """On the board's loop (the router's decision on `HintWanted`): start the search and return at once."""
        ticket = wanted.ticket
        threading.Thread(target=self._search, args=(wanted,), name=f"conquista-hint-{ticket.seat}",
                         daemon=True).start()

    def _search(self, wanted: HintWanted) -> None:
        ticket = wanted.ticket
        try:
            found = HintFound(ticket, self.search(wanted.view, ticket.seat))
        except Exception:   # a bug in the search must not leave the phone waiting for ever: it is told, and logged
            import logging  # here: logging is not what the board's first frame needs

            logging.getLogger("conquista.hints").exception("the hint for seat %d failed", ticket.seat)
            found = HintFound(ticket, None, FAILED)
        self.deliver(found)
