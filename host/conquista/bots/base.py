from __future__ import annotations

from typing import Protocol, runtime_checkable

from conquista.rules.actions import Action
from conquista.rules.engine import Game


class Bot(Protocol):
    """Chooses the next action for the seat to move (never called at a chance step)."""

    def choose(self, game: Game) -> Action: ...


@runtime_checkable
class Explains(Protocol):
    """A bot that says, now and then, why it plays as it does beyond each move's odds (the hard bot: once a turn)."""

    def take_reason(self) -> str | None:
        """The reason not yet said, in a player's words, or None; said once."""
        ...
