"""Steps with one choice only, which the table takes itself rather than waiting for a confirmation nobody needs
(issue 39): the move-in after a conquest when only one count may move in, and the end of the reinforcements once
the last army is placed and no set of cards is left to trade. The referee applies the action as it answers a
chance step (`Referee._settle`), so it is journaled, logged and lit like any other, and a replay of the journal
applies it again, identically. Pure."""

from __future__ import annotations

from conquista.rules.actions import Action, EndPhase, Occupy, Place
from conquista.rules.engine import Game
from conquista.rules.events import Phase

# The placing phases whose end NEXT only confirms once the pool is empty (the initial placement passes its batch on
# by itself in the engine, and the neutral army's reinforcements end by themselves too).
_ENDED_BY_PLACING = (Phase.REINFORCE, Phase.ELIMINATION_TRADE)


def forced_action(game: Game) -> Action | None:
    """The one action the player to move may take now, when there is only one and it needs no gesture; else None.
    The reinforcements end so only right after their last army is placed (a turn whose income is nothing waits for
    NEXT, which says the phase is over); a set to trade is a choice, so with one they wait for NEXT as before."""
    phase = game.phase
    if phase is Phase.OCCUPY and game.battle is not None and game.battle.occupy_min is not None:
        low, high = game.occupy_range()
        return Occupy(low) if low == high else None
    if (phase in _ENDED_BY_PLACING and not game.pool and game.log and isinstance(game.log[-1], Place)
            and not game.valid_trades() and game.check(EndPhase()) is None):
        return EndPhase()
    return None
