"""What the referee's parts see of it: the narrow context through which the gesture reader (referee_input), the
painter (referee_lights, ring), the recorder (referee_log), the prompt words (pending), the turn clock (turn_clock)
and a player leaving (leaving) read and act on the table, without importing the referee (so `conquista.table` has
no import circle, type-checking imports included). `Referee` (table/referee.py) is the one implementation."""

from __future__ import annotations

from typing import Any, Protocol

from conquista.rules.actions import Action
from conquista.rules.engine import Game
from conquista.rules.table_features import ClockKey
from conquista.table.colours import RGB, Palette
from conquista.table.dealt import NewlyDealt
from conquista.table.effects import Effect
from conquista.table.questions import TableQuestion
from conquista.table.referee_records import DiceEntry, LastBattle, LightEffect, MessageKind, Selection
from conquista.table.seat_claims import SeatClaims
from conquista.table.tournament_clock import TournamentClock


class TurnClockView(Protocol):
    """The turn clock (conquista.table.turn_clock.TurnClock)."""

    key: ClockKey | None

    def update(self, key: ClockKey, running: bool, now: float) -> None: ...

    def used_at(self, now: float) -> float: ...


class MenuView(Protocol):
    """The set-up menu while it is shown (conquista.table.setup_menu.SetupMenu)."""

    def describe(self) -> str: ...

    def ring(self, n: int, now: float) -> tuple[RGB, ...]: ...

    def view(self) -> dict[str, Any]: ...


class ModeView(Protocol):
    """What the table is doing now (conquista.table.modes.Mode): its answers, which the painter, the turn clock, the
    bots and the phones ask for."""

    clock_runs: bool
    shows_clock: bool
    takes_play: bool
    phones_may_act: bool
    ring_marks: bool

    def pending(self, desk: Desk) -> str: ...

    def ring(self, desk: Desk, now: float) -> tuple[RGB, ...]: ...


class Desk(Protocol):
    """Read by every part: the painter, the ring and the words read it; the modes and helpers change the table only
    through its methods (`hold`, `apply_action`, `illegal`, `refuse`, `notice`, ...), never by writing a field
    (tests/test_code_shape.py fails on one written outside table/referee.py and table/modes.py)."""

    # The game and what the table holds of it beside the engine. The containers (`dealt`, `log`, `effects`,
    # `claims`) are the referee's parts, which its helpers fill.
    game: Game
    dealt: NewlyDealt
    claims: SeatClaims
    ring_size: int
    palette: Palette          # the seats' LED colours (the host may choose the colour-blind one)
    tournament: TournamentClock   # the tournament ending's clock of play
    selection: Selection      # the play mode's: source, target, count, last placement (`hold` replaces it)
    last_roll: tuple[tuple[int, ...], tuple[int, ...]]
    last_battle: LastBattle | None
    # What the screens say, and the lights' animations.
    message_kind: MessageKind
    log: list[str]
    last_placed_line: tuple[int, int, bool, int, int] | None
    effects: list[LightEffect]
    power_off: bool           # the players said yes to the power-off question
    # What the app says of itself, as data (its inputs `OfferBots`, `OfferNewGame`): a bot may take a leaving
    # player's seat; ROLL after the end asks for the next game's set-up menu.
    bots_available: bool
    new_game_offered: bool

    @property
    def now(self) -> float: ...

    @property
    def message(self) -> str: ...

    @property
    def source(self) -> int: ...

    @property
    def target(self) -> int: ...

    @property
    def count(self) -> int: ...

    @property
    def defence(self) -> int: ...

    @property
    def last_placed(self) -> int: ...

    @property
    def last_fleet(self) -> bool: ...

    @property
    def mode(self) -> ModeView: ...

    def end(self, mode: object) -> None:
        """`mode` is over: the table leaves it (when it is still in it)."""

    # What the modes hold, for the screens that show it (read only).
    @property
    def menu(self) -> MenuView | None: ...

    @property
    def entry(self) -> DiceEntry | None: ...

    @property
    def prompt(self) -> str: ...

    @property
    def power_question(self) -> bool: ...

    @property
    def turn_clock(self) -> TurnClockView: ...

    @property
    def fault(self) -> str: ...

    @property
    def storage_fault(self) -> str: ...

    def apply_action(self, action: Action, now: float) -> bool:
        """Apply `action`; False when refused (the reason said as a button press's)."""

    def illegal(self, t: int, now: float, reason: str) -> None: ...

    def refuse(self, now: float, reason: str) -> None: ...

    def notice(self, text: str) -> None: ...

    def undo_last(self) -> bool: ...

    def clear_selection(self) -> None: ...

    def hold(self, selection: Selection) -> None:
        """The play mode's selection from now on."""

    def refuse_quietly(self, reason: str) -> None:
        """A refusal's reason on the screens, with no buzz (the encoder turned to no effect)."""

    def note(self, line: str) -> None: ...

    def ask(self, question: TableQuestion) -> None: ...

    def answer(self, question: TableQuestion, yes: bool, now: float) -> None:
        """A question was answered: the table's own are answered here, the rest leave as `Answered`."""

    def give(self, effect: Effect) -> None:
        """Give an effect out to the shell (table/effects.py)."""

    def territory_name(self, t: int) -> str: ...

    def seat_name(self, seat: int | None) -> str: ...

    def readable(self, text: str) -> str: ...
