"""What the referee notes of each applied action: the log's lines in words (placements on one territory read as one
line), the blinks of lost armies, the newly dealt territories that blink until their army is placed, and the last
battle (who attacked whom, with which dice, in which turn). It reads the table's state and returns what the table
keeps (`Noted`): the step (table/table_step.py) keeps it. Pure: time
is passed in."""

from __future__ import annotations

from dataclasses import replace

from conquista.errors import IllegalActionError
from conquista.rules.actions import Deal
from conquista.rules.engine import Game
from conquista.rules.events import ArmiesPlaced, BattleRolled, Event, TerritoryConquered, TerritoryDealt
from conquista.rules.records import frozen_record
from conquista.table.dealt import NewlyDealt
from conquista.table.log_lines import LogLines
from conquista.table.logview import describe_event
from conquista.table.referee_records import EffectKind, LastBattle, LightEffect

PlacedLine = tuple[int, int, bool, int, int]   # (player, territory, fleet, count, log index) of a placement's line


@frozen_record(slots=True, eq=False)
class Noted:
    """What the table keeps of one action: its log, the newly dealt territories and the light effects as they
    are after it, the last placement's line, which later placements extend (None: the last line is another's),
    and the battle rolled, if any."""

    log: LogLines
    dealt: NewlyDealt
    effects: tuple[LightEffect, ...]
    placed_line: PlacedLine | None
    battle: LastBattle | None


def record(before: Noted, game: Game, events: list[Event], now: float) -> Noted:
    """Note an applied action's events in the log and the lights: what the table keeps after it, from what it
    kept `before` (the game moved on by the action; `before.battle` is not read: the battle is this action's)."""
    losses: dict[int, int] = {}
    placed_line = before.placed_line
    log, dealt = before.log, before.dealt
    battle: LastBattle | None = None
    for event in events:
        if isinstance(event, TerritoryDealt):
            dealt = dealt.dealt(event.territory, event.player)
        elif isinstance(event, TerritoryConquered):
            dealt = dealt.changed_hands(event.territory)
        if isinstance(event, ArmiesPlaced):
            extended = _coalesce(game, log, placed_line, event)
            if extended is not None:
                log, placed_line = extended
                continue
        line = describe_event(game, event)
        placed_line = (event.player, event.territory, event.fleet, event.count, len(log)) \
            if isinstance(event, ArmiesPlaced) else None
        if line:
            log = log.added(line.strip())
        if isinstance(event, BattleRolled):
            battle = _battle(game, event, events)
            for t, lost in ((event.source, event.attacker_losses), (event.target, event.defender_losses)):
                if lost:
                    losses[t] = losses.get(t, 0) + lost
    # Blitz rolls come one action at a time; losses on a territory add up into one blink sequence.
    effects = before.effects
    for t, lost in losses.items():
        current = next((e for e in effects if e.kind is EffectKind.LOSS and e.territory == t and e.start == now),
                       None)
        if current is not None:
            effects = tuple(replace(e, count=e.count + lost) if e is current else e for e in effects)
        else:
            effects = (*effects, LightEffect(t, now, EffectKind.LOSS, lost))
    return Noted(log, dealt, effects, placed_line, battle)


def _battle(game: Game, rolled: BattleRolled, events: list[Event]) -> LastBattle:
    """The battle as it was fought: the defender is the target's owner before a conquest in the same events."""
    attacker = game.owner[rolled.source]
    defender = next((e.previous_owner for e in events
                     if isinstance(e, TerritoryConquered) and e.territory == rolled.target), game.owner[rolled.target])
    return LastBattle(rolled.source, rolled.target, attacker, defender, rolled.attack, rolled.defend,
                      (game.turn, game.current))


def _coalesce(game: Game, log: LogLines, last: PlacedLine | None,
              event: ArmiesPlaced) -> tuple[LogLines, PlacedLine] | None:
    """Armies (or fleets) placed one tap or one encoder step at a time on the same territory read as one line: the
    log with the line extended, or None when the placement starts a line of its own."""
    if last is None or last[:3] != (event.player, event.territory, event.fleet) or last[4] != len(log) - 1:
        return None
    total = last[3] + event.count
    placed = ArmiesPlaced(event.player, event.territory, total, event.fleet)
    return (log.replaced_last((describe_event(game, placed) or "").strip()),
            (event.player, event.territory, event.fleet, total, last[4]))


RECENT_LINES = 200   # the lines a resumed game shows of its past (the terminal's `log`, the public board)


def recent_log(game: Game) -> list[str]:
    """A resumed game's recent log, rebuilt by replaying its actions (the journal's rows) as they were noted live:
    placements on one territory in a row read as one line. Empty for a game with nothing but its deal."""
    return replayed(game)[0]


def last_battle(game: Game) -> LastBattle | None:
    """A resumed game's last battle, found by replaying it (None: none, or a position with no history)."""
    return replayed(game)[1]


def replayed(game: Game) -> tuple[list[str], LastBattle | None]:
    """A resumed game's recent log and its last battle, by replaying its actions as they were noted live."""
    if len(game.log) < 2 or not isinstance(game.log[0], Deal):
        return [], None
    fresh = Game(game.rules, game.map, game.players, game.log[0])
    lines: list[str] = []
    battle: LastBattle | None = None
    last: tuple[int, int, bool, int] | None = None
    for action in game.log[1:]:
        try:
            events = fresh.apply(action)
        except IllegalActionError:
            return [], None   # a position built from a snapshot (tests, tools): its log is no history to tell
        for event in events:
            if isinstance(event, BattleRolled):
                battle = _battle(fresh, event, events)
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
    return lines[-RECENT_LINES:], battle
