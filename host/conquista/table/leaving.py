"""A player leaving at the board (docs/rules.md, "Table features"). Pure: time is passed in; the referee applies an
explicit, journalled `Leave`.

CANCEL held down for `LEAVE_HOLD_S` on one's own turn asks "leave the game?"; ROLL confirms. When the table has bots
(`Referee.bots_available`), a second question offers a bot for the seat instead: ROLL seats the bot (a `SeatToBot`
effect: the app seats it), CANCEL leaves the armies to defend by themselves. Both questions are values
(table/questions.py) whose answer is a pure function of the question (`answered`): no callback is held. The host's
phone does the same through `leave`. A refusal is returned (its reason), and the referee says it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.actions import Leave
from conquista.table.colours import player_rgb
from conquista.table.effects import SeatToBot
from conquista.table.questions import QuestionKind, TableQuestion

if TYPE_CHECKING:
    from conquista.table.desk import Desk

LEAVE_HOLD_S = 3.0      # CANCEL held this long on one's turn asks to leave (NEXT held 5 s is the power-off question)
OWN = (QuestionKind.LEAVE, QuestionKind.BOT_SEAT)   # the questions the table answers itself


def ask_to_leave(referee: Desk, now: float) -> str:
    """CANCEL held down on one's turn: ask whether the current player leaves; or why not ("": asked)."""
    game = referee.game
    if not referee.mode.takes_play:
        return "not now"
    seat = game.current
    refused = game.check(Leave(seat))
    if refused is not None:
        return refused
    colour = game.rules.colours[seat]
    referee.ask(TableQuestion(QuestionKind.LEAVE,
                              f"{colour} leaves the game? the armies stay and only defend. ROLL: yes, CANCEL: no",
                              player_rgb(colour, referee.palette), seat))
    return ""


def answered(referee: Desk, question: TableQuestion, yes: bool, now: float) -> str:
    """The answer to one of the table's own questions (`OWN`), from the question alone; a refusal's reason, if
    leaving is refused by then."""
    seat = question.subject
    colour = referee.game.rules.colours[seat]
    if question.kind is QuestionKind.BOT_SEAT:
        return leave(referee, seat, now, bot=yes)
    if not yes:
        referee.notice(f"{colour} plays on")
    elif referee.bots_available:
        referee.ask(TableQuestion(
            QuestionKind.BOT_SEAT,
            f"a bot plays on for {colour}? ROLL: a bot takes the seat, CANCEL: the armies only defend",
            player_rgb(colour, referee.palette), seat))
    else:
        return leave(referee, seat, now)
    return ""


def leave(referee: Desk, seat: int, now: float, *, bot: bool = False) -> str:
    """`seat` leaves: a bot takes the seat (when asked and the table has bots: the app seats it from the
    `SeatToBot` effect), or `Leave(seat)` is applied. Refused like a tap: the reason is returned ("": done)."""
    game = referee.game
    colour = game.rules.colours[seat] if 0 <= seat < game.players else f"seat {seat}"
    if bot:
        if not referee.bots_available or game.over or game.eliminated[seat] or game.left[seat]:
            return "no bot can take that seat"
        referee.give(SeatToBot(seat, now))
        referee.note(f"a bot plays on for {colour}")
        referee.notice(f"a bot plays on for {colour}")
        return ""
    refused = game.check(Leave(seat))
    if refused is not None:
        return refused
    if seat == game.current:
        referee.clear_selection()
    referee.apply_action(Leave(seat), now)
    referee.notice(f"{colour} left the game: the armies stay and only defend")
    return ""
