"""What the server builds for phones: the phone's own words, a destroy mission's meter, the last roll, the luck
report at the end, and the heartbeat's pong."""

from __future__ import annotations

from conquista.rules.actions import Attack, Roll
from conquista.rules.events import Phase
from conquista.table.gestures import Tap
from conquista.web.views import SeatState, last_roll, mission_progress, public_view, seat_view
from tests.rules.helpers import edited, position, tid
from tests.web.conftest import ORIGIN, Served, until
from tests.web.helpers import make_board

BOARD_HINTS = ("hold ROLL", "NEXT ends the phase", "turn to change")


def test_the_phone_says_what_to_do_in_its_own_words() -> None:
    game = position("italian", 2, owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 5, "kamchatka": 2},
                    state={"missions": [7, 7]})
    board = make_board()
    board.referee.reset(game, 0.0)
    referee = board.referee
    assert seat_view(referee.view(), 0)["pending"].startswith("Attack: tap one of your territories on the board")
    referee.handle(Tap(tid("alaska")), 1.0)
    referee.handle(Tap(tid("kamchatka")), 1.2)
    mine, theirs = seat_view(referee.view(), 0), seat_view(referee.view(), 1)
    assert mine["pending"] == "Alaska → Kamchatka: roll the dice, or Blitz to fight to the end"
    assert mine["buttons"] == {"roll": "Roll 3 dice", "blitz": "Blitz", "less": "−", "cancel": "Cancel",
                               "end_attack": "End attack"}
    assert "hold ROLL" in referee.status().pending       # the board's own words stay the board's
    assert theirs["pending"] == "" and theirs["waiting"] == "red is attacking"
    assert not any(hint in theirs["waiting"] + mine["pending"] for hint in BOARD_HINTS)


def test_placing_words_on_the_phone() -> None:
    game = position("italian", 2, owners={"alaska": 0}, phase=Phase.REINFORCE, state={"pool": 3, "missions": [7, 7]})
    board = make_board()
    board.referee.reset(game, 0.0)
    words = seat_view(board.referee.view(), 0)["pending"]
    assert words == "Place 3 armies: tap your territories on the board; + adds to the last one"
    assert seat_view(board.referee.view(), 1)["waiting"] == "red is placing reinforcements"


def test_a_destroy_missions_meter_fills_as_the_target_loses_territories() -> None:
    board = make_board()
    game = edited(board.referee.game, missions=[10, 7, 7])       # red: destroy every blue army
    dealt_blue = game.territory_count[1]
    meter = mission_progress(game, 0)["meters"][0]
    assert (meter["have"], meter["need"]) == (0, dealt_blue) and "blue" in meter["label"]
    owner = list(game.owner)
    blue = [t for t in range(game.map.size) if owner[t] == 1]
    for t in blue[:3]:
        owner[t] = 0
    counts = [owner.count(p) for p in range(3)]
    later = edited(game, owner=owner, territory_count=counts)
    meter = mission_progress(later, 0)["meters"][0]
    assert (meter["have"], meter["need"]) == (3, dealt_blue) and f"{dealt_blue - 3} left" in meter["label"]


def test_the_last_roll_and_the_luck_report_in_the_public_view() -> None:
    game = position("italian", 2, owners={"brazil": 0}, armies={"brazil": 4}, state={"missions": [7, 7]})
    assert last_roll(game) is None
    game.apply(Attack(tid("brazil"), tid("north_africa"), 3))
    game.apply(Roll((2, 6, 1), (6,)))
    assert last_roll(game) == {"count": 1, "source": "brazil", "target": "north_africa", "attack": [6, 2, 1],
                               "defence": [6], "lost": [1, 0]}
    board = make_board()
    assert public_view(board.referee.view(), SeatState(), 0.0)["luck"] is None     # nothing while the game goes on


def test_the_luck_report_and_every_mission_when_the_game_is_over() -> None:
    from conquista.bots.simulate import play_game
    from conquista.rules.mapdata import load_map
    from conquista.rules.missions import mission_text
    from conquista.rules.rulesets import load_ruleset

    finished = play_game(load_ruleset("italian"), load_map(), 3, ["greedy"], seed=7).game
    assert finished is not None and finished.over
    board = make_board()
    board.referee.reset(finished, 0.0, play=False)
    luck = public_view(board.referee.view(), SeatState(), 0.0)["luck"]
    dealt = [mission_text(m, finished.rules.colours) for m in finished.missions]
    assert all(shown.startswith(text) for shown, text in zip(luck["missions"], dealt, strict=True))
    # Green does not play in a game of three: yellow's mission became the fallback, and the report says so.
    assert luck["missions"][2] == "Destroy every green army (could not be met: conquer 24 territories)"
    assert [p["colour"] for p in luck["players"]] == list(finished.rules.colours[:3])
    assert luck["fair"] is True and luck["lines"][0] == "Luck report"


def test_the_heartbeat_is_answered(served: Served) -> None:
    with served.client.websocket_connect("/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello"})
        until(ws, "map")
        ws.send_json({"type": "ping"})
        pong = until(ws, "pong")
        assert set(pong) == {"type", "now"} and isinstance(pong["now"], float)
        ws.send_json({"type": "ping", "extra": 1})
        assert "unknown key" in until(ws, "error")["error"]
    assert served.client.get("/favicon.ico").status_code == 200
