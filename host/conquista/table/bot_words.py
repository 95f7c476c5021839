"""A bot's action at the table in words, with the odds that made it, for the table's log ("blue attacks Ukraine from
Ural: 78 % to take it"). `BotSeats` (table/bot_player.py) writes one line per action a bot chooses. Pure.
"""

from __future__ import annotations

from conquista.bots.planner_odds import odds_for
from conquista.rules.actions import Action, Attack, Blitz, Defend, Fortify, Occupy
from conquista.rules.engine import Game
from conquista.table.wording import owner_name, plural


def _percent(chance: float) -> str:
    return f"{round(chance * 100)} %"


def explain(game: Game, action: Action) -> str | None:
    """A bot's action in words, with the odds that made it, for the table's log; None for what the log already says
    (placements, trades, the end of a phase)."""
    name = [t.name_en for t in game.map.territories]
    armies = game.armies
    colour = game.rules.colours
    me = colour[game.current]
    odds = odds_for(game.rules)
    match action:
        case Blitz(s, t, stop):
            until = f", stopping at {plural(stop, 'army')}" if stop > 1 else ""
            return (f"{me} attacks {name[t]} from {name[s]}: {_percent(odds.chance(armies[s], armies[t], stop))} "
                    f"to take it{until}")
        case Attack(s, t, dice):
            return (f"{me} attacks {name[t]} from {name[s]} with {plural(dice, 'die')} "
                    f"({_percent(odds.chance(armies[s], armies[t]))} to take it by attacking on)")
        case Occupy(count):
            battle = game.battle
            assert battle is not None  # an occupation follows a conquest
            left = armies[battle.source] + armies[battle.target] - count
            return f"{me} moves {plural(count, 'army')} into {name[battle.target]}, " \
                   f"leaving {left} in {name[battle.source]}"
        case Fortify(s, t, count):
            return f"{me} moves {plural(count, 'army')} from {name[s]} to {name[t]}"
        case Defend(dice):
            battle = game.battle
            assert battle is not None  # a defence answers an attack
            s, t = battle.source, battle.target
            hold = odds.hold_chance(armies[s], armies[t], battle.stop_at or 1, dice)
            defender = owner_name(game, game.owner[t])   # a seat's colour, or "neutral" for the neutral army
            return f"{defender} defends {name[t]} with {plural(dice, 'die')}: {_percent(hold)} to hold it"
    return None
