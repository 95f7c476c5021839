"""RULES.md §5 from the phones: the host makes a player leave (or hands the seat to a bot), the public view shows
who left and the turn's time left."""

from __future__ import annotations

import json

import pytest

from conquista.errors import BadMessage
from conquista.rules.actions import Leave
from conquista.table.effects import SeatToBot
from conquista.table.inputs import OfferBots
from conquista.web.companion import ClaimSeat, HostLeave, Refusal
from conquista.web.messages import to_command
from tests.rules.helpers import position
from tests.web.helpers import make_board


def _board_past_setup(limit: int = 0):  # type: ignore[no-untyped-def]
    board = make_board(first_seat_hosts=True)
    board.companion.submit(ClaimSeat(1, 1))
    board.step()
    board.grant()                   # blue's phone hosts
    game = position("italian", players=3, owners={"alaska": 0, "kamchatka": 2}, turn_time_limit_s=limit)
    board.referee.reset(game, board.now)
    board.step()
    return board


def test_the_host_makes_a_player_leave_through_the_referee() -> None:
    board = _board_past_setup()
    board.companion.submit(HostLeave(1, 0, 2))     # not the host: ignored
    board.step()
    assert not any(board.referee.game.left)
    board.companion.submit(HostLeave(1, 1, 2))
    board.step()
    assert board.referee.game.log[-1] == Leave(2)
    public = json.loads(board.companion.latest.public)  # type: ignore[union-attr]
    assert [s["left"] for s in public["seats"]] == [False, False, True]
    host = json.loads(board.companion.latest.host)  # type: ignore[union-attr]
    assert host["may_leave"] == [0, 1] and host["bot_takeover"] is False
    board.companion.submit(HostLeave(1, 1, 2))
    board.step()
    refusal = [item for item in board.sent if isinstance(item, Refusal)][-1]
    assert refusal.reason == "yellow is no longer playing"


def test_the_host_hands_a_seat_to_a_bot() -> None:
    board = _board_past_setup()
    seated: list[int] = []
    board.referee.step(OfferBots(True), board.now)   # the app has bots, and seats one from the referee's SeatToBot
    board.router.on(SeatToBot, lambda _referee, effect: seated.append(effect.seat))
    board.companion.submit(HostLeave(1, 1, 0, bot=True))
    board.step()
    assert seated == [0] and not any(board.referee.game.left)
    assert 0 in board.companion.seats.bots and board.companion.bot_kinds[0] == "normal"


def test_the_public_view_carries_the_time_left() -> None:
    board = _board_past_setup(limit=60)
    board.step(10.0)
    clock = json.loads(board.companion.latest.public)["clock"]  # type: ignore[union-attr]
    assert clock["limit"] == 60 and clock["left"] is not None and clock["left"] <= 60
    assert json.loads(_board_past_setup().companion.latest.public)["clock"]["left"] is None  # type: ignore[union-attr]


def test_the_leave_message_is_the_hosts_only_and_well_formed() -> None:
    ids = ("alaska",)
    assert to_command({"type": "leave", "seat": 2, "bot": False}, 5, 1, 1, ids) == HostLeave(5, 1, 2, False)
    with pytest.raises(BadMessage, match="only the host"):
        to_command({"type": "leave", "seat": 2, "bot": False}, 5, 0, 1, ids)
    with pytest.raises(BadMessage, match="bot must be true or false"):
        to_command({"type": "leave", "seat": 2}, 5, 1, 1, ids)


def test_a_seat_handed_to_a_bot_at_the_board_unbinds_its_phone_at_once() -> None:
    from conquista.table.gestures import Button, HeldDown, Press
    from conquista.web.companion import Unseated
    from tests.web.helpers import seat_phone

    board = make_board()
    board.referee.step(OfferBots(True), board.now)
    board.referee.reset(position("italian", players=3, owners={"alaska": 0, "kamchatka": 2}), board.now)
    seat_phone(board, 0, connection=4)                 # red's phone; red is to move
    board.referee.handle(HeldDown(Button.CANCEL), board.now)   # CANCEL held at the board: leave?
    board.referee.handle(Press(Button.ROLL), board.now)        # yes
    board.referee.handle(Press(Button.ROLL), board.now)        # a bot plays on
    board.step()                                        # its SeatToBot routed to the phones
    gone = [item for item in board.sent if isinstance(item, Unseated)]
    assert gone and gone[-1].seat == 0 and "bot" in gone[-1].reason
    assert 0 in board.companion.seats.bots and board.companion.seats.seat_of(board.tokens[4]) == -1


def test_the_clocks_go_out_as_moments_on_the_boards_clock() -> None:
    """A screen opened late counts from the moments the view names (issue 29), with the board's now from the
    server: the turn's start, and with a limit the moment it runs out while it runs."""
    board = _board_past_setup(limit=90)
    started = board.now
    for _ in range(40):
        board.step(0.25)                        # 10 s of the turn
    board.referee.version += 1                  # a change: the views are built again
    board.step()
    clock = json.loads(board.companion.latest.public)["clock"]  # type: ignore[union-attr]
    assert abs(clock["started"] - started) < 0.2 and clock["seconds"] >= 10
    assert clock["left"] is not None and clock["deadline"] is not None
    assert abs(clock["deadline"] - (board.referee.now + clock["left"])) < 0.05   # the same moment for every screen
    board.companion.wall = lambda: 1000.0        # the server's clock: the board's time at publish plus the wall's since
    board.step()
    anchor = board.now
    board.companion.wall = lambda: 1007.5
    assert board.companion.board_now() == pytest.approx(anchor + 7.5)
