"""Seat tokens: a seat is granted by a ROLL press at the board, and its phone then holds a secret token.

The board's loop grants seats; the server's thread checks tokens; so the book takes a lock. A token is compared in
constant time and is never logged: `repr` hides it.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class Grant:
    seat: int
    token: str
    host: bool

    def __repr__(self) -> str:
        return f"Grant(seat={self.seat}, host={self.host})"


class SeatBook:
    def __init__(self, players: int, bots: frozenset[int] = frozenset(), *, first_seat_hosts: bool = False) -> None:
        self.players = players
        self.bots = bots
        # A game set up at the command line has no host phone; otherwise the first seat granted sets it up (the
        # referee decides which seat hosts: `TableView.host`; the book only carries the table's choice to it).
        self.first_seat_hosts = first_seat_hosts
        self._tokens: dict[int, str] = {}
        self.remote: frozenset[int] = frozenset()   # seats played from a link the host gave, away from the table
        self._lock = threading.Lock()

    def grant(self, seat: int, remote: bool = False, host: bool = False) -> Grant:
        """A new token for `seat` (a re-paired phone's old token stops working); `host`: the referee says the
        seat hosts, which its phone is told."""
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._tokens[seat] = token
            self.remote = self.remote | {seat} if remote else self.remote - {seat}
            return Grant(seat, token, host)

    def resize(self, players: int, bots: frozenset[int] | None = None) -> None:
        """A new game with `players` seats (and, if given, these bot seats): the tokens of seats it no longer has,
        or that a bot now plays, stop working."""
        with self._lock:
            self.players = players
            if bots is not None:
                self.bots = bots
            kept = [seat for seat in self._tokens if seat < players and seat not in self.bots]
            self._tokens = {seat: self._tokens[seat] for seat in kept}
            self.remote = frozenset(s for s in self.remote if s in self._tokens)

    def seat_of(self, token: str) -> int:
        """The seat a token belongs to, or -1."""
        found = -1
        with self._lock:
            for seat, known in self._tokens.items():
                if secrets.compare_digest(known.encode(), token.encode()):
                    found = seat
        return found

    def phones(self) -> frozenset[int]:
        with self._lock:
            return frozenset(self._tokens)

    def why_not_claim(self, seat: int) -> str:
        """Why a phone may not ask for `seat`, or "" if it may."""
        if not 0 <= seat < self.players:
            return f"there is no seat {seat} (seats 0–{self.players - 1})"
        if seat in self.bots:
            return "a bot plays that seat"
        return ""
