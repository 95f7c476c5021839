"""Hints for a learner: "what would hard do?" from a seated phone, through the board loop like any phone command;
the host turns them off; each is counted in the luck report."""

from __future__ import annotations

from conquista.dice.luck import luck_report
from conquista.table.hint_asks import BUSY_WORDS, HintState
from conquista.web.companion import HintAnswer, HostHints, SeatHint
from conquista.web.messages import BadMessage, to_command
from tests.app.test_hint_loop import Latched
from tests.web.conftest import ORIGIN, Served, until
from tests.web.helpers import make_board, seat_host, seat_phone
from tests.web.test_server import claim, hello


def hints(board: object) -> list[HintAnswer]:
    return [item for item in board.sent if isinstance(item, HintAnswer)]   # type: ignore[attr-defined]


def test_the_hint_messages_are_checked() -> None:
    ids = ("alaska",)
    assert to_command({"type": "hint"}, 4, 1, 0, ids) == SeatHint(1, 4)
    assert to_command({"type": "hints", "allowed": False, "leds": False}, 4, 0, 0, ids) == HostHints(0, False, False, 4)
    for bad, seat in (({"type": "hint", "seat": 2}, 1), ({"type": "hint"}, -1),
                      ({"type": "hints", "allowed": True, "leds": False}, 1)):
        try:
            to_command(bad, 4, seat, 0, ids)
        except BadMessage:
            continue
        raise AssertionError(f"{bad} from seat {seat} was taken")


def test_a_seat_to_move_gets_a_hint_and_it_is_counted() -> None:
    board = make_board(first_seat_hosts=True)
    game = board.referee.game
    seat = game.to_move
    assert isinstance(seat, int)
    other = (seat + 1) % game.players
    seat_phone(board, seat, connection=5)
    seat_phone(board, other, connection=6)
    board.companion.submit(SeatHint(other, 6))      # not its move
    board.companion.submit(SeatHint(seat, 5))
    before = game.digest()
    board.step()
    refused, thinking = hints(board)[:2]   # hard may answer within that step: it searches in a thread
    assert refused.connection == 6 and not refused.given and "your own move" in refused.text
    assert thinking.connection == 5 and thinking.state is HintState.THINKING and not thinking.given
    given = board.step_until_answered(5)
    assert given.connection == 5 and given.given and given.text.startswith("hard would ")
    assert given.territories and all(game.map.index(t) >= 0 for t in given.territories)
    assert game.digest() == before          # a hint changes nothing in the game
    assert board.referee.hints_asked == {seat: 1}
    report = luck_report(game, hints=board.referee.hints_asked)
    colour = game.rules.colours[seat]
    assert f"  {colour} asked for 1 hint" in report.lines()
    assert report.to_json()["hints"] == [f"{colour} asked for 1 hint"]


def test_the_host_turns_hints_off_and_the_leds_on() -> None:
    board = make_board(first_seat_hosts=True)
    game = board.referee.game
    seat = game.to_move
    assert isinstance(seat, int)
    seat_host(board, seat, connection=5)
    board.companion.submit(HostHints(seat, False, False))
    board.companion.submit(SeatHint(seat, 5))
    board.step()
    assert "turned hints off" in hints(board)[-1].text and board.referee.hints_asked == {}
    board.companion.submit(HostHints(seat, True, True))
    board.companion.submit(SeatHint(seat, 5))
    answer = board.step_until_answered(5)
    assert answer.given
    lit = {e.territory for e in board.referee.effects if e.kind == "hint"}
    assert lit == {game.map.index(t) for t in answer.territories}


def test_the_phone_gets_thinking_then_its_hint_over_the_websocket(served: Served) -> None:
    """The real web path (Starlette's TestClient): the phone's {type: hint} is queued by the server, the board's
    loop (the test) hands it to the referee, hard thinks in its own thread, and the answer reaches only that
    phone's connection as a "hint" frame."""
    board = served.board
    game = board.referee.game
    seat = game.to_move
    assert isinstance(seat, int)
    search = board.router.hints.search = Latched()     # held until released: the second ask finds it thinking
    with served.client.websocket_connect("/ws", headers=ORIGIN) as ws, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as other:
        hello(ws)
        hello(other)
        claim(served, ws, seat)
        ws.send_json({"type": "hint"})
        board.step_when_queued()
        thinking = until(ws, "hint")
        assert thinking["state"] == "thinking" and not thinking["given"] and thinking["territories"] == []
        ws.send_json({"type": "hint"})                    # asked again while hard thinks
        board.step_when_queued()
        busy = until(ws, "hint")
        assert busy["state"] == "refused" and busy["text"] == BUSY_WORDS
        search.release.set()
        answer = board.step_until_answered_on(ws)
        assert answer["state"] == "given" and answer["given"] and str(answer["text"]).startswith("hard would ")
        assert answer["territories"] and all(game.map.index(str(t)) >= 0 for t in answer["territories"])
        assert board.referee.hints_asked == {seat: 1}
        other.send_json({"type": "ping"})                 # the other screen never saw a hint frame
        seen: list[dict[str, object]] = []
        until(other, "pong", seen)
        assert not [f for f in seen if f["type"] == "hint"]
