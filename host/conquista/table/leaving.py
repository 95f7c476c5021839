"""A player leaving at the board (docs/rules.md, "Table features"). Pure: time is passed in; the referee applies an
explicit, journalled `Leave`.

CANCEL held down for `LEAVE_HOLD_S` on one's own turn asks "leave the game?"; ROLL confirms. When the table has bots
(`Referee.bots_available`), a second question offers a bot for the seat instead: ROLL seats the bot (a `SeatToBot`
effect: the app seats it), CANCEL leaves the armies to defend by themselves. Both questions are values
(table/questions.py) whose answer is a pure function of the question (`answered`): no callback is held. The host's
phone does the same through `leave`. Each returns what the table does (table/decisions.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.actions import Leave
from conquista.table.colours import player_rgb
from conquista.table.decisions import Apply, Ask, ClearSelection, Decisions, Give, Log, Notice, Refuse
from conquista.table.effects import SeatToBot
from conquista.table.questions import QuestionKind, TableQuestion

if TYPE_CHECKING:
    from conquista.table.table_state import TableState

LEAVE_HOLD_S = 3.0      # CANCEL held this long on one's turn asks to leave (NEXT held 5 s is the power-off question)
OWN = (QuestionKind.LEAVE, QuestionKind.BOT_SEAT)   # the questions the table answers itself


def ask_to_leave(state: TableState) -> Decisions:
    """CANCEL held down on one's turn: ask whether the current player leaves; or say why not."""
    game = state.game
    if not state.mode.takes_play:
        return (Refuse("not now", quiet=True),)
    seat = game.current
    refused = game.check(Leave(seat))
    if refused is not None:
        return (Refuse(refused, quiet=True),)
    colour = game.rules.colours[seat]
    return (Ask(TableQuestion(QuestionKind.LEAVE,
                              f"{colour} leaves the game? the armies stay and only defend. ROLL: yes, CANCEL: no",
                              player_rgb(colour, state.palette), seat)),)


def answered(state: TableState, question: TableQuestion, yes: bool, now: float) -> Decisions:
    """The answer to one of the table's own questions (`OWN`), from the question alone; a refusal's reason, if
    leaving is refused by then."""
    seat = question.subject
    colour = state.game.rules.colours[seat]
    if question.kind is QuestionKind.BOT_SEAT:
        refused, decided = leave(state, seat, now, bot=yes)
        return (Refuse(refused, quiet=True),) if refused else decided
    if not yes:
        return (Notice(f"{colour} plays on"),)
    if state.bots_available:
        return (Ask(TableQuestion(
            QuestionKind.BOT_SEAT,
            f"a bot plays on for {colour}? ROLL: a bot takes the seat, CANCEL: the armies only defend",
            player_rgb(colour, state.palette), seat)),)
    refused, decided = leave(state, seat, now)
    return (Refuse(refused, quiet=True),) if refused else decided


def leave(state: TableState, seat: int, now: float, *, bot: bool = False) -> tuple[str, Decisions]:
    """`seat` leaves: a bot takes the seat (when asked and the table has bots: the app seats it from the
    `SeatToBot` effect), or `Leave(seat)` is applied. Refused like a tap: the reason ("": done), or what the table
    does."""
    game = state.game
    colour = game.rules.colours[seat] if 0 <= seat < game.players else f"seat {seat}"
    if not state.mode.takes_play:
        return "not now", ()
    if bot:
        if not state.bots_available or game.over or game.eliminated[seat] or game.left[seat]:
            return "no bot can take that seat", ()
        return "", (Give(SeatToBot(seat, now)), Log(f"a bot plays on for {colour}"),
                    Notice(f"a bot plays on for {colour}"))
    refused = game.check(Leave(seat))
    if refused is not None:
        return refused, ()
    cleared: Decisions = (ClearSelection(),) if seat == game.current else ()
    return "", (*cleared, Apply(Leave(seat)), Notice(f"{colour} left the game: the armies stay and only defend"))
