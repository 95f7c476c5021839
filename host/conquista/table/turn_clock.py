"""The turn clock of the networked table's rules (docs/rules.md, "Table features"). Pure: time is passed in; the
engine reads no clock, so the referee applies an explicit, journalled `TimeOut`.

The turn clock runs while the player to move can act: it stops for a question, a fault, the set-up menu and dice
being typed in, and starts afresh with every turn (and every setup batch, and the duel's neutral steps). When it
runs out, a defender still choosing rolls the most dice (`Defend`), then `TimeOut()` ends the turn (or the neutral
steps). What is timed is the rules' answer (`Game.clock_key()`, `Game.turn_clock_runs()`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.actions import Defend, TimeOut
from conquista.rules.events import Phase
from conquista.rules.table_features import ClockKey

if TYPE_CHECKING:
    from conquista.table.desk import Desk

def clock_key(referee: Desk) -> ClockKey:
    """What one run of the clock is for: a turn of a player, one setup batch, the neutral steps (the rules say)."""
    return referee.game.clock_key()


class TurnClock:
    """Seconds used of the current turn, from the times passed in (`update` at every tick and every action)."""

    def __init__(self) -> None:
        self.key: ClockKey | None = None
        self.used = 0.0
        self.last = 0.0
        self.running = False

    def restart(self) -> None:
        self.key = None

    def update(self, key: ClockKey, running: bool, now: float) -> None:
        if key != self.key:
            self.key, self.used = key, 0.0
        elif self.running:
            self.used += max(0.0, now - self.last)
        self.last, self.running = now, running

    def used_at(self, now: float) -> float:
        return self.used + (max(0.0, now - self.last) if self.running else 0.0)


def limit_s(referee: Desk) -> int:
    return referee.game.rules.turn_time_limit_s


def clock_running(referee: Desk) -> bool:
    # The mode says whether the player to move can act (no question, fault, menu or dice being typed in).
    return bool(limit_s(referee)) and referee.mode.clock_runs and referee.game.turn_clock_runs()


def update_clock(referee: Desk, now: float) -> None:
    referee.turn_clock.update(clock_key(referee), clock_running(referee), now)


def time_left(referee: Desk, now: float) -> float | None:
    """Seconds left of the turn at `now`, or None when the ruleset has no limit (or nothing is timed now)."""
    limit = limit_s(referee)
    if not limit or not referee.mode.shows_clock:
        return None
    if referee.turn_clock.key != clock_key(referee):
        return float(limit)
    return max(0.0, limit - referee.turn_clock.used_at(now))


def time_fraction(referee: Desk, now: float) -> float | None:
    left = time_left(referee, now)
    return None if left is None else left / limit_s(referee)


def check_time(referee: Desk, now: float) -> None:
    """At a tick (the referee has moved the clock to `now`): when the turn's time is up, the pending choice takes
    its default and the turn passes."""
    left = time_left(referee, now)
    if left is None or left > 0 or not clock_running(referee):
        return
    game = referee.game
    while game.phase is Phase.DEFEND and game.battle is not None and referee.entry is None:
        referee.apply_action(Defend(game.max_defend_dice(game.battle.target)), now)
    if referee.entry is not None or game.over or not game.is_legal(TimeOut()):
        return  # dice still to be typed in, or the roll ended the game: the clock waits
    neutral = game.clock_key()[3]  # the opponent's time for the neutral steps: they end, the turn goes on
    who = game.rules.colours[game.opponent() if neutral else game.current]
    referee.clear_selection()
    referee.apply_action(TimeOut(), now)
    referee.notice(f"{who}'s time for the neutral army is up: its steps end" if neutral
                   else f"{who}'s time is up: the turn passes")
