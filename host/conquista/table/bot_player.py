"""A bot at the table: its chosen action becomes the taps, turns and presses a person would make.

Used by the simulated board and, later, to play an absent player's seat on the real board.
"""

from __future__ import annotations

from conquista.rules.actions import Action, Attack, Blitz, Defend, EndPhase, Fortify, Occupy, Place, Trade
from conquista.rules.events import Phase
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
