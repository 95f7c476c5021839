"""Hints for a learner: what the hard bot would do now in a seat's place, in a player's words, with the territories
to look at.

The hard bot reasons on what the asking seat may know: it is handed a copy of the game in which every other seat's
mission and cards and the deck are made up afresh from public facts (`bots.seat_view`), so a hint cannot give away
another player's secrets. Pure: the game is passed in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from conquista.bots.hard import HardBot
from conquista.bots.lookahead import public_seed
from conquista.bots.seat_view import seat_view
from conquista.rules.actions import Action, Attack, Blitz, EndPhase, Fortify, Occupy, Place, Trade
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.table import unit_kinds as units
from conquista.table.bot_words import explain
from conquista.table.wording import plural

# Each phase's end, in the words of the button that makes it.
_ENDS = {Phase.REINFORCE: "end your reinforcement (NEXT)", Phase.ATTACK: "stop attacking (NEXT)",
         Phase.FORTIFY: "end your turn without moving armies (NEXT)"}


@dataclass(frozen=True)
class Hint:
    """What hard would do: the action, why in words, and the territories it names (highlighted)."""

    seat: int
    action: Action
    words: str
    territories: tuple[int, ...]


def hint_for(game: Game, seat: int, bot: HardBot | None = None) -> Hint:
    """What the hard bot (`bot`, a fresh one by default) would do now for `seat`, which must be the seat to move."""
    if game.to_move != seat:
        raise ValueError(f"seat {seat} is not to move")
    view = seat_view(game, seat, random.Random(f"hint:{public_seed(game, seat)}"))
    bot = bot or HardBot()
    action = bot.choose(view)
    reason = bot.choice.words() if bot.choice is not None else ""
    return Hint(seat, action, _words(view, action, reason), _named(action))


def _named(action: Action) -> tuple[int, ...]:
    match action:
        case Place(t):
            return (t,)
        case Attack(s, t) | Blitz(s, t) | Fortify(s, t):
            return (s, t)
    return ()


def _words(game: Game, action: Action, reason: str) -> str:
    """The suggestion as a player would say it, then the odds behind it and the bot's plan for the turn."""
    name = [t.name_en for t in game.map.territories]
    match action:
        case Place(t, count, fleet):
            what = f"place {plural(count, 'fleet' if fleet else 'army')} on {name[t]}"
        case Trade(cards):
            what = f"trade your cards {', '.join(str(c) for c in cards)} for armies"
        case EndPhase():
            what = _ENDS.get(game.phase, "end this step (NEXT)")
        case Occupy(count):
            battle = game.battle
            assert battle is not None   # a move-in follows a conquest
            what = f"move {units.units(game, count, battle.source, battle.target)} into {name[battle.target]}"
        case _:
            said = explain(game, action)
            what = said.split(" ", 1)[1] if said else game.describe(action)   # "red attacks X" → "attacks X"
    odds = explain(game, action) if isinstance(action, Attack | Blitz) else None
    line = f"hard would {what}"
    if odds is not None and ":" in odds:
        line += f" ({odds.split(':', 1)[1].strip()})"
    if reason:
        line += f"; it {reason}"
    return line
