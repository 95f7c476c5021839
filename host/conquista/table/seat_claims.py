"""Seat claims at the board, apart from every other input: a claim waits while the table plays on, and is granted
only by the chord (ROLL and NEXT pressed together), which means nothing else in any mode. Pure: time is passed in.

One claim waits at a time; a screen that was refused or whose claim expired may not ask again for `cooldown_s`;
the board takes at most `per_minute` claims a minute, so no screen (nor many) can keep the table busy. The seat's
current phone is told (the web companion does that) and may refuse the claim from there.
"""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum

from conquista.rules.records import frozen_record

CLAIM_TIMEOUT_S = 30.0
COOLDOWN_S = 30.0
PER_MINUTE = 6


class ClaimState(StrEnum):
    """How a phone's claim stands (the web's "claim" frames say it in `state`)."""

    ASKED = "asked"          # waiting for the chord at the board
    GRANTED = "granted"
    REFUSED = "refused"
    EXPIRED = "expired"
    REMOTE = "remote"        # a seat the host gave to a player away from the table (a link, no chord)


@frozen_record
class ClaimNews:
    """What became of a claim; the web companion answers the phone with it (and grants the token)."""

    screen: int
    seat: int
    state: ClaimState
    reason: str = ""


@frozen_record
class OpenClaim:
    screen: int
    seat: int
    asked_at: float


@frozen_record(slots=True)
class SeatClaims:
    """The claims as a value (a part of the table's state, table/table_state.py): each change returns the claims
    it leaves and the news of it, and changes nothing in place."""

    timeout_s: float = CLAIM_TIMEOUT_S
    cooldown_s: float = COOLDOWN_S
    per_minute: int = PER_MINUTE
    open: OpenClaim | None = None
    blocked_until: tuple[tuple[int, float], ...] = ()   # (screen, until): refused or expired, waiting
    asked: tuple[float, ...] = ()                       # when the claims of the last minute were asked

    def ask(self, screen: int, seat: int, now: float) -> tuple[SeatClaims, ClaimNews]:
        """A screen asks for a seat: ASKED, or REFUSED with the reason."""
        until = dict(self.blocked_until).get(screen, -1.0)
        if now < until:
            return self, ClaimNews(screen, seat, ClaimState.REFUSED,
                                   f"this screen's last claim was refused or expired: ask again in "
                                   f"{until - now:.0f} s (a claim may be repeated after {self.cooldown_s:.0f} s)")
        if self.open is not None:
            if self.open.screen == screen:
                return self, ClaimNews(screen, seat, ClaimState.REFUSED, "this screen already has a claim waiting")
            return self, ClaimNews(screen, seat, ClaimState.REFUSED,
                                   "another phone's claim is waiting at the board: try again in a moment")
        asked = tuple(t for t in self.asked if now - t < 60.0)
        if len(asked) >= self.per_minute:
            return replace(self, asked=asked), ClaimNews(
                screen, seat, ClaimState.REFUSED,
                f"the board takes {self.per_minute} claims a minute: try again in a minute")
        return (replace(self, asked=(*asked, now), open=OpenClaim(screen, seat, now)),
                ClaimNews(screen, seat, ClaimState.ASKED))

    def grant(self) -> tuple[SeatClaims, ClaimNews | None]:
        """The chord at the board: the waiting claim is granted (None: no claim waits)."""
        claim = self.open
        if claim is None:
            return self, None
        return replace(self, open=None), ClaimNews(claim.screen, claim.seat, ClaimState.GRANTED)

    def refuse(self, seat: int, now: float, reason: str) -> tuple[SeatClaims, ClaimNews | None]:
        """The claim waiting for `seat` is refused (by its current phone); the screen waits before asking again."""
        claim = self.open
        if claim is None or claim.seat != seat:
            return self, None
        return self._closed(claim, now), ClaimNews(claim.screen, claim.seat, ClaimState.REFUSED, reason)

    def expire(self, now: float) -> tuple[SeatClaims, ClaimNews | None]:
        claim = self.open
        if claim is None or now - claim.asked_at < self.timeout_s:
            return self, None
        return self._closed(claim, now), ClaimNews(
            claim.screen, claim.seat, ClaimState.EXPIRED,
            f"nobody pressed ROLL and NEXT together at the board within {self.timeout_s:.0f} s")

    def _closed(self, claim: OpenClaim, now: float) -> SeatClaims:
        blocked = {**dict(self.blocked_until), claim.screen: now + self.cooldown_s}
        return replace(self, open=None, blocked_until=tuple(blocked.items()))

    def forget(self, screen: int) -> SeatClaims:
        """A screen closed: its waiting claim goes."""
        if self.open is not None and self.open.screen == screen:
            return replace(self, open=None)
        return self
