"""A bot's action at the table in words, with the odds that made it, for the table's log ("blue attacks Ukraine from
Ural: 78 % to take it"). `BotSeats` (table/bot_player.py) writes one line per action a bot chooses. Pure.
"""

from __future__ import annotations

from conquista.bots.planner_odds import odds_for
from conquista.rules.actions import Action, Attack, Blitz, Defend, Fortify, Occupy, Place
from conquista.rules.engine import Game
from conquista.table import unit_kinds as units
from conquista.table.wording import owner_name, percent, plural


def named_territories(action: Action) -> tuple[int, ...]:
    """The territories an action names: what a bot's move asks the table to confirm, and what a hint lights."""
    match action:
        case Place(t):
            return (t,)
        case Attack(s, t) | Blitz(s, t) | Fortify(s, t):
            return (s, t)
    return ()


def _percent(chance: float) -> str:
    return percent(chance, " ")   # a blitz at 99.6% is not "100 %"


def _attacks(game: Game, s: int, t: int) -> str:
    """Who attacks what, with fleets (lamorisse-1954): "red's fleets in Alaska attack Kamchatka"."""
    name = game.map.territories
    me = _actor(game)
    if game.sails(s, t):
        return f"{me}'s fleets in {name[s].name_en} attack {name[t].name_en}"
    return f"{me} attacks {name[t].name_en} from {name[s].name_en}"


def _actor(game: Game) -> str:
    """Who acts: the seat to move, or in the duel's neutral steps "the neutral army (blue)", played by the opponent
    of the player whose turn it is."""
    to_move = game.to_move
    seat = to_move if isinstance(to_move, int) else game.current
    if game.neutral is not None and game.acting_owner() == game.neutral:
        return f"the neutral army ({game.rules.colours[seat]})"
    return game.rules.colours[seat]


def explain(game: Game, action: Action) -> str | None:
    """A bot's action in words, with the odds that made it, for the table's log; None for what the log already says
    (placements, trades, the end of a phase)."""
    name = [t.name_en for t in game.map.territories]
    armies = game.armies
    me = _actor(game)
    odds = odds_for(game.rules)
    fleets = game.rules.fleets
    match action:
        case Blitz(s, t, stop) if fleets:
            until = f", stopping at {plural(stop, 'unit')}" if stop > 1 else ""
            return f"{_attacks(game, s, t)}: {_percent(units.conquest_chance(game, s, t, stop))} to take it{until}"
        case Attack(s, t, dice) if fleets:
            return (f"{_attacks(game, s, t)} with {plural(dice, 'die')} "
                    f"({_percent(units.conquest_chance(game, s, t))} to take it by attacking on)")
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
            s, t = battle.source, battle.target
            left = armies[s] + armies[t] - count
            return f"{me} moves {units.units(game, count, s, t)} into {name[t]}, leaving {left} in {name[s]}"
        case Fortify(s, t, count):
            return f"{me} moves {units.units(game, count, s, t)} from {name[s]} to {name[t]}"
        case Defend(dice):
            battle = game.battle
            assert battle is not None  # a defence answers an attack
            s, t = battle.source, battle.target
            hold = odds.hold_chance(armies[s], armies[t], battle.stop_at or 1, dice)
            defender = owner_name(game, game.owner[t])   # a seat's colour, or "neutral" for the neutral army
            return f"{defender} defends {name[t]} with {plural(dice, 'die')}: {_percent(hold)} to hold it"
    return None
