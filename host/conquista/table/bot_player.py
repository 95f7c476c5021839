"""A bot at the table: its chosen action becomes the taps, turns and presses a person would make.

Used by the simulated board and by the real one (`play`), whose set-up menu or saved game seats bots.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping

from conquista.bots.base import Bot
from conquista.bots.roster import DEFAULT_BOT
from conquista.rules.actions import Action, Attack, Blitz, Defend, EndPhase, Fortify, Occupy, Place, Trade
from conquista.rules.events import Phase
from conquista.table.gestures import Button, Gesture, Hold, LongPress, Press, Tap, Turn
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
    """The gestures that make the referee apply `action` (or, for trades, the best set it offers). A newly dealt
    territory the action names, still blinking, is tapped first: that tap only says its army is on the board."""
    # Imported at a bot's first move, as its words are (bot_words loads the odds tables).
    from conquista.table.bot_words import named_territories

    blinking = set(referee.dealt.blinking(referee.game))
    confirm: list[Gesture] = [Tap(t) for t in named_territories(action) if t in blinking]
    return [*confirm, *_gestures(referee, action)]


def _gestures(referee: Referee, action: Action) -> list[Gesture]:
    game = referee.game
    roll: list[Gesture] = [Press(Button.ROLL)]
    match action:
        case Place(t, count, fleet):
            # A long press places a fleet; the encoder then places more of the same kind.
            return [LongPress(t) if fleet else Tap(t), *([Turn(count - 1)] if count > 1 else [])]
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
            current = game.movable(s, t) if selection else referee.count
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

    def take_over(self, seat: int, _now: float = 0.0, kind: str = DEFAULT_BOT) -> None:
        """A bot plays `seat` from now on (a player left and the table chose a bot: the referee's `SeatToBot`)."""
        self.seat({**self.kinds, seat: self.kinds.get(seat, kind)})

    def due(self, referee: Referee) -> float:
        """When a bot makes its next gesture (the board's loop wakes then); infinity when no bot is to act."""
        game = referee.game
        to_move = game.to_move
        acting = (isinstance(to_move, int) and to_move in self._bots) or bool(self._queue) \
            or any(game.owner[t] in self._bots for t in referee.dealt.blinking(game))
        return self._due if acting else float("inf")

    @property
    def seats(self) -> frozenset[int]:
        return frozenset(self.kinds)

    def next_gesture(self, referee: Referee, now: float) -> Gesture | None:
        """The gesture a bot makes now, if one is to move (or a bot's newly dealt territory blinks) and its think
        time is over; call `rested` after it."""
        game = referee.game
        if not referee.mode.takes_play:   # a question, the menu, dice typed in, a fault, the game's end
            self._queue.clear()
            return None
        to_move = game.to_move
        seat = to_move if isinstance(to_move, int) and to_move in self._bots else None
        if seat is None:
            self._queue.clear()   # a person is to move
        if now < self._due:
            return None
        if not self._queue:
            confirm = self._confirm(referee)
            if confirm is not None or seat is None:
                return confirm
            bot = self._bots[seat]
            action = bot.choose(game)
            # Imported at a bot's first move: its odds tables are not what the board's first frame needs.
            from conquista.table.bot_words import explain

            take_reason = getattr(bot, "take_reason", None)   # the hard bot's plan for the turn (bots/base.py)
            reason = take_reason() if take_reason is not None else None
            for line in (reason, explain(game, action)):   # why, in words, for the table's log
                if line is not None:
                    referee.note(line)
            self._queue.extend(gestures_for(referee, action))
        return self._queue.popleft()

    def _confirm(self, referee: Referee) -> Gesture | None:
        """A tap on a newly dealt territory of a bot's seat, still blinking: the bot says its army is on the board
        (at a real table a person puts it there for the bot)."""
        game = referee.game
        return next((Tap(t) for t in referee.dealt.blinking(game) if game.owner[t] in self._bots), None)

    def rested(self, now: float) -> None:
        """The gesture was made (at `now`, when the hands let go): the next one comes a think time later."""
        self._due = now + self.think_s
