"""A bot at the table: its chosen action becomes the taps, turns and presses a person would make.

Used by the simulated board and by the real one (`play`), whose set-up menu or saved game seats bots.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping

from conquista.bots.base import Bot
from conquista.rules.actions import Action, Attack, Blitz, Defend, EndPhase, Fortify, Occupy, Place, Trade
from conquista.rules.events import Phase
from conquista.table.bot_words import explain
from conquista.table.gestures import Button, Gesture, Hold, Press, Tap, Turn
from conquista.table.referee import Referee


def _select(referee: Referee, source: int, target: int) -> list[Gesture]:
    if referee.source == source and referee.target == target:
        return []
    if referee.source == source and referee.target < 0:
        return [Tap(target)]
    out: list[Gesture] = []
    if referee.source >= 0:
        out.append(Press(Button.CANCEL))  # start from a clean selection: a tap could otherwise pick a target
    return [*out, Tap(source), Tap(target)]


def gestures_for(referee: Referee, action: Action) -> list[Gesture]:
    """The gestures that make the referee apply `action` (or, for trades, the best set it offers)."""
    game = referee.game
    roll: list[Gesture] = [Press(Button.ROLL)]
    match action:
        case Place(t, count):
            return [Tap(t), *([Turn(count - 1)] if count > 1 else [])]
        case Trade():
            return [Press(Button.ROLL)]
        case EndPhase():
            return [Press(Button.NEXT)]
        case Attack(s, t, dice):
            selection = _select(referee, s, t)
            current = game.max_attack_dice(s) if selection else referee.count
            return [*selection, *([Turn(dice - current)] if dice != current else []), Press(Button.ROLL)]
        case Blitz(s, t, _stop):
            return [*_select(referee, s, t), Hold(Button.ROLL)]
        case Occupy(count):
            return [*([Turn(count - referee.count)] if count != referee.count else []), *roll]
        case Fortify(s, t, count):
            selection = _select(referee, s, t)
            current = game.armies[s] - 1 if selection else referee.count
            return [*selection, *([Turn(count - current)] if count != current else []), Press(Button.ROLL)]
        case Defend(dice):
            assert game.phase is Phase.DEFEND
            return [*([Turn(dice - referee.count)] if dice != referee.count else []), *roll]
    raise ValueError(f"a bot at the table cannot play {action!r}")


class BotSeats:
    """Bots at the table: the seats they play (seat → bot kind, e.g. "greedy") and, as time passes, the next
    gesture one of them makes, a think time after the previous one. Pure: time is passed in, and the bots are
    made by `make_bot(kind)`, passed in too (a random bot needs a generator, which the table does not hold)."""

    def __init__(self, make_bot: Callable[[str], Bot], kinds: Mapping[int, str] | None = None,
                 think_s: float = 0.6) -> None:
        self.make_bot = make_bot
        self.think_s = think_s
        self.kinds: dict[int, str] = {}
        self._bots: dict[int, Bot] = {}
        self._queue: deque[Gesture] = deque()
        self._due = 0.0
        self.seat(kinds or {})

    def seat(self, kinds: Mapping[int, str]) -> None:
        """Who the bots are from now on (a new game)."""
        self.kinds = dict(kinds)
        self._bots = {seat: self.make_bot(kind) for seat, kind in self.kinds.items()}
        self._queue.clear()

    def take_over(self, seat: int, _now: float = 0.0, kind: str = "greedy") -> None:
        """A bot plays `seat` from now on (a player left and the table chose a bot: `Referee.on_bot_seat`)."""
        self.seat({**self.kinds, seat: self.kinds.get(seat, kind)})

    @property
    def seats(self) -> frozenset[int]:
        return frozenset(self.kinds)

    def next_gesture(self, referee: Referee, now: float) -> Gesture | None:
        """The gesture a bot makes now, if one is to move and its think time is over; call `rested` after it."""
        game = referee.game
        to_move = game.to_move
        if (game.over or not isinstance(to_move, int) or to_move not in self._bots or referee.entry is not None
                or referee.prompt or referee.menu is not None or referee.power_question or referee.fault):
            self._queue.clear()
            return None
        if now < self._due:
            return None
        if not self._queue:
            action = self._bots[to_move].choose(game)
            line = explain(game, action)   # why, in words, for the table's log
            if line is not None:
                referee.note(line)
            self._queue.extend(gestures_for(referee, action))
        return self._queue.popleft()

    def rested(self, now: float) -> None:
        """The gesture was made (at `now`, when the hands let go): the next one comes a think time later."""
        self._due = now + self.think_s
