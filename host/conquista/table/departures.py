"""The networked table's rules at the board (docs/rules.md, "Table features"): the turn clock and a player leaving.
Pure: time is passed in; the engine reads no clock, so the referee applies explicit, journalled actions (`TimeOut`,
`Leave`).

The turn clock runs while the player to move can act: it stops for a question, a fault, the set-up menu and dice
being typed in, and starts afresh with every turn (and every setup batch, and the duel's neutral steps). When it
runs out, a defender still choosing rolls the most dice (`Defend`), then `TimeOut()` ends the turn (or the neutral
steps). What is timed is the rules' answer (`Game.clock_key()`, `Game.turn_clock_runs()`).

Leaving at the board: CANCEL held down for `LEAVE_HOLD_S` on one's own turn asks "leave the game?"; ROLL confirms.
When the table has bots (`Referee.on_bot_seat`), a second question offers a bot for the seat instead: ROLL seats
the bot, CANCEL leaves the armies to defend by themselves. The host's phone does the same through `leave`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.actions import Defend, Leave, TimeOut
from conquista.rules.events import Phase
from conquista.rules.table_features import ClockKey
from conquista.table.colours import player_rgb

if TYPE_CHECKING:
    from conquista.table.desk import Desk

LEAVE_HOLD_S = 3.0      # CANCEL held this long on one's turn asks to leave (NEXT held 5 s is the power-off question)


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
    game = referee.game
    return (bool(limit_s(referee)) and not game.over and referee.menu is None and not referee.fault
            and not referee.prompt and not referee.power_question and referee.entry is None
            and game.turn_clock_runs())


def update_clock(referee: Desk, now: float) -> None:
    referee.turn_clock.update(clock_key(referee), clock_running(referee), now)


def time_left(referee: Desk, now: float) -> float | None:
    """Seconds left of the turn at `now`, or None when the ruleset has no limit (or nothing is timed now)."""
    limit = limit_s(referee)
    if not limit or referee.game.over or referee.menu is not None:
        return None
    if referee.turn_clock.key != clock_key(referee):
        return float(limit)
    return max(0.0, limit - referee.turn_clock.used_at(now))


def time_fraction(referee: Desk, now: float) -> float | None:
    left = time_left(referee, now)
    return None if left is None else left / limit_s(referee)


def check_time(referee: Desk, now: float) -> None:
    """At a tick: when the turn's time is up, the pending choice takes its default and the turn passes."""
    update_clock(referee, now)
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
    referee.message = (f"{who}'s time for the neutral army is up: its steps end" if neutral
                       else f"{who}'s time is up: the turn passes")


# ------------------------------------------------------------------------------------------------- leaving

def ask_to_leave(referee: Desk, now: float) -> None:
    """CANCEL held down on one's turn: ask whether the current player leaves."""
    game = referee.game
    if referee.menu is not None or referee.fault or referee.prompt or referee.entry is not None or game.over:
        referee.message = "not now"
        return
    seat = game.current
    refused = game.check(Leave(seat))
    if refused is not None:
        referee.message = refused
        return
    colour = game.rules.colours[seat]

    def answered(yes: bool, when: float) -> None:
        if not yes:
            referee.message = f"{colour} plays on"
        elif referee.on_bot_seat is not None:
            _offer_bot(referee, seat)
        else:
            leave(referee, seat, when)

    referee.ask(f"{colour} leaves the game? the armies stay and only defend. ROLL: yes, CANCEL: no", answered,
                colour=player_rgb(colour, referee.palette))


def _offer_bot(referee: Desk, seat: int) -> None:
    colour = referee.game.rules.colours[seat]

    def answered(bot: bool, when: float) -> None:
        leave(referee, seat, when, bot=bot)

    referee.ask(f"a bot plays on for {colour}? ROLL: a bot takes the seat, CANCEL: the armies only defend",
                answered, colour=player_rgb(colour, referee.palette))


def leave(referee: Desk, seat: int, now: float, *, bot: bool = False) -> bool:
    """`seat` leaves: a bot takes the seat (when asked and the table has bots), or `Leave(seat)` is applied.
    Refused like a tap (the reason in `message`). True when done."""
    game = referee.game
    colour = game.rules.colours[seat] if 0 <= seat < game.players else f"seat {seat}"
    if bot:
        if referee.on_bot_seat is None or game.over or game.eliminated[seat] or game.left[seat]:
            referee.message = "no bot can take that seat"
            return False
        referee.on_bot_seat(seat, now)
        referee.note(f"a bot plays on for {colour}")
        referee.message = f"a bot plays on for {colour}"
        return True
    refused = game.check(Leave(seat))
    if refused is not None:
        referee.message = refused
        return False
    if seat == game.current:
        referee.clear_selection()
    referee.apply_action(Leave(seat), now)
    referee.message = f"{colour} left the game: the armies stay and only defend"
    return True
