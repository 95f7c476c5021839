"""CANCEL at the table goes through the engine's own undo (issue 9 §1, issue 13 §3).

A placement, an occupation and a fortify can be taken back, never a roll; a fortify that passed the turn stays
undoable until the next player acts, unless a card was drawn at the end of that turn.
"""

from __future__ import annotations

from conquista.dice.sources import SeededDice
from conquista.rules.actions import Fortify, Place
from conquista.rules.events import Phase
from conquista.table.gestures import Button, Press, Tap
from conquista.table.referee import Referee
from tests.rules.helpers import position, tid


def _fortify_position(conquered: bool = False) -> Referee:
    game = position("italian", owners={"alaska": 0, "alberta": 0}, armies={"alaska": 5}, phase=Phase.FORTIFY)
    if conquered:
        turn = {**game.turn_state._asdict(), "conquered": True}
        game = position("italian", owners={"alaska": 0, "alberta": 0}, armies={"alaska": 5}, phase=Phase.FORTIFY,
                        state={"turn_state": turn})
    referee = Referee(game, SeededDice(1))
    referee.handle(Tap(tid("alaska")), 1.0)
    referee.handle(Tap(tid("alberta")), 1.1)
    referee.handle(Press(Button.ROLL), 1.2)
    assert isinstance(referee.game.log[-1 - conquered], Fortify)
    return referee


def test_a_fortify_that_passed_the_turn_is_undone_by_cancel() -> None:
    referee = _fortify_position()
    before_fortify = referee.game.log[:-1]
    assert referee.game.current == 1 and referee.game.phase is Phase.REINFORCE
    referee.handle(Press(Button.CANCEL), 2.0)
    game = referee.game
    assert game.log == before_fortify and game.current == 0 and game.phase is Phase.FORTIFY
    assert game.armies[tid("alaska")] == 5 and game.armies[tid("alberta")] == 1
    assert referee.log[-1].lower() == "undo: fortify 4 from alaska to alberta"


def test_the_fortify_stands_once_the_next_player_acts() -> None:
    referee = _fortify_position()
    mine = referee.game.owner.index(1)
    referee.handle(Tap(mine), 2.0)                   # the next player places an army
    assert isinstance(referee.game.log[-1], Place)
    referee.handle(Press(Button.CANCEL), 3.0)        # takes back that placement ...
    assert isinstance(referee.game.log[-1], Fortify) and referee.game.current == 1
    referee.handle(Press(Button.CANCEL), 4.0)        # ... and never the other player's fortify
    assert isinstance(referee.game.log[-1], Fortify) and referee.game.current == 1
    assert referee.message.startswith("nothing to undo")


def test_a_fortify_followed_by_a_card_draw_stands() -> None:
    referee = _fortify_position(conquered=True)
    assert referee.game.current == 1 and len(referee.game.hands[0]) == 1
    referee.handle(Press(Button.CANCEL), 2.0)
    assert referee.game.current == 1 and len(referee.game.hands[0]) == 1
    assert referee.message.startswith("nothing to undo")
