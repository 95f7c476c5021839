"""The referee's records (what the lights show, the status in words, effects, dice typed in) and its phase groups.
Pure: no clock, no device."""

from __future__ import annotations

from enum import Enum, StrEnum

from conquista.rules.events import PLACING_PHASES, Phase
from conquista.rules.records import frozen_record
from conquista.rules.table_features import ClockKey
from conquista.rules.tournament import TournamentStatus
from conquista.table.colours import RGB

BLINK_PERIOD_S = 0.4      # one blink (on + off) per army lost
# Taps place armies: the player's own, or (duel) the neutral army's, placed by the current player's opponent.
PLACING = PLACING_PHASES
ATTACKING = (Phase.ATTACK, Phase.NEUTRAL_ATTACK)  # the current player's attacks, or the neutral army's
DiceRow = tuple[int | None, int | None, int | None]  # three dice of one colour; None = dark


@frozen_record
class Scene:
    """What every light shows: one colour per territory, the dice panel's values (None = die dark; attack dice in
    red, defence dice in blue), the status ring."""

    territories: tuple[RGB, ...]
    attack_dice: DiceRow
    defence_dice: DiceRow
    ring: tuple[RGB, ...]


class MessageKind(Enum):
    """What the referee's line of words is: screens show only a refusal as one (the terminal's "!", the phone's
    refusal red); a notice confirms or informs; a warning is a fault that does not stop play (the journal's disk)."""

    REFUSAL = "refusal"    # a gesture or command that changed nothing, and why
    NOTICE = "notice"      # something done or decided: a seat granted, a bot taking over, a time-out, a new game
    WARNING = "warning"


@frozen_record
class Status:
    player: int
    colour: str
    phase: str
    pending: str
    message: str
    turn: int
    round: int
    pool: int
    chance: float | None = None
    winner: int | None = None
    time_left: float | None = None       # seconds left of the turn (a ruleset with a turn time limit)
    left: tuple[int, ...] = ()           # the seats that left the game
    claim: str = ""                      # a phone's seat claim waiting for the chord, in words
    tournament: TournamentStatus | None = None   # the tournament ending's clock, stage and points
    message_kind: MessageKind = MessageKind.REFUSAL


class EffectKind(StrEnum):
    ILLEGAL = "illegal"    # a refused tap: the territory flashes red
    LOSS = "loss"          # armies lost: the territory blinks once per army
    HINT = "hint"          # a hint's territories (the host allows hints on the LEDs): blinks `count` times


@frozen_record(slots=True)
class LightEffect:
    """A territory's animation from `start`: a refused tap's flash, or the blinks of armies lost."""

    territory: int
    start: float
    kind: EffectKind
    count: int = 1


@frozen_record
class Selection:
    """What the play modes have chosen with taps and the encoder (table/modes.py's play modes own it, as
    `TypingDice` owns its `DiceEntry`): the source and the target (-1: none), the count the encoder sets (the
    attacker's dice, the armies to move), the last placement, where the encoder places more (a fleet's: fleets),
    and the defender's dice (0: none chosen yet, the most). The attacker's dice and the defender's are kept apart,
    each from roll to roll of the battle chosen: the defender lowering its defence never changes the next attack."""

    source: int = -1
    target: int = -1
    count: int = 0
    last_placed: int = -1
    last_fleet: bool = False
    defence: int = 0

    # The changes a gesture makes, each a new value built directly (`dataclasses.replace` costs a tap ten times
    # as much), and the same value when nothing changes. A new source or target is a new battle: the defender
    # chooses afresh.

    def cleared(self) -> Selection:
        """No source nor target (the count and the last placement stay)."""
        if self.source < 0 and self.target < 0:
            return self
        return Selection(-1, -1, self.count, self.last_placed, self.last_fleet)

    def with_source(self, source: int) -> Selection:
        """A new source, no target yet."""
        if source == self.source and self.target < 0:
            return self
        return Selection(source, -1, self.count, self.last_placed, self.last_fleet)

    def with_target(self, target: int, count: int) -> Selection:
        """A target (or a destination) and the count the encoder starts from."""
        if target == self.target and count == self.count:
            return self
        defence = self.defence if target == self.target else 0
        return Selection(self.source, target, count, self.last_placed, self.last_fleet, defence)

    def with_count(self, count: int) -> Selection:
        return self if count == self.count else Selection(self.source, self.target, count, self.last_placed,
                                                           self.last_fleet, self.defence)

    def with_defence(self, defence: int) -> Selection:
        """The defender's dice (the attacker's count stays)."""
        return self if defence == self.defence else Selection(self.source, self.target, self.count,
                                                               self.last_placed, self.last_fleet, defence)

    def placed(self, territory: int, fleet: bool = False) -> Selection:
        """The last placement (-1: none), where the encoder places more."""
        if territory == self.last_placed and fleet == self.last_fleet:
            return self
        return Selection(self.source, self.target, self.count, territory, fleet, self.defence)


NO_SELECTION = Selection()


@frozen_record
class LastBattle:
    """The last battle rolled, as the referee saw it: where from and where to, who attacked whom (seats; the
    defender is the seat that held the target when the dice were rolled, even once it is conquered), the dice,
    and the turn and player it was rolled in."""

    source: int
    target: int
    attacker: int
    defender: int
    attack: tuple[int, ...]
    defend: tuple[int, ...]
    turn: tuple[int, int]


@frozen_record(slots=True)
class DiceEntry:
    """Physical dice: values typed in with the encoder, one die at a time, attack dice first (a value: each die
    turned or confirmed makes a new entry)."""

    needed: int
    attack: int        # the first `attack` dice are the attacker's
    values: tuple[int, ...] = ()
    current: int = 1

    def turned(self, steps: int) -> DiceEntry:
        return DiceEntry(self.needed, self.attack, self.values, (self.current - 1 + steps) % 6 + 1)

    def confirmed(self) -> DiceEntry:
        return DiceEntry(self.needed, self.attack, (*self.values, self.current), 1)

    def taken_back(self) -> DiceEntry:
        return DiceEntry(self.needed, self.attack, self.values[:-1], self.current)


@frozen_record(slots=True)
class TurnClock:
    """Seconds used of the current turn (what one run of the clock is for: `key`), from the times passed in: a
    value (a part of the table's state); `update` returns the clock at `now`."""

    key: ClockKey | None = None
    used: float = 0.0
    last: float = 0.0
    running: bool = False

    def update(self, key: ClockKey, running: bool, now: float) -> TurnClock:
        if key != self.key:
            return TurnClock(key, 0.0, now, running)
        if not running and not self.running:
            return self   # stopped and staying so: `last` counts only while it runs
        used = self.used + max(0.0, now - self.last) if self.running else self.used
        if used == self.used and now == self.last and running == self.running:
            return self   # the usual case within one step: nothing moved
        return TurnClock(key, used, now, running)

    def used_at(self, now: float) -> float:
        return self.used + (max(0.0, now - self.last) if self.running else 0.0)


STOPPED_CLOCK = TurnClock()
