"""The seat roster as a game is saved with it: each seat is a person ("human") or the kind of bot that plays it.

The journal saves it, the command line, the set-up menu, the web app and the simulator read and write it: one
spelling for all of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

HUMAN = "human"           # a person's seat; a bot's seat saves its kind (one of conquista.bots.BOT_NAMES)
DEFAULT_BOT = "normal"    # the level a seat gets when it is made a bot without naming one


def seats_of(players: int, bots: Mapping[int, str]) -> tuple[str, ...]:
    """The roster of a game of `players` seats whose bot seats are `bots` (seat → kind)."""
    return tuple(bots.get(seat, HUMAN) for seat in range(players))


def bots_of(seats: Sequence[str] | None) -> dict[int, str]:
    """The bot seats of a roster (seat → kind); None (a game saved without its roster) has none."""
    return {seat: kind for seat, kind in enumerate(seats or ()) if kind != HUMAN}
