"""The tournament ending at the board: the referee answers the closing roll as it answers every chance step (the
board rolls the two dice), and the log names it. The clock and its display are wired by the table."""

from __future__ import annotations

from conquista.dice.sources import SeededDice
from conquista.rules.actions import ClosingRoll
from conquista.rules.events import Phase
from conquista.table.gestures import Button, Press
from conquista.table.referee import Referee
from tests.rules.helpers import position


def test_the_board_rolls_the_closing_dice_at_the_end_of_a_turn() -> None:
    game = position("italian", players=3, tournament_ending=True, default_owner=2,
                    owners={"alaska": 0, "kamchatka": 1}, state={"missions": [7, 8, 9], "clock_out_round": 3})
    ref = Referee(game, SeededDice(5))
    ref.handle(Press(Button.NEXT), 1.0)      # attack → fortify
    ref.handle(Press(Button.NEXT), 2.0)      # the turn ends: the closing roll follows at once
    roll = next(a for a in reversed(ref.game.log) if isinstance(a, ClosingRoll))
    assert len(roll.dice) == 2 and roll.source == SeededDice.name
    assert ref.game.phase is not Phase.CLOSING_ROLL
    assert ref.game.over == (sum(roll.dice) <= 4)
    assert any("closing roll after red's turn" in line for line in ref.log)
