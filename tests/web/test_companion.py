"""The board loop's side: claims granted only by ROLL at the board, phone commands through the referee."""

from __future__ import annotations

from pathlib import Path

from conquista.rules.actions import Place, Trade
from conquista.rules.events import Phase
from conquista.table.colours import OFF, player_rgb
from conquista.table.gestures import Button, LongPress, Press, Tap
from conquista.web.companion import ClaimSeat, HostPause, RefuseClaim, SeatGesture, SeatTrade, Snapshot
from conquista.web.messages import to_command
from tests.rules.helpers import edited, position, tid
from tests.web.helpers import host_set_up, make_board


def test_claim_is_granted_only_when_roll_and_next_are_pressed_together_at_the_board() -> None:
    board = make_board()
    board.companion.submit(ClaimSeat(7, 1))
    board.step()
    assert [a.state for a in board.answers()] == ["asked"]
    colour = player_rgb(board.referee.game.rules.colours[1])
    ring = board.referee.scene(board.now - board.now % 1.0).ring
    assert ring[len(ring) // 2] == colour and colour not in ring[:2]   # the ring's foot flashes blue
    assert board.companion.seats.phones() == frozenset()
    board.press_roll()                                   # ROLL alone is the game's
    assert [a.state for a in board.answers()] == ["asked"]
    board.grant()
    granted = board.answers()[-1]
    assert granted.state == "granted" and granted.connection == 7 and granted.grant is not None
    assert board.companion.seats.seat_of(granted.grant.token) == 1
    assert len(granted.grant.token) >= 32 and granted.grant.token not in repr(granted)
    assert not board.referee.prompt


def test_claim_without_roll_expires_after_30_seconds_and_is_never_granted() -> None:
    board = make_board()
    board.companion.submit(ClaimSeat(1, 0))
    board.step()
    for _ in range(31):
        board.step(1.0)
    assert [a.state for a in board.answers()] == ["asked", "expired"]
    assert not board.referee.prompt and board.companion.seats.phones() == frozenset()
    board.grant()   # a late chord grants nothing
    assert [a.state for a in board.answers()] == ["asked", "expired"]


def test_a_second_claim_waits_for_the_first_and_the_seats_phone_refuses() -> None:
    board = make_board(bots=frozenset({2}))
    board.companion.submit(ClaimSeat(1, 0))
    board.companion.submit(ClaimSeat(2, 1))
    board.companion.submit(ClaimSeat(3, 2))
    board.companion.submit(ClaimSeat(4, 9))
    board.step()
    states = [(a.connection, a.state) for a in board.answers()]
    assert states == [(1, "asked"), (2, "refused"), (3, "refused"), (4, "refused")]
    assert "bot" in board.answers()[2].reason and "no seat 9" in board.answers()[3].reason
    board.referee.handle(Press(Button.CANCEL), board.now)   # CANCEL at the board is the game's
    board.step()
    assert len(board.answers()) == 4 and board.referee.claims.open is not None
    board.grant()
    assert board.companion.seats.seat_of(board.tokens[1]) == 0
    board.companion.submit(ClaimSeat(5, 0))
    board.companion.submit(RefuseClaim(0))                  # the seat's phone says no
    board.step()
    assert [(a.connection, a.state) for a in board.answers()[-2:]] == [(5, "asked"), (5, "refused")]


def test_first_seat_granted_is_the_host_only_when_not_set_up_from_the_command_line() -> None:
    for first_hosts, host in ((True, 2), (False, -1)):
        board = make_board(first_seat_hosts=first_hosts)
        for seat in (2, 0):
            board.companion.submit(ClaimSeat(seat, seat))
            board.step()
            board.grant()
        assert board.companion.host_seat == host


def test_phone_commands_act_only_for_the_seat_to_move_and_are_recorded_like_taps() -> None:
    board = make_board()
    applied = board.applied_from_now()
    game = board.referee.game
    me = game.current
    other = (me + 1) % game.players
    mine = game.owner.index(me)
    board.companion.submit(SeatGesture(other, Tap(mine)))
    board.step()
    assert applied == []
    board.companion.submit(SeatGesture(me, Tap(mine)))
    board.step()
    assert applied == [Place(mine, 1)]


def test_a_long_press_from_a_remote_seat_places_a_fleet_through_the_referee() -> None:
    game = position("lamorisse-1954", owners={"alaska": 0, "ukraine": 0}, phase=Phase.REINFORCE,
                    state={"pool": 2, "fleets": [0] * 42})
    board = make_board()
    board.referee.reset(game, 0.0)
    applied = board.applied_from_now()
    message = {"type": "tap", "territory": "alaska", "long": True}
    board.companion.submit(to_command(message, 7, 0, -1, tuple(t.id for t in game.map.territories)))
    board.step()
    assert applied == [Place(tid("alaska"), 1, True)] and game.fleets[tid("alaska")] == 1
    board.companion.submit(SeatGesture(0, LongPress(tid("ukraine"))))
    board.step()
    assert board.referee.message == "Ukraine has no sea link: a fleet needs one" and len(applied) == 1


def test_a_power_card_trade_from_a_phone_goes_through_the_referee() -> None:
    from conquista.rules import power_cards

    eagle = power_cards.EAGLE_BASE
    game = position("lamorisse-1954", owners={"alaska": 0}, phase=Phase.REINFORCE,
                    hands={0: [eagle]}, state={"fleets": [0] * 42})
    board = make_board()
    board.referee.reset(game, 0.0)
    applied = board.applied_from_now()
    board.companion.submit(to_command({"type": "trade", "cards": [eagle]}, 7, 0, -1, ()))
    board.step()
    assert applied == [Trade((eagle,))] and game.pool == 5


def test_trade_from_a_phone_goes_through_the_referee() -> None:
    board = make_board()
    referee = board.referee
    dealt_game = referee.game
    hands: list[list[int]] = [[] for _ in range(dealt_game.players)]
    hands[dealt_game.current] = [tid("alaska"), tid("peru"), tid("brazil"), tid("ontario")]
    referee.reset(edited(dealt_game, phase="reinforce", pool=0, hands=hands), 0.0)
    game = referee.game
    trades = game.valid_trades()
    applied = board.applied_from_now()
    board.companion.submit(SeatTrade((game.current + 1) % game.players, trades[0]))
    board.companion.submit(SeatTrade(game.current, trades[-1]))
    board.step()
    assert applied == [Trade(trades[-1])]


def test_only_the_host_pauses_and_a_paused_game_takes_nothing_from_phones() -> None:
    board = make_board(first_seat_hosts=True)
    board.companion.submit(ClaimSeat(1, 1))
    board.step()
    board.grant()
    board.companion.submit(HostPause(0, True))
    board.step()
    assert not board.referee.fault
    board.companion.submit(HostPause(1, True))
    board.step()
    assert board.referee.fault and board.companion.paused
    me = board.referee.game.current
    before = len(board.referee.game.log)
    board.companion.submit(SeatGesture(me, Tap(board.referee.game.owner.index(me))))
    board.step()
    assert len(board.referee.game.log) == before
    board.companion.submit(HostPause(1, False))
    board.step()
    assert not board.referee.fault and OFF not in board.referee.scene(0.7).ring[:1]


def test_snapshots_are_sent_only_when_something_changed() -> None:
    board = make_board()
    board.step()
    board.step()
    snaps = [s for s in board.sent if isinstance(s, Snapshot)]
    assert len(snaps) == 1
    me = board.referee.game.current
    board.companion.submit(SeatGesture(me, Tap(board.referee.game.owner.index(me))))
    board.step()
    snaps = [s for s in board.sent if isinstance(s, Snapshot)]
    assert len(snaps) == 2 and snaps[1].version == 2
    for mission in board.missions():
        assert mission not in snaps[1].public
    assert board.missions()[me] in snaps[1].seats[me]


def test_only_the_host_gives_a_remote_seat_and_its_token_plays_that_seat() -> None:
    from conquista.web.companion import HostRemote

    board = make_board(first_seat_hosts=True)
    board.companion.submit(ClaimSeat(1, 1))
    board.step()
    board.grant()
    board.companion.submit(HostRemote(5, 0, 2))         # seat 0 is not the host
    board.companion.submit(HostRemote(1, 1, 2))
    board.step()
    refused, given = board.answers()[-2:]
    assert refused.state == "refused" and "host" in refused.reason
    assert given.state == "remote" and given.connection == 1 and given.grant is not None
    assert board.companion.seats.seat_of(given.grant.token) == 2 and board.companion.seats.remote == {2}
    snapshot = board.companion.latest
    assert snapshot is not None and snapshot.public_dict()["seats"][2]["remote"] is True


def test_a_refused_trade_is_told_only_to_its_screen_and_never_names_cards_in_public() -> None:
    from conquista.rules.events import Phase
    from conquista.web.companion import Refusal

    board = make_board()
    me = board.referee.game.current
    hands: list[list[int]] = [[] for _ in range(board.referee.game.players)]
    hands[me] = [tid("alaska"), tid("peru"), tid("brazil"), tid("ontario")]
    board.referee.reset(edited(board.referee.game, hands=hands), 0.0)
    game = board.referee.game
    board.companion.submit(SeatTrade(me, (tid("alaska"), tid("peru"), tid("japan")), 4))   # not all held
    board.companion.submit(SeatTrade(me, game.valid_trades(me)[0], 4))                    # setup: not now
    board.step()
    refusals = [item for item in board.sent if isinstance(item, Refusal)]
    assert [r.connection for r in refusals] == [4, 4] and game.phase is Phase.SETUP
    snapshot = board.companion.latest
    assert snapshot is not None
    for name in ("Alaska", "alaska", "Peru", "peru", "Japan", "japan"):
        assert name not in board.referee.message and name not in snapshot.public.split('"log"')[1]


def test_phone_taps_are_journalled_like_board_taps_and_no_token_reaches_the_journal(tmp_path: Path) -> None:
    from conquista.journal import JOURNAL_NAME, GameJournal
    from tests.journal.helpers import raw_rows

    board = make_board()
    journal = GameJournal(tmp_path)
    board.journal_to(journal)
    board.companion.submit(ClaimSeat(1, board.referee.game.current))
    board.step()
    board.grant()
    grant = board.answers()[-1].grant
    assert grant is not None
    me = board.referee.game.current
    mine = board.referee.game.owner.index(me)
    board.companion.submit(SeatGesture(me, Tap(mine)))
    board.step()
    journal.flush()
    assert journal.game_id is not None
    _header, rows, _status = raw_rows(tmp_path, journal.game_id)
    assert rows and '"place"' in rows[-1] and board.referee.game.map.id(mine) in rows[-1]
    journal.close()
    assert grant.token.encode() not in (tmp_path / JOURNAL_NAME).read_bytes()


def test_the_host_switches_to_physical_dice_and_back() -> None:
    from conquista.web.companion import HostDice

    board = make_board(first_seat_hosts=True)
    board.companion.submit(ClaimSeat(1, 2))
    board.step()
    board.grant()
    board.companion.submit(HostDice(0, True))       # not the host: nothing changes
    board.step()
    assert not board.referee.physical_dice
    board.companion.submit(HostDice(2, True))
    board.step()
    assert board.referee.physical_dice
    snapshot = board.companion.latest
    assert snapshot is not None and '"physical dice": true' in snapshot.host


def test_the_host_sets_up_a_new_game_unless_the_command_line_did() -> None:
    from conquista.web.companion import GameSetUp, HostNewGame, Refusal

    board = make_board(first_seat_hosts=True)
    board.companion.submit(ClaimSeat(1, 2))
    board.step()
    board.grant()
    board.companion.submit(HostNewGame(1, 2, GameSetUp("classic", 4)))     # set up on the command line: refused
    board.step()
    refusals = [i for i in board.sent if isinstance(i, Refusal)]
    assert [r.reason for r in refusals] == ["this game was set up on the command line"]
    board.companion.new_game = host_set_up(board)
    board.companion.submit(HostNewGame(9, 0, GameSetUp("classic", 4)))     # not the host: ignored
    board.companion.submit(HostNewGame(1, 2, GameSetUp("classic", 9)))     # out of range: refused, nothing changes
    board.step()
    refusals = [i for i in board.sent if isinstance(i, Refusal)]
    assert board.referee.game.rules.name == "italian" and "not 9" in refusals[-1].reason
    board.companion.submit(HostNewGame(1, 2, GameSetUp("classic", 2)))
    board.step()
    game = board.referee.game
    assert (game.rules.name, game.players) == ("classic", 2)
    assert board.companion.seats.phones() == frozenset() and board.companion.host_seat == -1   # seat 2 is gone


def test_seats_follow_a_game_the_table_replaced_with_fewer_players() -> None:
    import random

    from conquista.dice.chance import new_game

    board = make_board(players=3)
    board.referee.reset(new_game(board.referee.game.rules, board.referee.game.map, 2, random.Random(2)), 0.0)
    board.companion.submit(ClaimSeat(1, 2))
    board.step()
    assert board.answers()[-1].state == "refused" and "no seat 2" in board.answers()[-1].reason
