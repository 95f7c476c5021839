from __future__ import annotations

from typing import Protocol

from conquista.rules.actions import Action
from conquista.rules.engine import Game


class Bot(Protocol):
    """Chooses the next action for the seat to move (never called at a chance step)."""

    def choose(self, game: Game) -> Action: ...
