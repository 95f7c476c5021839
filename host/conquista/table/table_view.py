"""The one read model of the table (issue 36): what every screen shows, made once per version of the referee.

Every screen reads the table only through a `TableView` (`Referee.view()`): the phones' and the TV's views
(web/views.py), the companion, the board's loop (`animated`), the buzzer (app/sounds.py), the simulator's terminal
and the command line. None of them reads a field of the referee, so none can build a picture of the table of its
own that disagrees with another's. The view is made when the referee's version moved since the last one (a
frozen value of what the table holds then: the selection, the words, the faults, the log's tail, the last roll
and battle, the claims, the settings, the turn clock); what costs more to work out (the status in words, the
chance of the attack chosen, the territories blinking) is worked out at its first read and kept, from the same
version: a view read after the table moved on refuses (`StaleView`), rather than mix two versions.

A seat's private part (mission, hand, the sets it may trade, whether it may ask for a hint) is its own view,
`SeatPrivate`, made from the same version by `TableView.private(seat)`; the public view holds no secret.

`game` is the game's handle: the engine's queries (owners, armies, legal actions, odds) are read from it; nothing
outside the referee applies an action to it (tests/test_referee_writes.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from conquista.dice.sources import DiceSource
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.records import frozen_record
from conquista.table.colours import Palette
from conquista.table.inputs import FaultSource
from conquista.table.log_lines import LogLines
from conquista.table.referee_records import DiceRow, LastBattle, MessageKind, Scene, Selection, Status

if TYPE_CHECKING:
    from conquista.table.decisions import MenuView
    from conquista.table.questions import TableQuestion

TRADING = (Phase.REINFORCE, Phase.ELIMINATION_TRADE, Phase.NEUTRAL_REINFORCE)   # the ring's end blinks: a set to trade


class StaleView(RuntimeError):
    """A view read after the table moved on: take the table's view again (`Referee.view()`)."""


@frozen_record
class SeatPrivate:
    """One seat's secrets and what only it may do now: never on a shared screen."""

    seat: int
    has_mission: bool                 # the game has missions (`game.missions[seat]` is this seat's)
    hand: tuple[int, ...]             # its cards, sorted
    trades: tuple[tuple[int, ...], ...]   # the sets it may trade, as the engine lists them
    to_move: bool                     # the table waits for this seat
    may_ask_hint: bool                # the host allows hints and the board waits for this seat


class TableView(NamedTuple):
    """The table at one version (see the module's words). Made by `Referee.view()` only, on every version the
    board's loop shows, so it is a named tuple: made for the least (a frozen dataclass of as many fields costs the
    board's tap a tenth more)."""

    version: int
    now: float                        # the table's time when the view was made: the moments in it count from it
    game: Game
    selection: Selection
    message: str                      # the referee's own line (a refusal, or a notice: `message_kind`)
    message_kind: MessageKind
    lines: LogLines                   # the whole log, a value (`log` reads its tail)
    last_roll: tuple[tuple[int, ...], tuple[int, ...]]
    last_battle: LastBattle | None
    fault: str                        # the fault that holds the game ("": none)
    storage_fault: str                # the journal's disk refuses writes: shown, but play goes on
    paused: bool                      # the host's phone paused the game
    faulted: bool                     # any fault at all (the ring shows it)
    prompt: str                       # the yes/no question asked ("": none)
    question: TableQuestion | None
    power_question: bool
    power_off: bool
    menu: MenuView | None             # the set-up menu while it is shown (no game yet)
    typing_dice: bool                 # physical dice being typed in
    claim_seat: int                   # the seat a phone's claim waits for (-1: none)
    claim_timeout_s: float
    defend_timeout_s: float           # a defender's phone has this long to choose its dice
    host: int                         # the seat whose phone hosts (-1: none; the referee decides, `AsHost`)
    can_undo: bool
    takes_play: bool                  # the mode takes play now (not a question, the menu, a pause, the end)
    phones_may_act: bool              # a phone's gesture is taken now
    board_words: bool                 # every screen says the board's words (a question, the menu, the end...)
    answering: bool                   # a yes/no question waits (ROLL: yes, CANCEL: no; the power-off's too)
    in_play: bool                     # the mode is play itself (no question, menu, fault, dice typed in, end)
    clock_running: bool               # the turn clock runs (a ruleset with a limit, nobody holding it)
    turn_started: float               # when this turn began, on the table's clock
    physical_dice: bool
    dice_name: str                    # the game's chance source ("seeded", "os", "committed", ...)
    dice_source: DiceSource           # ... itself: a committed game's seed is revealed from it at the end
    palette: Palette
    bots_available: bool
    new_game_offered: bool
    hints_allowed: bool
    hint_leds: bool
    hints_asked: tuple[tuple[int, int], ...]   # (seat, hints) this game, for the luck report
    effects: tuple[tuple[int, float, str], ...]   # the light effects running: (territory, start, kind)
    refused_at: float                 # when a press was last refused (the buzzer sounds it)
    paint: Callable[[float], Scene]   # the painter of this version's lights (`scene`)
    work: Mapping[str, Callable[[], Any]]   # worked out at its first read: status, chance, dice, blinking
    live: Callable[[], int]           # the referee's version now: a view read later refuses (`StaleView`)
    worked: dict[str, Any]            # what was worked out so far, kept for the later reads
    # Added last, with defaults (issue 40): the moments a screen counts down to, on the table's clock.
    phase_started: float = 0.0        # when this phase (and player) began: a defence times out from it
    claim_asked_at: float = -1.0      # when the open seat claim was asked (-1: none)

    # ------------------------------------------------------------------------------------- worked out once

    def _fresh(self) -> None:
        if self.live() != self.version:
            raise StaleView(f"a view of the table's version {self.version} read at version {self.live()}")

    def _worked(self, name: str) -> Any:
        worked = self.worked
        if name not in worked:
            self._fresh()
            worked[name] = self.work[name]()
        return worked[name]

    @property
    def status(self) -> Status:
        """The status in words: whose turn, the phase, what the table waits for, the referee's line."""
        status: Status = self._worked("status")
        return status

    @property
    def chance(self) -> float | None:
        """The chance that the attack chosen now takes its target (None: no attack chosen)."""
        chance: float | None = self._worked("chance")
        return chance

    @property
    def dice(self) -> tuple[DiceRow, DiceRow]:
        """The dice panel: the last roll sorted as compared, or the physical dice being typed in."""
        dice: tuple[DiceRow, DiceRow] = self._worked("dice")
        return dice

    @property
    def blinking(self) -> tuple[int, ...]:
        """Newly dealt territories waiting for their army (a progressive deal)."""
        blinking: tuple[int, ...] = self._worked("blinking")
        return blinking

    @property
    def log(self) -> tuple[str, ...]:
        """The log's last `LOG_TAIL` lines, oldest first: read when a screen shows them (the board shows none, and
        its taps make most versions), then kept."""
        worked = self.worked
        tail: tuple[str, ...] | None = worked.get("tail")
        if tail is None:
            tail = worked["tail"] = self.lines.tail(LOG_TAIL)   # a value: it cannot go stale
        return tail

    @property
    def log_length(self) -> int:
        """How many lines the whole log has (the tail's last is the last of them)."""
        return len(self.lines)

    def whole_log(self) -> tuple[str, ...]:
        """Every line of the log (a terminal that prints the game's whole story; screens show the tail)."""
        return tuple(self.lines)

    def scene(self, now: float) -> Scene:
        """Every light at `now` (animations are functions of time: the same version paints each moment)."""
        self._fresh()
        return self.paint(now)

    # ---------------------------------------------------------------------------------- simple questions

    @property
    def source(self) -> int:
        return self.selection.source

    @property
    def target(self) -> int:
        return self.selection.target

    @property
    def defence(self) -> int:
        """The defender's dice (its own: never the attacker's)."""
        return self.selection.defence

    @property
    def turn_of(self) -> int:
        """The seat whose turn it is (during a defence too: the defender only answers)."""
        return self.game.current

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def playing(self) -> bool:
        """A game is being played: dealt (no set-up menu: no game yet) and not over."""
        return self.menu is None and not self.game.over

    @property
    def animated(self) -> bool:
        """Whether the lights change with time alone now (blinks, pulses, the ring running down): the board's
        loop then wakes for the next animation step."""
        game = self.game
        if self.effects or self.selection.source >= 0 or self.selection.target >= 0 or self.prompt \
                or self.power_question or self.faulted or self.claim_seat >= 0 or self.menu is not None \
                or self.typing_dice or game.battle is not None or game.rules.turn_time_limit_s:
            return True
        return bool(self.blinking) or (game.phase in TRADING and bool(game.valid_trades()))

    def defend_deadline(self) -> float | None:
        """The moment a defender's dice choice runs out (then the board rolls the most for them); None: no defence."""
        game = self.game
        if game.phase is not Phase.DEFEND or game.battle is None or not self.in_play:
            return None
        return self.phase_started + self.defend_timeout_s

    def claim_deadline(self) -> float | None:
        """The moment the open seat claim expires (None: no claim open)."""
        return self.claim_asked_at + self.claim_timeout_s if self.claim_seat >= 0 else None

    def turn_seconds(self, now: float) -> float:
        """How long the turn has gone at `now` (0 while the set-up menu is shown: no turn to count)."""
        return 0.0 if self.menu is not None else now - self.turn_started

    def private(self, seat: int) -> SeatPrivate:
        """The seat's own view, from this version."""
        self._fresh()
        game = self.game
        mine = game.to_move == seat
        return SeatPrivate(seat, bool(game.missions), tuple(sorted(game.hands[seat])),
                           tuple(game.valid_trades(seat)), mine,
                           mine and self.hints_allowed and self.phones_may_act)

    def log_from(self, index: int) -> tuple[str, ...]:
        """The log's lines from line `index` of the whole log on (as far as the tail goes back): a screen that
        follows the log line by line keeps the count it has shown."""
        start = index - (self.log_length - len(self.log))
        return self.log[max(0, start):]

    def menu_view(self) -> dict[str, Any] | None:
        """The set-up menu in words and as data, while it is shown."""
        return self.menu.view() if self.menu is not None else None


LOG_TAIL = 200   # the log lines a view holds: more than any screen shows
HOST_PAUSE = FaultSource.HOST
