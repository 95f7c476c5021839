"""Every screen shows the one table (issue 36), through a real websocket (Starlette's TestClient): the attacker's
dice and the defender's kept apart, a remote seat opened elsewhere or handed to a bot told at once and left with
no secret, the end of the game on every screen, a roll of an earlier turn news on no screen, the TV's heading
naming whose turn it is, the host's form with no game to stop."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient

from conquista.dice.sources import SeededDice
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.table import inputs
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


def remote_seat(served: Served, host: Any, seat: int) -> str:
    """The host's phone asks for a remote link for `seat`; its token."""
    send(served, host, {"type": "remote", "seat": seat})
    while True:
        frame = host.receive_json()
        if frame["type"] == "remote_link":
            token: str = frame["token"]
            return token


def frames_until_public(served: Served, ws: Any) -> list[dict[str, Any]]:
    """Every frame up to the public view of a new version (a notice moves it, so a snapshot is sent)."""
    served.board.referee.step(inputs.Say("a marker"), served.board.now)
    served.board.step()
    version = served.board.companion._version
    seen = []
    while True:
        frame: dict[str, Any] = ws.receive_json()
        seen.append(frame)
        if frame["type"] == "public" and frame["view"]["version"] == version:
            return seen


def test_a_remote_seat_opened_on_a_second_screen_says_at_once_it_lost_its_seat() -> None:
    with serving(battle_position(), first_seat_hosts=True) as served, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as host, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as first, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as second:
        hello(host)
        claim(served, host, 0)
        token = remote_seat(served, host, 2)
        hello(first, token)
        assert latest(served, first, "seat")["seat"] == 2
        hello(second, token)
        frame = first.receive_json()
        while frame["type"] != "taken_over":
            frame = first.receive_json()
        assert frame["seat"] == 2 and "another screen" in frame["reason"]
        later = frames_until_public(served, first)
        assert not [f for f in later if f["type"] in ("seat", "host")]   # nothing private reaches it any more


def test_a_seat_handed_to_a_bot_leaves_no_secret_on_its_old_screen() -> None:
    game = battle_position()
    with serving(game, first_seat_hosts=True) as served, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as host, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as remote:
        served.board.referee.step(inputs.OfferBots(True), 0.0)
        hello(host)
        claim(served, host, 0)
        hello(remote, remote_seat(served, host, 2))
        mission = latest(served, remote, "seat")["mission"]["text"]
        send(served, host, {"type": "leave", "seat": 2, "bot": True})
        seen = frames_until_public(served, remote)
        gone = [i for i, f in enumerate(seen) if f["type"] == "unseated"]
        assert gone and "bot" in seen[gone[0]]["reason"]
        assert not [f for f in seen[gone[0]:] if f["type"] in ("seat", "host")]
        assert mission not in json.dumps(seen[gone[0]:])


def test_every_screen_shows_the_end_of_the_game() -> None:
    from conquista.bots.simulate import play_game
    from conquista.rules.mapdata import load_map
    from conquista.rules.rulesets import load_ruleset

    finished = play_game(load_ruleset("italian"), load_map(), 3, ["greedy"], seed=7).game
    assert finished is not None and finished.over and finished.winner is not None
    loser = next(seat for seat in range(3) if seat != finished.winner)
    with serving(battle_position()) as served, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as phone, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as tv:
        hello(phone)
        hello(tv)
        claim(served, phone, loser)
        served.board.referee.start(finished, served.board.now, "the game is over")
        seat = latest(served, phone, "seat")
        public = latest(served, tv, "public")
        assert public["over"] and (public["roll"] is None or not public["roll"]["shown"])
        assert "wins" in seat["waiting"] and "placing" not in seat["waiting"] and not seat["buttons"]
        assert "placing" not in public["pending"]


def test_a_roll_of_an_earlier_turn_is_news_on_no_screen_and_the_heading_names_whose_turn_it_is() -> None:
    with serving(battle_position()) as served, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as red, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as tv:
        hello(red)
        hello(tv)
        claim(served, red, 0)
        send(served, red, {"type": "tap", "territory": "alaska"})
        send(served, red, {"type": "tap", "territory": "kamchatka"})
        send(served, red, {"type": "press", "button": "roll"})
        defending = latest(served, tv, "public")
        assert defending["to_move"] == 1 and defending["turn_of"] == 0   # the heading: red's turn, blue defends
        served.board.now += 20.0                                         # the defender's time runs out
        rolled = latest(served, tv, "public")
        assert rolled["roll"]["shown"] and rolled["roll"]["this_turn"]
        for _ in range(3):                                               # red ends its attack, fortify, turn
            send(served, red, {"type": "press", "button": "next"})
            if served.board.referee.view().game.current != 0:
                break
        later = latest(served, tv, "public")
        assert later["current"] != 0 and later["roll"] is not None
        assert not later["roll"]["shown"]                                # shown on no screen as news


def test_the_hosts_form_with_no_game_has_no_game_to_stop() -> None:
    from conquista.app.setup import menu_options
    from conquista.table.setup_menu import SetupMenu

    with serving(battle_position(), first_seat_hosts=True) as served, \
            served.client.websocket_connect("/ws", headers=ORIGIN) as host:
        hello(host)
        claim(served, host, 0)
        assert latest(served, host, "host")["playing"]
        served.board.referee.step(inputs.OfferMenu(SetupMenu(menu_options(), rules="italian", players=3)), 1.0)
        assert not latest(served, host, "host")["playing"]
