from __future__ import annotations

from typing import Protocol

from conquista.rules.actions import Action
from conquista.rules.engine import Game


class Bot(Protocol):
    """Chooses the next action for the seat to move (never called at a chance step). A bot may also say, now and
    then, why it plays as it does beyond each move's odds: a method `take_reason() -> str | None` (the hard bot's
    plan for the turn, once a turn), which the table writes in its log."""

    def choose(self, game: Game) -> Action: ...

