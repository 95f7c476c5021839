"""Every screen shows the one table (issue 36), through a real websocket (Starlette's TestClient): the attacker's
dice and the defender's kept apart, a remote seat opened elsewhere or handed to a bot told at once and left with
no secret, the end of the game on every screen, a roll of an earlier turn news on no screen, the TV's heading
naming whose turn it is, the host's form with no game to stop."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient

from conquista.dice.sources import SeededDice
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.table.referee import Referee
from conquista.web.companion import Companion
from conquista.web.seats import SeatBook
from conquista.web.server import create_app
from tests.rules.helpers import position
from tests.web.conftest import ORIGIN, Served
from tests.web.helpers import Board
from tests.web.test_server import claim, hello

pytestmark = pytest.mark.timeout(60)


@contextmanager
def serving(game: Game, *, first_seat_hosts: bool = False) -> Iterator[Served]:
    board = Board(Referee(game, SeededDice(7)), Companion(SeatBook(game.players, first_seat_hosts=first_seat_hosts)))
    app, hub = create_app(board.companion, ["testserver"], "http://127.0.0.1:8080/")
    with TestClient(app) as client:
        board.step()
        yield Served(board, client, hub)


def latest(served: Served, ws: Any, kind: str) -> dict[str, Any]:
    """The `kind` view ("public", "seat", "host") of the board's latest snapshot as this screen receives it: frames
    are read until one shows that version (earlier ones are skipped, as a screen redraws over them)."""
    served.board.step()
    version = served.board.companion._version
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] == kind and (kind == "host" or frame["view"].get("version") == version):
            return frame["view"]


def send(served: Served, ws: Any, message: dict[str, Any]) -> None:
    ws.send_json(message)
    served.board.step_when_queued()


def battle_position() -> Game:
    """Red (seat 0) to attack Kamchatka (blue, 5 armies) from Alaska (10): the defender chooses its dice."""
    return position("italian", 3, owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 10, "kamchatka": 5},
                    default_owner=2, current=0, phase=Phase.ATTACK, automatic_defence=False)


def test_the_defenders_dice_never_change_the_attackers_next_roll() -> None:
    with serving(battle_position()) as served, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as red, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as blue, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as tv:
        hello(red)
        hello(blue)
        hello(tv)
        claim(served, red, 0)
        claim(served, blue, 1)
        send(served, red, {"type": "tap", "territory": "alaska"})
        send(served, red, {"type": "tap", "territory": "kamchatka"})
        assert latest(served, red, "seat")["dice"] == {"attack": 3, "max": 3}
        send(served, red, {"type": "press", "button": "roll"})
        assert served.board.referee.game.phase is Phase.DEFEND
        assert latest(served, blue, "seat")["dice"] == {"defend": 3, "max": 3}   # the most, at first
        send(served, blue, {"type": "turn", "steps": -2})       # the defender lowers its defence to one die
        defending = latest(served, blue, "seat")
        assert defending["dice"] == {"defend": 1, "max": 3} and defending["buttons"]["roll"] == "Defend with 1 die"
        send(served, blue, {"type": "press", "button": "roll"})
        game = served.board.referee.game
        assert game.phase is Phase.ATTACK and len(game.log[-1].defend) == 1   # type: ignore[attr-defined]
        attacking = latest(served, red, "seat")
        assert attacking["dice"] == {"attack": 3, "max": 3}
        assert attacking["buttons"]["roll"] == "Roll 3 dice"
        assert "ROLL rolls 3 dice" in latest(served, tv, "public")["pending"]
        send(served, red, {"type": "press", "button": "roll"})  # the next roll: the defender's choice holds too
        assert served.board.referee.game.phase is Phase.DEFEND
        assert latest(served, blue, "seat")["dice"] == {"defend": 1, "max": 3}
