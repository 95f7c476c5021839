"""lamorisse-1954 deals progressively: a territory not dealt yet belongs to nobody (the engine keeps -1). The board
leaves it dark and the screens name nobody, never a seat's colour (-1 would read the last seat's)."""

from __future__ import annotations

import json
import random

from conquista.dice.chance import new_game
from conquista.dice.sources import SeededDice
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset
from conquista.table.colours import OFF, player_rgb
from conquista.table.referee import Referee
from conquista.web.views import SeatState, public_view


def test_a_territory_not_dealt_yet_is_dark_and_nobodys() -> None:
    game = new_game(load_ruleset("lamorisse-1954"), load_map(), 8, random.Random(3))
    undealt = [t for t, o in enumerate(game.owner) if o < 0]
    assert undealt, "8 players take 32 of the 42 territories in the first distribution"
    referee = Referee(game, SeededDice(1))
    scene = referee.scene(0.0)
    assert all(scene.territories[t] == OFF for t in undealt)
    dealt = next(t for t, o in enumerate(game.owner) if o >= 0)
    assert scene.territories[dealt] != OFF and player_rgb(game.rules.colours[-1]) not in (
        scene.territories[t] for t in undealt)
    view = json.loads(json.dumps(public_view(referee.view(), SeatState(), 0.0)))
    for t in undealt:
        assert view["territories"][t]["owner"] is None and view["territories"][t]["colour"] == "nobody"


def test_a_territory_not_dealt_yet_cannot_be_attacked_and_says_why() -> None:
    from conquista.rules.events import Phase
    from conquista.table.gestures import Tap
    from tests.rules.helpers import position, tid

    owner = [1] * 42
    owner[tid("kamchatka")], owner[tid("yakutsk")] = 0, -1
    game = position("lamorisse-1954", armies={"kamchatka": 4, "yakutsk": 0}, phase=Phase.ATTACK,
                    state={"fleets": [0] * 42, "owner": owner, "territory_count": [1, 40],
                           "undealt": [tid("yakutsk")], "placed_total": 44})
    referee = Referee(game, SeededDice(1))
    referee.handle(Tap(tid("kamchatka")), 1.0)
    referee.handle(Tap(tid("yakutsk")), 1.1)
    assert referee.target < 0 and referee.message == "Yakutsk has not been dealt yet: nobody holds it"
