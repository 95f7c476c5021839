"""What a screen may send: well-formed messages become board commands, anything else a BadMessage."""

from __future__ import annotations

from typing import Any

import pytest

from conquista.errors import BadMessage
from conquista.table.colours import Palette
from conquista.table.gestures import Button, Hold, LongPress, Press, Tap, Turn
from conquista.web.companion import (
    ClaimSeat,
    GameSetUp,
    HostDice,
    HostNewGame,
    HostPause,
    HostRemote,
    SeatGesture,
    SeatTrade,
)
from conquista.web.messages import to_command

IDS = ("alaska", "peru", "japan")


@pytest.mark.parametrize(("data", "seat", "command"), [
    ({"type": "claim", "seat": 2}, -1, ClaimSeat(7, 2)),
    ({"type": "press", "button": "roll"}, 1, SeatGesture(1, Press(Button.ROLL))),
    ({"type": "press", "button": "blitz"}, 1, SeatGesture(1, Hold(Button.ROLL))),
    ({"type": "turn", "steps": -3}, 1, SeatGesture(1, Turn(-3))),
    ({"type": "tap", "territory": "peru"}, 1, SeatGesture(1, Tap(1))),
    ({"type": "tap", "territory": "japan", "long": True}, 1, SeatGesture(1, LongPress(2))),
    ({"type": "tap", "territory": "japan", "long": False}, 1, SeatGesture(1, Tap(2))),
    ({"type": "trade", "cards": [1, 2, 42]}, 1, SeatTrade(1, (1, 2, 42), 7)),
    ({"type": "trade", "cards": [200_003]}, 1, SeatTrade(1, (200_003,), 7)),
    ({"type": "pause", "paused": True}, 0, HostPause(0, True, 7)),
    ({"type": "remote", "seat": 2}, 0, HostRemote(7, 0, 2)),
    ({"type": "dice", "physical": True}, 0, HostDice(0, True, 7)),
    ({"type": "new_game", "rules": "classic", "players": 4}, 0, HostNewGame(7, 0, GameSetUp("classic", 4))),
    ({"type": "new_game", "rules": "italian", "players": 4, "bots": {"3": "random", "1": "greedy"},
      "automatic_defence": False, "committed_dice": True}, 0,
     HostNewGame(7, 0, GameSetUp("italian", 4, ((1, "greedy"), (3, "random")), False, True))),
    ({"type": "resume", "game": 12}, 0, HostNewGame(7, 0, GameSetUp(resume=12))),
    ({"type": "new_game", "rules": "italian", "players": 3, "tournament_ending": True, "palette": "colour-blind"}, 0,
     HostNewGame(7, 0, GameSetUp("italian", 3, tournament_ending=True, palette=Palette.COLOUR_BLIND))),
])
def test_good_messages(data: dict[str, Any], seat: int, command: object) -> None:
    assert to_command(data, 7, seat, 0, IDS) == command


@pytest.mark.parametrize(("data", "seat", "message"), [
    ({"type": "press", "button": "roll"}, -1, "seated"),
    ({"type": "claim", "seat": True}, -1, "whole number"),
    ({"type": "claim", "seat": 10}, -1, "whole number"),
    ({"type": "press", "button": ["roll"]}, 1, "button must be"),
    ({"type": "tap", "territory": 1}, 1, "territory id"),
    ({"type": "tap", "territory": "peru", "long": 1}, 1, "long must be true or false"),
    ({"type": "trade", "cards": [1, 2, True]}, 1, "three card numbers"),
    ({"type": "trade", "cards": [1, 2]}, 1, "three card numbers"),
    ({"type": "trade", "cards": [1, 2, 3, 4, 5]}, 1, "three card numbers"),
    ({"type": "trade", "cards": [1_000_000]}, 1, "three card numbers"),
    ({"type": "pause", "paused": True}, 1, "only the host"),
    ({"type": "remote", "seat": 2}, 1, "only the host"),
    ({"type": "dice", "physical": False}, 1, "only the host"),
    ({"type": "new_game", "rules": "../../etc/passwd.toml", "players": 3}, 0, "shipped ruleset"),
    ({"type": "new_game", "rules": "classic", "players": 1}, 0, "whole number"),
    ({"type": "new_game", "rules": "classic", "players": 3, "bots": {"3": "greedy"}}, 0, "not a seat of 3"),
    ({"type": "new_game", "rules": "classic", "players": 3, "bots": {"x": "greedy"}}, 0, "not a seat"),
    ({"type": "new_game", "rules": "classic", "players": 3, "bots": {"1": "skynet"}}, 0, "one of easy, normal"),
    ({"type": "new_game", "rules": "classic", "players": 3, "bots": [1]}, 0, "map seats to bot kinds"),
    ({"type": "new_game", "rules": "classic", "players": 3, "automatic_defence": "on"}, 0, "automatic_defence"),
    ({"type": "new_game", "rules": "classic", "players": 3, "committed_dice": 1}, 0, "committed_dice"),
    ({"type": "new_game", "rules": "classic", "players": 3, "seed": 1}, 0, "unknown key 'seed'"),
    ({"type": "new_game", "rules": "classic", "players": 3, "tournament_ending": "yes"}, 0, "tournament_ending"),
    ({"type": "new_game", "rules": "classic", "players": 3, "palette": "sepia"}, 0, "palette must be one of"),
    ({"type": "resume", "game": 0}, 0, "whole number"),
    ({"type": "resume", "game": 3}, 1, "only the host"),
    ({"type": "pause", "paused": "yes"}, 0, "true or false"),
    ({"type": "turn", "steps": 1, "seat": 0}, 1, "unknown key 'seat'"),
    ({"type": None}, 1, "unknown message type"),
])
def test_bad_messages(data: dict[str, Any], seat: int, message: str) -> None:
    with pytest.raises(BadMessage, match=message):
        to_command(data, 7, seat, 0, IDS)
