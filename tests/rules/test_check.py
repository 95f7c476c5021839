"""`Game.check(action)`: the reason an action is refused, in a player's words, or None when it is legal; it never
changes the game, and `apply` refuses with the same reason."""

from __future__ import annotations

import json

import pytest

from conquista.errors import IllegalActionError
from conquista.rules.actions import Attack, Blitz, EndPhase, Fortify, Leave, Place
from conquista.rules.events import Phase
from tests.rules.helpers import dealt, position, tid


def test_every_listed_action_passes_the_check() -> None:
    game = dealt("classic", 3)
    for _ in range(40):
        actions = game.legal_actions()
        assert actions and all(game.check(a) is None and game.is_legal(a) for a in actions)
        game.apply(actions[len(actions) // 2])


@pytest.mark.parametrize(("action", "words"), [
    (Attack(tid("alaska"), tid("brazil"), 1), "brazil is not adjacent to alaska"),
    (Attack(tid("alberta"), tid("alaska"), 1), "alberta is not yours"),
    (Attack(tid("alaska"), tid("kamchatka"), 1), "kamchatka is its owner's last territory: nobody may be "
                                                 "eliminated before round"),
    (Blitz(tid("ontario"), tid("alberta"), 1), "ontario needs at least 2 armies to attack"),
    (Place(tid("alaska"), 1), "armies are placed only during setup or reinforcement"),
    (Fortify(tid("alaska"), tid("alberta"), 1), "armies are moved in the fortify phase"),
])
def test_a_refusal_names_its_reason_and_changes_nothing(action: Attack, words: str) -> None:
    game = position("italian", 3, owners={"alaska": 0, "ontario": 0, "kamchatka": 2},
                    armies={"alaska": 5, "alberta": 3}, round_=1)
    before, digest = json.dumps(game.snapshot()), game.digest()
    refused = game.check(action)
    assert refused is not None and refused.startswith(words)
    assert not game.is_legal(action)
    with pytest.raises(IllegalActionError) as caught:
        game.apply(action)
    assert caught.value.reason == refused
    assert json.dumps(game.snapshot()) == before and game.digest() == digest and not game.can_undo()


def test_the_check_of_table_actions() -> None:
    game = position("italian", owners={"alaska": 0}, phase=Phase.ATTACK)
    assert game.check(EndPhase()) is None
    assert game.check(Leave(7)) is not None  # no such seat
