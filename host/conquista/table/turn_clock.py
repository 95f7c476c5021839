"""The turn clock of the networked table's rules (docs/rules.md, "Table features"). Pure: time is passed in; the
engine reads no clock, so the referee applies an explicit, journalled `TimeOut`.

The turn clock runs while the player to move can act: it stops for a question, a fault, the set-up menu and dice
being typed in, and starts afresh with every turn (and every setup batch, and the duel's neutral steps). When it
runs out, a defender still choosing rolls the most dice (`Defend`), then `TimeOut()` ends the turn (or the neutral
steps). What is timed is the rules' answer (`Game.clock_key()`, `Game.turn_clock_runs()`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.actions import Defend, TimeOut
from conquista.rules.events import Phase
from conquista.table.decisions import Apply, ClearSelection, Decisions, Notice

if TYPE_CHECKING:
    from conquista.table.table_state import TableState

# The clock's value is `TurnClock` (table/referee_records.py); the state reads it (`TableState.time_left`).


def time_up(state: TableState, now: float) -> bool:
    """At a tick (the step has moved the clock to `now`): the turn's time is up."""
    left = state.time_left(now)
    return left is not None and left <= 0 and state.clock_running


def defence_due(state: TableState) -> Apply | None:
    """Time up in a defence: the defender rolls the most dice (None: no defence waits)."""
    game = state.game
    if game.phase is Phase.DEFEND and game.battle is not None and state.entry is None:
        return Apply(Defend(game.max_defend_dice(game.battle.target)))
    return None


def time_out(state: TableState) -> Decisions:
    """Time up, once no defence waits: the turn passes (or the neutral steps end)."""
    game = state.game
    if state.entry is not None or game.over or not game.is_legal(TimeOut()):
        return ()  # dice still to be typed in, or the roll ended the game: the clock waits
    neutral = game.clock_key()[3]  # the opponent's time for the neutral steps: they end, the turn goes on
    who = game.rules.colours[game.opponent() if neutral else game.current]
    return (ClearSelection(), Apply(TimeOut()),
            Notice(f"{who}'s time for the neutral army is up: its steps end" if neutral
                   else f"{who}'s time is up: the turn passes"))
