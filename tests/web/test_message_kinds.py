"""Issue 21 §3: the referee's line of words has a kind, and only a refusal is shown as one: the terminal's "!" and
the phone's refusal red. A notice (a seat granted, a player who plays on, a new game) is plain words."""

from __future__ import annotations

from conquista.rules.events import Phase
from conquista.table.gestures import Button, Press
from conquista.table.inputs import Fault, FaultSource
from conquista.table.referee_records import MessageKind
from conquista.web.companion import ClaimSeat
from conquista.web.views import seat_view
from conquista_sim.board_view import status_lines
from tests.web.helpers import Board, make_board


def _claim_granted() -> tuple[Board, int]:
    board = make_board()
    holder = board.referee.game.to_move
    assert isinstance(holder, int)
    asked = (holder + 1) % board.referee.game.players
    board.companion.submit(ClaimSeat(7, asked))
    board.step()
    board.grant()
    return board, holder


def test_a_granted_seat_is_a_notice_on_the_movers_phone_not_a_refusal() -> None:
    board, holder = _claim_granted()
    referee = board.referee
    assert "seat goes to the phone that asked for it" in referee.message
    assert referee.message_kind is MessageKind.NOTICE
    view = seat_view(referee.view(), holder)
    assert view["refused"] == "" and "seat goes to the phone" in view["said"]


def test_a_refused_press_is_a_refusal_on_the_movers_phone() -> None:
    board = make_board()
    referee = board.referee
    holder = referee.game.to_move
    assert isinstance(holder, int) and referee.game.phase is Phase.SETUP
    board.now += 0.1
    referee.handle(Press(Button.ROLL), board.now)     # nothing to confirm while armies are placed at set-up
    assert referee.message and referee.message_kind is MessageKind.REFUSAL
    view = seat_view(referee.view(), holder)
    assert view["refused"] == referee.message and view["said"] == ""


def test_the_terminal_marks_only_a_refusal_with_an_exclamation_mark() -> None:
    board, _holder = _claim_granted()
    referee = board.referee
    notice = status_lines(referee.status()).plain
    assert "seat goes to the phone" in notice and "!" not in notice
    board.now += 0.1
    referee.handle(Press(Button.ROLL), board.now)
    refusal = status_lines(referee.status()).plain
    assert f"! {referee.message}" in refusal


def test_a_notice_set_after_a_refusal_changes_the_kind_and_back() -> None:
    board = make_board()
    referee = board.referee
    referee.message = "not now"
    assert referee.status().message_kind is MessageKind.REFUSAL
    referee.notice("a bot plays on for red")
    assert referee.message == "a bot plays on for red"
    assert referee.status().message_kind is MessageKind.NOTICE
    referee.message = ""
    referee.step(Fault(FaultSource.STORAGE, "the journal's disk is full"), referee.now)
    status = referee.status()
    assert status.message == "the journal's disk is full" and status.message_kind is MessageKind.WARNING
