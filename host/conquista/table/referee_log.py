"""What the referee notes of each applied action: the log's lines in words (placements on one territory read as one
line), the blinks of lost armies, and the newly dealt territories that blink until their army is placed. The part
of `Referee` (table/referee.py) that records, kept apart for size. Pure: time is passed in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.errors import IllegalActionError
from conquista.rules.actions import Action, Deal
from conquista.rules.engine import Game
from conquista.rules.events import ArmiesPlaced, BattleRolled, Event, TerritoryConquered, TerritoryDealt
from conquista.table.logview import describe_event
from conquista.table.referee_records import EffectKind, LightEffect

if TYPE_CHECKING:
    from conquista.table.desk import Desk


def record(referee: Desk, action: Action, events: list[Event], now: float) -> None:
    """Note an applied action's events in the log and the lights."""
    losses: dict[int, int] = {}
    for event in events:
        if isinstance(event, TerritoryDealt):
            referee.dealt.dealt(event.territory, event.player)
        elif isinstance(event, TerritoryConquered):
            referee.dealt.changed_hands(event.territory)
        if isinstance(event, ArmiesPlaced) and _coalesce(referee, event):
            continue
        line = describe_event(referee.game, event)
        referee.last_placed_line = (event.player, event.territory, event.fleet, event.count, len(referee.log)) \
            if isinstance(event, ArmiesPlaced) else None
        if line:
            referee.log.append(line.strip())
        if isinstance(event, BattleRolled):
            referee.last_roll = (event.attack, event.defend)
            for t, lost in ((event.source, event.attacker_losses), (event.target, event.defender_losses)):
                if lost:
                    losses[t] = losses.get(t, 0) + lost
    # Blitz rolls come one action at a time; losses on a territory add up into one blink sequence.
    for t, lost in losses.items():
        current = next((e for e in referee.effects if e.kind is EffectKind.LOSS and e.territory == t
                        and e.start == now), None)
        if current:
            current.count += lost
        else:
            referee.effects.append(LightEffect(t, now, EffectKind.LOSS, lost))


def _coalesce(referee: Desk, event: ArmiesPlaced) -> bool:
    """Armies (or fleets) placed one tap or one encoder step at a time on the same territory read as one line."""
    last = referee.last_placed_line
    log = referee.log
    if last is None or last[:3] != (event.player, event.territory, event.fleet) or last[4] != len(log) - 1:
        return False
    total = last[3] + event.count
    placed = ArmiesPlaced(event.player, event.territory, total, event.fleet)
    log[-1] = (describe_event(referee.game, placed) or "").strip()
    referee.last_placed_line = (event.player, event.territory, event.fleet, total, last[4])
    return True


RECENT_LINES = 200   # the lines a resumed game shows of its past (the terminal's `log`, the public board)


def recent_log(game: Game) -> list[str]:
    """A resumed game's recent log, rebuilt by replaying its actions (the journal's rows) as they were noted live:
    placements on one territory in a row read as one line. Empty for a game with nothing but its deal."""
    if len(game.log) < 2 or not isinstance(game.log[0], Deal):
        return []
    fresh = Game(game.rules, game.map, game.players, game.log[0])
    lines: list[str] = []
    last: tuple[int, int, bool, int] | None = None
    for action in game.log[1:]:
        try:
            events = fresh.apply(action)
        except IllegalActionError:
            return []   # a position built from a snapshot (tests, tools): its log is no history to tell
        for event in events:
            if isinstance(event, ArmiesPlaced) and last is not None and last[:3] == (event.player, event.territory,
                                                                                      event.fleet):
                total = last[3] + event.count
                lines[-1] = (describe_event(fresh, ArmiesPlaced(event.player, event.territory, total,
                                                                event.fleet)) or "").strip()
                last = (event.player, event.territory, event.fleet, total)
                continue
            line = describe_event(fresh, event)
            last = (event.player, event.territory, event.fleet, event.count) if isinstance(event, ArmiesPlaced) \
                else None
            if line:
                lines.append(line.strip())
    return lines[-RECENT_LINES:]
