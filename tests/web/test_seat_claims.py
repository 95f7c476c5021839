"""Seat claims are their own input (issue problems 1–4): a claim never takes a gesture meant for the game, the menu
or another question; the table plays on while it waits; one screen cannot stop the table; a fresh board seats its
host; a seat that changes hands unbinds its phones."""

from __future__ import annotations

from conquista.dice.sources import SeededDice
from conquista.rules.actions import Attack, Place
from conquista.table.gestures import Button, Press, Tap
from conquista.table.questions import QuestionKind, TableQuestion
from conquista.table.referee import Referee
from conquista.web.companion import ClaimSeat, ClaimState, Companion, RefuseClaim, SeatGesture, SeatNotice, Unseated
from conquista.web.seats import SeatBook
from tests.rules.helpers import dealt, position
from tests.web.helpers import Board, make_board, seat_phone


def attacking_board() -> Board:
    """Red (seat 0) to attack Kamchatka from Alaska; blue holds the rest."""
    game = position("italian", 3, owners={"alaska": 0}, armies={"alaska": 5}, default_owner=1)
    board = Board(Referee(game, SeededDice(1)), Companion(SeatBook(3)))
    board.companion.send = board.sent.append
    return board


def test_a_claim_never_takes_the_roll_meant_for_the_attack() -> None:
    board = attacking_board()
    seat_phone(board, 0, connection=10)                           # red's phone
    seat_phone(board, 1, connection=11)                           # blue's seat is held by a phone
    game = board.referee.game
    alaska, kamchatka = game.map.index("alaska"), game.map.index("kamchatka")
    for gesture in (Tap(alaska), Tap(kamchatka)):
        board.now += 0.1
        board.referee.handle(gesture, board.now)
    board.companion.submit(ClaimSeat(12, 1))                     # a stranger asks for blue's seat
    board.step()
    assert board.answers()[-1].state is ClaimState.ASKED
    assert board.referee.status().pending.startswith("Alaska → Kamchatka")   # red's line still says how to roll
    assert "blue" in board.referee.status().claim                 # the claim has a line of its own
    board.companion.submit(SeatGesture(0, Press(Button.ROLL)))   # red's ROLL from the phone rolls
    board.step()
    assert any(isinstance(a, Attack) for a in game.log)
    board.press_roll()                                           # and the ROLL at the board too
    assert board.answers()[-1].state is ClaimState.ASKED          # no seat was given away
    assert board.companion.seats.seat_of(board.tokens[11]) == 1
    # The claim is granted only by ROLL and NEXT pressed together.
    board.grant()
    assert board.answers()[-1].state is ClaimState.GRANTED and board.answers()[-1].connection == 12


def test_the_seats_holder_is_told_of_a_claim_and_may_refuse_it() -> None:
    board = make_board()
    seat_phone(board, 1, connection=11)
    board.companion.submit(ClaimSeat(12, 1))
    board.step()
    notices = [item for item in board.sent if isinstance(item, SeatNotice)]
    assert notices and notices[-1].seat == 1 and "asks for" in notices[-1].text
    board.companion.submit(RefuseClaim(1))
    board.step()
    assert board.answers()[-1].state is ClaimState.REFUSED and board.answers()[-1].connection == 12


def test_one_screen_cannot_stop_the_table() -> None:
    board = make_board()
    game = board.referee.game
    me = game.current
    seat_phone(board, me, connection=9)                          # the mover's phone
    board.companion.submit(ClaimSeat(5, 1))
    board.step()
    board.now += 0.1
    board.referee.handle(Press(Button.CANCEL), board.now)        # CANCEL at the board means "undo", not "refuse"
    board.step()
    assert board.answers()[-1].state is ClaimState.ASKED
    before = len(game.log)
    board.companion.submit(SeatGesture(me, Tap(game.owner.index(me))))   # the table plays on meanwhile
    board.step()
    assert len(game.log) == before + 1 and isinstance(game.log[-1], Place)
    for _ in range(31):                                          # the claim expires ...
        board.step(1.0)
    assert board.answers()[-1].state is ClaimState.EXPIRED
    board.companion.submit(ClaimSeat(5, 1))                      # ... and cannot be raised again from that screen
    board.step()
    assert board.answers()[-1].state is ClaimState.REFUSED and "30 s" in board.answers()[-1].reason
    board.companion.submit(ClaimSeat(5, 2))                      # for any seat
    board.step()
    assert board.answers()[-1].state is ClaimState.REFUSED
    seat_phone(board, 2, connection=20)
    for screen in range(100, 120):                               # many screens: the board takes a few a minute
        board.companion.submit(ClaimSeat(screen, 2))
        board.step()
        board.companion.submit(RefuseClaim(2))                   # each refused at once by the seat's phone
        board.step()
    refused = [a for a in board.answers() if a.connection >= 100 and a.state is ClaimState.REFUSED
               and "minute" in a.reason]
    assert refused, "the board takes a bounded number of claims a minute"


def test_a_fresh_board_seats_its_host_during_the_set_up_menu() -> None:
    from conquista.app.setup import NewGameAtBoard
    from conquista.bots import make_bot
    from conquista.table.bot_player import BotSeats
    from tests.app.test_setup_menu_app import deal

    board = make_board(first_seat_hosts=True)
    NewGameAtBoard(deal, BotSeats(make_bot), board.router, rules="italian", players=3
                   ).offer(board.referee)
    board.step()
    board.companion.submit(ClaimSeat(3, 0))
    board.step()
    described = board.referee.status().pending
    board.press_roll()                                           # ROLL moves the menu on ...
    assert board.referee.menu is not None and board.referee.status().pending != described
    assert board.answers()[-1].state is ClaimState.ASKED         # ... and leaves the claim open
    board.grant()
    assert board.answers()[-1].state is ClaimState.GRANTED and board.companion.host_seat == 0


def test_a_claim_is_answered_during_the_resume_question() -> None:
    board = make_board(first_seat_hosts=True)
    board.referee.ask(TableQuestion(QuestionKind.OTHER, "unfinished game 1: ROLL resumes it, CANCEL starts a new one"))
    board.companion.submit(ClaimSeat(3, 0))
    board.step()
    assert board.answers()[-1].state is ClaimState.ASKED
    board.grant()
    assert board.answers()[-1].state is ClaimState.GRANTED
    assert board.referee.prompt                                  # the question is still the board's


def test_a_seat_given_to_a_bot_unbinds_its_phone_at_once() -> None:
    board = make_board()
    seat_phone(board, 1, connection=11)
    game = dealt("italian", 3, seed=8)                          # a new game in which seat 1 is a bot
    board.referee.start(game, board.now, "a new game starts", bots={1: "greedy"})
    board.step()                                                # its GameStarted routed once, to every phone
    gone = [item for item in board.sent if isinstance(item, Unseated)]
    assert gone and gone[-1].seat == 1 and "bot" in gone[-1].reason
    assert board.companion.seats.seat_of(board.tokens[11]) == -1
    board.companion.submit(SeatGesture(1, Press(Button.NEXT)))   # the old phone's commands are not taken
    assert 1 not in board.companion.seats.phones()


def test_a_screen_that_closes_takes_its_waiting_claim_with_it() -> None:
    from conquista.web.companion import ScreenClosed

    board = make_board()
    board.companion.submit(ClaimSeat(5, 1))
    board.step()
    assert board.referee.claims.open is not None
    board.companion.submit(ScreenClosed(5))
    board.step()
    assert board.referee.claims.open is None
    board.companion.submit(ClaimSeat(6, 1))                      # another screen may ask at once
    board.step()
    assert board.answers()[-1].state is ClaimState.ASKED
