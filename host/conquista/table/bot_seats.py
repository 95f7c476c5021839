"""Bots seated at the table: when a bot's seat is to move, its action becomes gestures made one at a time at a pace
people can follow, and the action is explained in the table's log in words ("blue attacks Ukraine from Ural: 78 % to
take it"). Pure: the time is passed in; the bots are built by the caller.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

from conquista.bots.base import Bot
from conquista.bots.planner_odds import odds_for
from conquista.rules.actions import Action, Attack, Blitz, Defend, Fortify, Occupy
from conquista.rules.engine import Game
from conquista.table.bot_player import gestures_for
from conquista.table.gestures import Gesture
from conquista.table.referee import Referee
from conquista.table.wording import plural


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
            return f"{colour[game.owner[t]]} defends {name[t]} with {plural(dice, 'die')}: {_percent(hold)} to hold it"
    return None


class BotSeats:
    """The seats bots play and what each is doing: `next_gesture()` hands out the next gesture when it is due."""

    def __init__(self, bots: Mapping[int, Bot], think_time: float = 0.6) -> None:
        self.bots: dict[int, Bot] = dict(bots)
        self.think_time = think_time
        self._queue: deque[Gesture] = deque()
        self._due = 0.0

    @property
    def seats(self) -> frozenset[int]:
        return frozenset(self.bots)

    def next_gesture(self, referee: Referee, now: float) -> Gesture | None:
        """The gesture a bot makes now, or None (no bot to move, or still thinking). A new action is explained in
        the referee's log when it is chosen."""
        game = referee.game
        seat = game.to_move
        if game.over or not isinstance(seat, int) or seat not in self.bots or referee.entry is not None \
                or referee.prompt:
            self._queue.clear()
            return None
        if now < self._due:
            return None
        if not self._queue:
            action = self.bots[seat].choose(game)
            line = explain(game, action)
            if line is not None:
                referee.note(line)
            self._queue.extend(gestures_for(referee, action))
        self._due = now + self.think_time
        return self._queue.popleft() if self._queue else None

    def step(self, referee: Referee, now: float) -> None:
        """On the real board's loop: make the due gesture straight into the referee."""
        gesture = self.next_gesture(referee, now)
        if gesture is not None:
            referee.handle(gesture, now)
