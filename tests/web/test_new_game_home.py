"""One home for "start a game" (`Referee.start`): the set-up menu at the board, the host's phone and the resume
question all call it; the phones follow the new seats from its effect at once, whoever started the game."""

from __future__ import annotations

import random

from conquista.app.setup import NewGameAtBoard
from conquista.bots import make_bot
from conquista.dice.chance import new_game
from conquista.rules.mapdata import load_map
from conquista.table.bot_player import BotSeats
from conquista.table.effects import GameStarted
from conquista.table.referee_records import MessageKind
from conquista.table.setup_menu import SetupChoice
from tests.rules.helpers import dealt
from tests.web.helpers import make_board, seat_phone


def test_a_game_started_at_the_board_unbinds_the_phone_of_a_seat_a_bot_now_plays() -> None:
    board = make_board(players=3)
    seat_phone(board, 1, connection=5)
    assert 1 in board.companion.seats.phones()
    bots = BotSeats(lambda kind: make_bot(kind, random.Random(1)), {})
    game_map = load_map()
    at_board = NewGameAtBoard(lambda rules, players: new_game(rules, game_map, players, random.Random(2)), bots,
                              board.router)
    # No on_started hook: the companion follows the seats from the referee's effect alone.
    at_board.start(board.referee, SetupChoice("italian", 3, {1: "greedy"}), board.now)
    board.step()
    assert 1 not in board.companion.seats.phones() and board.companion.bot_kinds == {1: "greedy"}
    assert board.referee.message_kind is MessageKind.NOTICE and "a new game of italian" in board.referee.message
    assert bots.seats == frozenset({1})


def test_start_resets_says_and_reports_the_seats() -> None:
    board = make_board(players=3)
    referee = board.referee
    game = dealt("italian", 4, seed=9)
    referee.start(game, 1.0, "a new game starts")
    assert referee.game is game and referee.message == "a new game starts"
    board.step()
    assert board.companion.seats.players == 4
    referee.start(dealt("italian", 3, seed=9), 2.0, "game 2 resumed", bots={0: "greedy"})
    assert referee.take_effects() == [GameStarted(3, {0: "greedy"})]
