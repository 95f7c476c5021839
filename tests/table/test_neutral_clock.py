"""The duel's turn clock through the neutral steps (RULES.md §5, decided 2026-11-26), at the board: the rules say
what is timed (`Game.clock_key()`, `Game.turn_clock_runs()`), the referee's clock runs it down (time passed in)."""

from __future__ import annotations

from conquista.dice.sources import SeededDice
from conquista.rules.actions import TimeOut
from conquista.rules.events import Phase
from conquista.table.referee import Referee
from tests.rules.helpers import duel


def test_a_stalling_opponent_loses_the_neutral_steps_not_the_game() -> None:
    game = duel(Phase.NEUTRAL_REINFORCE, state={"pool": 2}, turn_time_limit_s=30)
    ref = Referee(game, SeededDice(1))
    ref.tick(10.0)
    assert ref.status().time_left == 20.0          # blue's run of the clock for the neutral steps
    ref.tick(29.9)
    assert ref.game.phase is Phase.NEUTRAL_REINFORCE
    ref.tick(30.0)
    assert ref.game.log[-1] == TimeOut() and ref.game.phase is Phase.ATTACK and ref.game.current == 0
    assert "blue's time for the neutral army is up" in ref.message
    assert ref.game.pool == 0 and not any(ref.game.left)
    ref.tick(31.0)
    assert ref.status().time_left == 29.0          # red's own turn goes on with its own run
