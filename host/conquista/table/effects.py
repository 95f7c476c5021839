"""What leaves the referee for the shell to route (`Referee.step` returns them; `take_effects` takes those of
inputs handed over another way): what became of a phone's seat claim, and a game started on the table, whose seats
the phones follow at once (a seat gone, or now a bot's, unbinds its phones)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from conquista.table.seat_claims import ClaimNews


@dataclass(frozen=True)
class GameStarted:
    """A new or resumed game is refereed from now on, with `players` seats; `bots`: the seats bots play (each
    bot's kind), or None when the bot seats stay as they were."""

    players: int
    bots: Mapping[int, str] | None = None


Effect = ClaimNews | GameStarted
