"""Who hosts is the referee's to decide (issue 36 §3): the first seat a phone is granted hosts a table set up from
a phone, the host's settings reach the referee as `AsHost` and are refused to any other seat in words, and a host
handed to a bot or left out of a new game hosts no more."""

from __future__ import annotations

from conquista.table import inputs
from conquista.table.effects import PhoneRefused
from conquista.web.companion import ClaimSeat, HostDice, HostPause
from conquista.web.wire import Refusal
from tests.web.helpers import Board, make_board


def _grant(board: Board, connection: int, seat: int) -> None:
    board.companion.submit(ClaimSeat(connection, seat))
    board.step()
    board.grant()
    board.step()


def test_the_first_seat_granted_hosts_and_only_its_phone_changes_the_set_up() -> None:
    board = make_board(first_seat_hosts=True)
    assert board.referee.view().host == -1
    _grant(board, 5, 1)
    _grant(board, 6, 2)
    assert board.referee.view().host == 1 and board.companion.host_seat == 1
    board.sent.clear()
    board.companion.submit(HostPause(2, True, 6))        # blue's phone is not the host's
    board.step()
    assert not board.referee.view().paused
    assert Refusal(6, "only the host's phone can change the game's set-up") in board.sent
    board.companion.submit(HostDice(2, True, 6))
    board.step()
    assert not board.referee.view().physical_dice
    board.companion.submit(HostPause(1, True, 5))
    board.step()
    assert board.referee.view().paused


def test_a_table_set_up_at_the_command_line_has_no_host() -> None:
    board = make_board(first_seat_hosts=False)
    _grant(board, 5, 1)
    assert board.referee.view().host == -1
    board.companion.submit(HostPause(1, True, 5))
    board.step()
    assert not board.referee.view().paused


def test_a_host_handed_to_a_bot_or_left_out_of_a_new_game_hosts_no_more() -> None:
    board = make_board(first_seat_hosts=True)
    _grant(board, 5, 0)
    referee = board.referee
    assert referee.view().host == 0
    out = referee.step(inputs.AsHost(1, 9, inputs.SetPhysicalDice(True)), board.now)
    assert out == [PhoneRefused(9, "only the host's phone can change the game's set-up")]
    referee.step(inputs.OfferBots(True), board.now)
    referee.step(inputs.AsHost(0, 5, inputs.LeaveSeat(0, True, 5)), board.now)   # the host gives its seat to a bot
    assert referee.view().host == -1
    _grant(board, 6, 2)
    assert referee.view().host == 2                       # the next seat granted hosts
    referee.start(referee.view().game, board.now, "a new game", bots={2: "normal"})
    assert referee.view().host == -1
