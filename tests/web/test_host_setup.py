"""The host's phone sets up a game through the board loop: bot seats and their kind, automatic defence, committed
dice, or a saved game resumed; each checked there, journalled, and refused to the host's screen alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conquista.dice.sources import CommittedDice
from conquista.journal import GameJournal
from conquista.table.colours import Palette
from conquista.web.companion import ClaimAnswer, ClaimSeat, GameSetUp, HostNewGame, Refusal
from tests.journal.helpers import raw_rows
from tests.web.helpers import Board, host_set_up, make_board, seat_host


def refusals(board: Board) -> list[str]:
    return [item.reason for item in board.sent if isinstance(item, Refusal)]


def act(board: Board) -> None:
    """One action at the board (an army placed): a game is saved from its first action."""
    from conquista.table.gestures import Tap

    game = board.referee.game
    board.now += 0.1
    board.referee.handle(Tap(game.owner.index(game.current)), board.now)
    board.step()


def set_up(board: Board, setup: GameSetUp, seat: int = 2) -> None:
    board.companion.submit(HostNewGame(1, seat, setup))
    board.step()


@pytest.fixture
def journalled(tmp_path: Path) -> tuple[Board, GameJournal]:
    board = make_board(first_seat_hosts=True)
    journal = GameJournal(tmp_path)
    board.journal_to(journal)
    board.companion.new_game = host_set_up(board, journal)
    board.companion.saved_games = board.companion.new_game.saved
    seat_host(board)
    return board, journal


def test_bot_seats_and_their_kinds_are_set_up_and_journalled(journalled: tuple[Board, GameJournal],
                                                              tmp_path: Path) -> None:
    board, journal = journalled
    set_up(board, GameSetUp("italian", 4, ((1, "random"), (3, "greedy"))))
    assert refusals(board) == []
    assert board.referee.game.players == 4 and board.companion.seats.bots == frozenset({1, 3})
    assert board.companion.bot_kinds == {1: "random", 3: "greedy"}
    assert journal.seats == ("human", "random", "human", "greedy")
    snapshot = board.companion.latest
    assert snapshot is not None
    host = json.loads(snapshot.host)
    assert host["bots"] == [1, 3] and host["bot_kinds"] == {"1": "random", "3": "greedy"}
    assert "greedy" in host["bot_names"] and "random" in host["bot_names"]
    assert [s["bot"] for s in json.loads(snapshot.public)["seats"]] == [False, True, False, True]
    board.companion.submit(ClaimSeat(5, 1))                  # a bot's seat is not for a phone
    board.step()
    answer = board.answers()[-1]
    assert isinstance(answer, ClaimAnswer) and answer.state == "refused" and "bot" in answer.reason
    act(board)                                               # the journal holds the game from its first action
    journal.flush()
    assert journal.game_id is not None
    store = journal.store
    assert store is not None and store.info(journal.game_id).seats == ("human", "random", "human", "greedy")


def test_the_host_s_own_seat_is_never_a_bot(journalled: tuple[Board, GameJournal]) -> None:
    board, _journal = journalled
    set_up(board, GameSetUp("italian", 3, ((2, "greedy"),)))
    assert refusals(board) == ["your own seat cannot be a bot: you are playing it"]
    assert board.companion.seats.bots == frozenset()


def test_an_all_bot_game_and_unknown_kinds_are_refused(journalled: tuple[Board, GameJournal]) -> None:
    board, _journal = journalled
    set_up(board, GameSetUp("italian", 3, ((0, "greedy"), (1, "skynet"))))
    assert "unknown bot 'skynet'" in refusals(board)[-1]


def test_a_seat_a_bot_now_plays_loses_its_phone(journalled: tuple[Board, GameJournal]) -> None:
    board, _journal = journalled
    board.companion.submit(ClaimSeat(4, 0))
    board.step()
    board.grant()
    assert board.companion.seats.phones() == frozenset({0, 2})
    set_up(board, GameSetUp("italian", 3, ((0, "greedy"),)))
    assert board.companion.seats.phones() == frozenset({2}) and board.companion.host_seat == 2


def test_automatic_defence_is_a_house_switch_saved_with_the_game(journalled: tuple[Board, GameJournal],
                                                                 tmp_path: Path) -> None:
    board, journal = journalled
    assert board.referee.game.rules.automatic_defence                       # italian: on
    set_up(board, GameSetUp("italian", 3, automatic_defence=False))
    game = board.referee.game
    assert not game.rules.automatic_defence and game.rules.name == "italian"
    assert json.loads(board.companion.latest.host)["switches"]["automatic defence"] is False  # type: ignore[union-attr]
    act(board)
    journal.flush()
    assert journal.game_id is not None
    header = json.loads(raw_rows(tmp_path, journal.game_id)[0])
    assert header["ruleset"]["automatic_defence"] is False                  # a replay defends the same way


def test_the_tournament_ending_and_the_palette_from_the_host_form(journalled: tuple[Board, GameJournal],
                                                                  tmp_path: Path) -> None:
    board, journal = journalled
    set_up(board, GameSetUp("classic", 3, tournament_ending=True, palette=Palette.COLOUR_BLIND))
    assert refusals(board) == []
    game = board.referee.game
    assert game.rules.tournament_ending and board.referee.palette is Palette.COLOUR_BLIND
    assert "with the tournament ending" in board.referee.message
    snapshot = board.companion.latest
    assert snapshot is not None
    host = json.loads(snapshot.host)
    assert host["switches"]["tournament ending"] is True and host["palette"] == "colour-blind"
    assert {"name": "classic", "tournament_ending": False}.items() <= next(
        r for r in host["rulesets"] if r["name"] == "classic").items()
    tournament = snapshot.public_dict()["tournament"]
    assert tournament["stage"] == "clock" and tournament["clock"] == "1:30:00" and len(tournament["points"]) == 3
    act(board)
    journal.flush()
    assert journal.game_id is not None
    header = json.loads(raw_rows(tmp_path, journal.game_id)[0])
    assert header["ruleset"]["tournament_ending"] is True                   # a resumed game keeps it
    set_up(board, GameSetUp("classic", 3))                                  # no palette asked: the board's stays
    assert not board.referee.game.rules.tournament_ending and board.referee.palette is Palette.COLOUR_BLIND
    assert board.companion.latest is not None and board.companion.latest.public_dict()["tournament"] is None


def test_committed_dice_deal_and_roll_from_a_commitment_shown_at_once(journalled: tuple[Board, GameJournal],
                                                                      tmp_path: Path) -> None:
    board, journal = journalled
    set_up(board, GameSetUp("italian", 3, committed_dice=True))
    dice = board.referee.dice
    assert isinstance(dice, CommittedDice)
    assert dice.commitment in board.referee.message
    snapshot = board.companion.latest
    assert snapshot is not None and dice.commitment in snapshot.public_dict()["message"]
    assert json.loads(snapshot.host)["switches"]["committed dice"] is True
    act(board)
    journal.flush()
    assert journal.game_id is not None
    header = json.loads(raw_rows(tmp_path, journal.game_id)[0])
    assert header["dice"]["commitment"] == dice.commitment and "seed" not in json.dumps(header["dice"])
    set_up(board, GameSetUp("italian", 3))                                  # and back to the board's own dice
    assert not isinstance(board.referee.dice, CommittedDice)


def test_the_host_resumes_a_saved_game(journalled: tuple[Board, GameJournal]) -> None:
    board, journal = journalled
    first_game = board.referee.game
    act(board)                                                  # something to save in the first game
    journal.flush()
    first = journal.game_id
    assert first is not None
    set_up(board, GameSetUp("classic", 4))
    act(board)
    journal.flush()
    assert journal.game_id not in (None, first)
    host = json.loads(board.companion.latest.host)              # type: ignore[union-attr]
    assert [g["id"] for g in host["saved"]] == [first] and host["saved"][0]["rules"] == "italian"
    set_up(board, GameSetUp(resume=first))
    game = board.referee.game
    assert journal.game_id == first and game.rules.name == "italian" and len(game.log) == len(first_game.log)
    assert board.referee.message.startswith(f"saved game {first} resumed")
    set_up(board, GameSetUp(resume=first))                      # the one on the board
    set_up(board, GameSetUp(resume=999))                        # no such game
    assert "is the one on the board" in refusals(board)[-2] and refusals(board)[-1]
    assert journal.game_id == first


def test_without_a_journal_nothing_is_resumed() -> None:
    board = make_board(first_seat_hosts=True)
    board.companion.new_game = host_set_up(board)
    seat_host(board)
    set_up(board, GameSetUp(resume=1))
    assert "keeps no saved games" in refusals(board)[-1]


def test_the_real_board_plays_no_bots_yet(tmp_path: Path) -> None:
    from conquista.cli.play_cmd import _host_set_up
    from conquista.cli.table_dice import TableDice

    board = make_board(first_seat_hosts=True)
    with GameJournal(tmp_path) as journal:
        board.companion.new_game = _host_set_up(journal, board.referee.game.map, TableDice("os", None, journal, print))
        seat_host(board)
        set_up(board, GameSetUp("italian", 3, ((1, "greedy"),)))
        assert "no bot player" in refusals(board)[-1] and board.companion.seats.bots == frozenset()
        set_up(board, GameSetUp("italian", 4, committed_dice=True))
        assert isinstance(board.referee.dice, CommittedDice) and board.referee.game.players == 4


def test_a_game_resumed_from_the_phone_is_playing_at_once(journalled: tuple[Board, GameJournal]) -> None:
    from conquista.journal import PLAYING

    board, journal = journalled
    act(board)
    journal.flush()
    first = journal.game_id
    assert first is not None
    set_up(board, GameSetUp("classic", 4))                      # the first game is abandoned ...
    act(board)
    journal.flush()
    set_up(board, GameSetUp(resume=first))                      # ... and resumed: `conquista games` says playing
    assert journal.store is not None and journal.store.info(first).status == PLAYING
