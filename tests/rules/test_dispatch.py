"""Issue 22 §4: `apply` finds each action's step in a table by its type; a subclass of an action type still finds
its step, anything else is refused with the project's error and the state left as it was."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from conquista.bots.simulate import play_game
from conquista.errors import IllegalActionError
from conquista.rules.actions import Deal, EndPhase, Place
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset


@dataclass(frozen=True, slots=True)
class MyPlace(Place):
    pass


def _reinforcing() -> Game:
    game = play_game(load_ruleset("classic"), load_map(), 2, ["greedy"], "dispatch", turn_cap=1).game
    assert game is not None
    while game.phase is not Phase.REINFORCE:
        game.undo()
    return game


def test_a_subclass_of_an_action_type_is_applied_as_that_type() -> None:
    game, twin = _reinforcing(), _reinforcing()
    own = game.owner.index(game.current)
    game.apply(MyPlace(own, game.pool))
    twin.apply(Place(own, twin.pool))
    assert game.digest() == twin.digest()


@pytest.mark.parametrize("action", [object(), "place", (0, 1), Deal((0,), 0)])
def test_anything_else_is_refused_with_the_project_error(action: object) -> None:
    game = _reinforcing()
    before = game.digest()
    with pytest.raises(IllegalActionError):
        game.apply(action)  # type: ignore[arg-type]
    assert game.digest() == before
    assert not game.is_legal(action)  # type: ignore[arg-type]


def test_a_finished_game_refuses_every_action() -> None:
    game = play_game(load_ruleset("classic"), load_map(), 2, ["greedy"], "dispatch").game
    assert game is not None and game.over
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.apply(EndPhase())
