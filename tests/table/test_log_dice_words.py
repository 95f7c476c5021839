"""Issue 39 §12: the log shows a battle's dice highest first, as the dice panel does (dice typed in come in any
order), and never says "1 dice"."""

from __future__ import annotations

import pytest

from conquista.errors import IllegalActionError
from conquista.rules.actions import Attack, Defend
from conquista.rules.events import BattleRolled
from conquista.table.logview import describe_event
from tests.rules.helpers import dealt, position, tid


def test_the_logs_dice_are_highest_first() -> None:
    game = dealt("italian", 3, seed=3)
    line = describe_event(game, BattleRolled(tid("alaska"), tid("kamchatka"), (2, 6, 4), (1, 5), 1, 1))
    assert line is not None and "6 4 2 vs 5 1" in line


def test_one_die_is_one_die() -> None:
    game = position("italian", owners={"alaska": 0}, armies={"alaska": 2, "kamchatka": 5})
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Attack(tid("alaska"), tid("kamchatka"), 2))
    assert "with 1 die" in str(refused.value) and "1 dice" not in str(refused.value)
    assert "1 to 1" not in str(refused.value)
    with pytest.raises(IllegalActionError) as named:
        game.apply(Defend(1))
    assert "1 dice" not in str(named.value) and "defend with 1 die" in str(named.value)
