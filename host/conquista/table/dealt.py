"""Newly dealt territories (lamorisse-1954's progressive deal) blink until their army is on the board.

A distribution gives territories with one army each: the board lights them, but the plastic army must still be put
there by hand. Each newly dealt territory blinks slowly in its new owner's colour until someone taps it to say the
army is in place; that tap does nothing else (a reinforcement needs a second tap). This is the referee's state,
not the engine's: the game goes on meanwhile (NEXT and ROLL never wait for it), and a territory that changes hands
stops blinking, since its army was there to be beaten. A resumed game blinks only when nothing but the deal and its
card draws had been played (the pieces of a game under way are on the board already). Pure: time is passed in.
"""

from __future__ import annotations

from conquista.rules.actions import Draw
from conquista.rules.choices import DealKind
from conquista.rules.engine import Game
from conquista.rules.records import frozen_record
from conquista.table.colours import OFF, RGB

# On for 1 s, dark for 0.6 s: slower than a lost army's blink (0.4 s, a few times) and the illegal tap's flashes,
# and never the selection's mint green. Every newly dealt territory blinks in step with the others.
DEAL_BLINK_PERIOD_S = 1.6
DEAL_BLINK_ON_S = 1.0


def deal_blink(owner: RGB, now: float) -> RGB:
    return owner if now % DEAL_BLINK_PERIOD_S < DEAL_BLINK_ON_S else OFF


@frozen_record(slots=True)
class NewlyDealt:
    """The territories dealt whose army nobody has confirmed yet, with the owner they were dealt to: a value (a
    part of the table's state); each change returns a new one."""

    owners: tuple[tuple[int, int], ...] = ()   # (territory, owner), in the order dealt

    @staticmethod
    def of(game: Game) -> NewlyDealt:
        """A game taken over by the referee: a progressive deal that nobody has played on yet blinks all it
        dealt; any other game blinks nothing."""
        fresh = game.round <= 1 and game.turn <= 1 and all(isinstance(a, Draw) for a in game.log[1:])
        if game.rules.deal is DealKind.PROGRESSIVE and fresh:
            return NewlyDealt(tuple((t, o) for t, o in enumerate(game.owner) if o >= 0))
        return NO_DEAL

    def dealt(self, territory: int, owner: int) -> NewlyDealt:
        return NewlyDealt((*self._without(territory), (territory, owner)))

    def changed_hands(self, territory: int) -> NewlyDealt:
        if not self.owners:   # the usual case: nothing blinks
            return self
        return NewlyDealt(self._without(territory))

    def _without(self, territory: int) -> tuple[tuple[int, int], ...]:
        return tuple(pair for pair in self.owners if pair[0] != territory)

    def blinking(self, game: Game) -> list[int]:
        """The territories blinking now (those still held by the seat they were dealt to)."""
        return [t for t, o in self.owners if game.owner[t] == o]

    def confirm(self, game: Game, territory: int) -> tuple[NewlyDealt, bool]:
        """A tap on `territory`: True if it was blinking (its army is now on the board), and it stops."""
        owner = dict(self.owners).get(territory)
        if owner is None:
            return self, False
        return NewlyDealt(self._without(territory)), game.owner[territory] == owner


NO_DEAL = NewlyDealt()
