"""Hints for a learner: what the hard bot would do now in a seat's place, in a player's words, with the territories
to look at.

The hard bot reasons on what the asking seat may know: it is handed a copy of the game in which every other seat's
mission and cards and the deck are made up afresh from public facts (`bots.seat_view`), so a hint cannot give away
another player's secrets. Pure: the game is passed in. At the table the view is taken on the board's loop
(`hint_view`) and searched elsewhere (`hint_on`: a few seconds on a small board), see `table/hint_asks.py`.
"""

from __future__ import annotations

import random

from conquista.bots.hard import HardBot
from conquista.bots.lookahead import public_seed
from conquista.bots.seat_view import seat_view
from conquista.rules.actions import Action, Attack, Blitz, Defend, EndPhase, Fortify, Occupy, Place, Trade
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.table import unit_kinds as units
from conquista.table.bot_words import explain, named_territories
from conquista.table.hint_asks import Hint as Hint  # the record, long imported from here
from conquista.table.wording import plural

MOST_PLACES = 60   # a hint's placements, at most (a pool is far smaller; the search is bounded whatever a bot does)
# Each phase's end, in the words of the button that makes it.
_ENDS = {Phase.REINFORCE: "end your reinforcement (NEXT)", Phase.ATTACK: "stop attacking (NEXT)",
         Phase.FORTIFY: "end your turn without moving armies (NEXT)"}


def hint_for(game: Game, seat: int, bot: HardBot | None = None) -> Hint:
    """What the hard bot (`bot`, a fresh one by default) would do now for `seat`, which must be the seat to move."""
    return hint_on(hint_view(game, seat), seat, bot)


def hint_view(game: Game, seat: int) -> Game:
    """What `seat` may know of `game`, as a game of its own (a copy: the search may run while the game goes on)."""
    if game.to_move != seat:
        raise ValueError(f"seat {seat} is not to move")
    return seat_view(game, seat, random.Random(f"hint:{public_seed(game, seat)}"))


def hint_on(view: Game, seat: int, bot: HardBot | None = None) -> Hint:
    """What the hard bot would do on `view` (from `hint_view`) for `seat`, in words."""
    bot = bot or HardBot()
    action = bot.choose(view)
    stops = view.phase is Phase.ATTACK and isinstance(action, EndPhase)   # a bold plan is not said to be played
    reason = bot.choice.words(attacking=not stops) if bot.choice is not None else ""
    if isinstance(action, Place):
        places = _placements(view, seat, bot, action)
        words = f"hard would place {_placed(view, places)}" + (f"; it {reason}" if reason else "")
        return Hint(seat, action, words, tuple(dict.fromkeys(p.territory for p in places)))
    return Hint(seat, action, _words(view, action, reason), named_territories(action))


def _placements(view: Game, seat: int, bot: HardBot, first: Place) -> list[Place]:
    """Every placement hard would make for the armies left to place, not only its first (a hint for 3 armies of 16
    says little): its next choices, on a copy, while the same seat places in the same phase."""
    game = view.clone()
    phase = game.phase
    places = [first]
    game.apply(first)
    while game.phase is phase and game.to_move == seat and game.pool and len(places) < MOST_PLACES:
        action = bot.choose(game)
        if not isinstance(action, Place):
            break
        places.append(action)
        game.apply(action)
    return places


def _placed(game: Game, places: list[Place]) -> str:
    """"16 armies: 10 on China, 6 on Siam", or "3 armies on China" when all go to one territory (fleets said as
    such: "4 armies and 1 fleet: 4 on Alaska, 1 fleet on Kamchatka")."""
    name = [t.name_en for t in game.map.territories]
    counts: dict[tuple[int, bool], int] = {}
    for p in places:
        counts[p.territory, p.fleet] = counts.get((p.territory, p.fleet), 0) + p.count
    fleets = sum(n for (_, fleet), n in counts.items() if fleet)
    armies = sum(counts.values()) - fleets
    total = " and ".join(w for w in (plural(armies, "army") if armies else "",
                                     plural(fleets, "fleet") if fleets else "") if w)
    if len(counts) == 1:
        return f"{total} on {name[next(iter(counts))[0]]}"
    return f"{total}: " + ", ".join(f"{plural(n, 'fleet') if fleet else n} on {name[t]}"
                                    for (t, fleet), n in counts.items())


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
        case Attack(s, t) | Blitz(s, t):
            what = (f"attack {name[t]} with your fleets in {name[s]}" if game.sails(s, t)
                    else f"attack {name[t]} from {name[s]}") + _odds(explain(game, action))
        case Fortify(s, t, count):
            what = f"move {units.units(game, count, s, t)} from {name[s]} to {name[t]}"
        case Defend(dice):
            battle = game.battle
            assert battle is not None   # a defence answers an attack
            what = f"defend {name[battle.target]} with {plural(dice, 'die')}" + _odds(explain(game, action))
        case _:
            what = game.describe(action)
    line = f"hard would {what}"
    if reason:
        line += f"; it {reason}"
    return line


def _odds(said: str | None) -> str:
    """The odds of the table log's line (`bot_words.explain`), said once: " (78 % to take it)", or the dice and their
    odds (" with 3 dice (78 % to take it by attacking on)")."""
    if not said:
        return ""
    if ": " in said:
        return f" ({said.split(': ', 1)[1].strip()})"
    return said[said.index(" with "):] if " with " in said else ""
