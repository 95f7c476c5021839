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
from conquista.table.colours import OFF, RGB

# On for 1 s, dark for 0.6 s: slower than a lost army's blink (0.4 s, a few times) and the illegal tap's flashes,
# and never the selection's mint green. Every newly dealt territory blinks in step with the others.
DEAL_BLINK_PERIOD_S = 1.6
DEAL_BLINK_ON_S = 1.0


def deal_blink(owner: RGB, now: float) -> RGB:
    return owner if now % DEAL_BLINK_PERIOD_S < DEAL_BLINK_ON_S else OFF


class NewlyDealt:
    """The territories dealt whose army nobody has confirmed yet, with the owner they were dealt to."""

    def __init__(self) -> None:
        self.owners: dict[int, int] = {}

    def start(self, game: Game) -> None:
        """A game taken over by the referee: a progressive deal that nobody has played on yet blinks all it
        dealt; any other game blinks nothing."""
        self.owners.clear()
        fresh = game.round <= 1 and game.turn <= 1 and all(isinstance(a, Draw) for a in game.log[1:])
        if game.rules.deal is DealKind.PROGRESSIVE and fresh:
            self.owners.update((t, o) for t, o in enumerate(game.owner) if o >= 0)

    def dealt(self, territory: int, owner: int) -> None:
        self.owners[territory] = owner

    def changed_hands(self, territory: int) -> None:
        self.owners.pop(territory, None)

    def blinking(self, game: Game) -> list[int]:
        """The territories blinking now (those still held by the seat they were dealt to)."""
        return [t for t, o in self.owners.items() if game.owner[t] == o]

    def confirm(self, game: Game, territory: int) -> bool:
        """A tap on `territory`: True if it was blinking (its army is now on the board), and it stops."""
        owner = self.owners.pop(territory, None)
        return owner is not None and game.owner[territory] == owner
