"""The table's state as one value (issue 36): everything the referee holds beside the engine, frozen, made anew by
the table's one step (table/table_step.py, `step(state, input, now) -> (state, effects)`) and by nothing else.

python-chess is the model: the game is one handle with its own pair of mutators (`Game.apply`, `Game.undo`) and
its own history (`Game.log`), which the state holds as it is; so does the chance source (`DiceSource`, a stream
of dice). Everything else here is a value: the selection, the words, the faults, the claims, the hints, the log,
the last roll and battle, the light effects, the turn clock and the tournament clock, the mode asked for.

The helpers (the modes, the gesture reader, the prompt words, the ring, the lights, the log's recorder, the clocks,
leaving) read a state and return what they decide (table/decisions.py); the screens read a view made from one
(table/table_view.py). `ModeView` is what a mode answers, so this module needs no mode's code.
"""

from __future__ import annotations

from typing import Protocol

from conquista.dice.sources import DiceSource
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.records import frozen_record
from conquista.table.colours import RGB, Palette
from conquista.table.dealt import NO_DEAL, NewlyDealt
from conquista.table.decisions import Decisions, MenuView
from conquista.table.gestures import Gesture
from conquista.table.hint_asks import HintAsks
from conquista.table.inputs import HOLDING, FaultSource
from conquista.table.log_lines import NO_LINES, LogLines
from conquista.table.questions import TableQuestion
from conquista.table.referee_records import (
    NO_SELECTION,
    STOPPED_CLOCK,
    DiceEntry,
    LastBattle,
    LightEffect,
    MessageKind,
    Selection,
    TurnClock,
)
from conquista.table.seat_claims import SeatClaims
from conquista.table.tournament_clock import TournamentClock
from conquista.table.wording import owner_name
from conquista.table.wording import readable as readable_text


class ModeView(Protocol):
    """What the table is doing now (conquista.table.modes.Mode): what a gesture does, the pending line and the
    ring, and the answers the turn clock, the bots and the phones ask for."""

    clock_runs: bool
    shows_clock: bool
    takes_play: bool
    phones_may_act: bool
    ring_marks: bool

    @property
    def question(self) -> TableQuestion | None: ...

    @property
    def menu(self) -> MenuView | None: ...

    @property
    def entry(self) -> DiceEntry | None: ...

    def gesture(self, state: TableState, gesture: Gesture, now: float) -> Decisions: ...

    def pending(self, state: TableState) -> str: ...

    def ring(self, state: TableState, now: float) -> tuple[RGB, ...]: ...


# No slots: a step copies the fields in and out as one dict (table/table_step.py), ten times cheaper than by name.
@frozen_record(eq=False)
class TableState:
    """The table at one version (see the module's words)."""

    game: Game                      # the engine's handle (its own mutators and history)
    dice: DiceSource                # the game's chance source: dice and card draws
    mode: ModeView                  # what the table does now: worked out from the fields below at each step
    version: int = 0                # moves on every change the screens may show
    now: float = 0.0                # the time of the last input
    ring_size: int = 16
    palette: Palette = Palette.STANDARD
    physical_dice: bool = False
    defend_timeout_s: float = 15.0
    selection: Selection = NO_SELECTION
    last_roll: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    message: str = ""               # why the last gesture or command was refused, or (NOTICE) what it did
    message_kind: MessageKind = MessageKind.REFUSAL
    refused_at: float = float("-inf")   # when a press was last refused (the buzzer sounds it)
    faults: tuple[tuple[FaultSource, str], ...] = ()   # each source's fault apart, so none clears another's
    claims: SeatClaims = SeatClaims()
    asked: ModeView | None = None   # a question, the set-up menu, or dice typed in (None: the mode follows)
    power: ModeView | None = None   # NEXT held for 5 s asks; above every other mode and fault
    power_off: bool = False
    new_game_offered: bool = False
    bots_available: bool = False
    log: LogLines = NO_LINES
    last_placed_line: tuple[int, int, bool, int, int] | None = None
    last_battle: LastBattle | None = None
    effects: tuple[LightEffect, ...] = ()
    undoable: tuple[int, ...] = ()   # the seat behind each action at the log's end that CANCEL may take back
    forced_end: int = -1             # the log's length after an end of reinforcements the table made itself
    dealt: NewlyDealt = NO_DEAL
    phase_started: float = 0.0       # when the phase (and player) began: the defender's time-out counts from it
    last_phase: tuple[Phase, int] = (Phase.SETUP, 0)
    turn_clock: TurnClock = STOPPED_CLOCK
    tournament: TournamentClock = TournamentClock()
    hints_allowed: bool = True
    hint_leds: bool = False
    hints_asked: tuple[tuple[int, int], ...] = ()   # (seat, hints asked this game), by seat
    hint_asks: HintAsks = HintAsks()
    moves: int = 0                   # every action applied or undone, a new game, hints turned off
    hosted: bool = False             # a table set up from a phone: its first seat granted hosts
    host: int = -1
    turn_key: tuple[int, int, int] = (-1, -1, -1)   # the game, turn and player when the turn began
    turn_started: float = 0.0

    # ------------------------------------------------------------------------------------------- reads

    @property
    def fault(self) -> str:
        """The fault that holds the game, the most important first ("": none)."""
        faults = self.faults
        if not faults:   # the usual case, asked several times a frame
            return ""
        held = dict(faults)
        return next((held[s] for s in HOLDING if s in held), "")

    @property
    def storage_fault(self) -> str:
        """The journal's disk refuses writes: the ring shows it, but play goes on."""
        return next((text for source, text in self.faults if source is FaultSource.STORAGE), "")

    @property
    def paused(self) -> bool:
        return any(source is FaultSource.HOST for source, _ in self.faults)

    @property
    def source(self) -> int:
        return self.selection.source

    @property
    def target(self) -> int:
        return self.selection.target

    @property
    def count(self) -> int:
        return self.selection.count

    @property
    def defence(self) -> int:
        """The defender's dice (its own count: the attacker's `count` is kept apart)."""
        return self.selection.defence

    @property
    def last_placed(self) -> int:
        return self.selection.last_placed

    @property
    def last_fleet(self) -> bool:
        return self.selection.last_fleet

    @property
    def question(self) -> TableQuestion | None:
        asked = self.asked
        return asked.question if asked is not None else None

    @property
    def prompt(self) -> str:
        """The yes/no question being asked ("": none)."""
        question = self.question
        return question.text if question is not None else ""

    @property
    def prompt_colour(self) -> RGB | None:
        question = self.question
        return question.colour if question is not None else None

    @property
    def menu(self) -> MenuView | None:
        asked = self.asked
        return asked.menu if asked is not None else None

    @property
    def entry(self) -> DiceEntry | None:
        """Physical dice being typed in."""
        asked = self.asked
        return asked.entry if asked is not None else None

    @property
    def power_question(self) -> bool:
        return self.power is not None

    @property
    def can_undo(self) -> bool:
        """A placement or move of this turn may be taken back now (CANCEL; − while placing)."""
        return bool(self.undoable)

    def hints_of(self, seat: int) -> int:
        return dict(self.hints_asked).get(seat, 0)

    def readable(self, text: str) -> str:
        return readable_text(text, self.game.map, self.game.rules.colours)

    def territory_name(self, t: int) -> str:
        return self.game.map.territories[t].name_en

    def seat_name(self, seat: int | None) -> str:
        return owner_name(self.game, seat) if seat is not None else "nobody"  # "neutral" for the neutral army

    # --------------------------------------------------------------------------------------- the turn clock

    @property
    def clock_running(self) -> bool:
        """The turn clock runs: a ruleset with a limit, and the player to move can act (no question, fault, menu
        or dice being typed in)."""
        return bool(self.game.rules.turn_time_limit_s) and self.mode.clock_runs and self.game.turn_clock_runs()

    def time_left(self, now: float) -> float | None:
        """Seconds left of the turn at `now`, or None when the ruleset has no limit (or nothing is timed now)."""
        limit = self.game.rules.turn_time_limit_s
        if not limit or not self.mode.shows_clock:
            return None
        if self.turn_clock.key != self.game.clock_key():
            return float(limit)
        return max(0.0, limit - self.turn_clock.used_at(now))

    def time_fraction(self, now: float) -> float | None:
        left = self.time_left(now)
        return None if left is None else left / self.game.rules.turn_time_limit_s
