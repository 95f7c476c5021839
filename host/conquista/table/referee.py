"""The referee at the table (ARCHITECTURE.md, "The flow of a tap"): the shell that holds the table's state.

The table's state is one value (table/table_state.py) and it changes by one function, `step(state, input, now)`
(table/table_step.py). `Referee` keeps the state of the moment, hands each input to that step, keeps the effects it
gives out until the shell's router takes them (`take_effects`), and makes the one read model of each version
(`view`, table/table_view.py) that every screen reads. Nothing outside `table/` reads more of it than `step`,
`view`, `start` and `take_effects` (tests/test_referee_reads.py); the rest below is for tests and tools that set
a position up or look into one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from conquista.dice.sources import DiceSource
from conquista.rules.actions import Action, Trade
from conquista.rules.engine import Game
from conquista.table import referee_lights
from conquista.table.colours import Palette
from conquista.table.decisions import Apply, Decision, Hold, Illegal, Notice, Refuse
from conquista.table.effects import Effect
from conquista.table.gestures import Gesture
from conquista.table.inputs import (
    TICK,
    AskQuestion,
    Input,
    LeaveSeat,
    Note,
    OfferMenu,
    Setting,
    StartGame,
    TakeGame,
    WithdrawQuestion,
)
from conquista.table.modes import Paused, Play, PowerQuestion, Question, TypingDice
from conquista.table.prompt_words import POWER_QUESTION as POWER_QUESTION  # the question, long imported from here
from conquista.table.questions import QuestionKind as QuestionKind
from conquista.table.questions import TableQuestion
from conquista.table.referee_records import ATTACKING as ATTACKING
from conquista.table.referee_records import BLINK_PERIOD_S as BLINK_PERIOD_S
from conquista.table.referee_records import PLACING as PLACING
from conquista.table.referee_records import DiceRow as DiceRow
from conquista.table.referee_records import LightEffect, MessageKind, Selection
from conquista.table.referee_records import Scene as Scene
from conquista.table.referee_records import Status as Status
from conquista.table.ring import PROMPT_NO as PROMPT_NO  # the questions' colours, long imported from here
from conquista.table.ring import PROMPT_YES as PROMPT_YES
from conquista.table.table_state import TableState
from conquista.table.table_step import bots_of, decided, first_state, step, with_fields
from conquista.table.table_view import TableView

if TYPE_CHECKING:  # the menu is built by the app, and only when it is shown
    from conquista.table.setup_menu import SetupMenu


class Referee:
    def __init__(self, game: Game, dice: DiceSource, *, ring_size: int = 16,
                 physical_dice: bool = False, defend_timeout_s: float = 15.0,
                 palette: Palette = Palette.STANDARD, bots_available: bool = False,
                 settings: Sequence[Setting] = ()) -> None:
        """`settings`: a resumed game's own (physical dice, hints, time-outs), taken before its pending chance step
        is answered: a roll the board waited for when the power went is typed in again, not rolled."""
        self.state, out = first_state(game, dice, ring_size=ring_size, physical_dice=physical_dice,
                                      defend_timeout_s=defend_timeout_s, palette=palette,
                                      bots_available=bots_available, settings=settings)
        # What leaves for the shell (table/effects.py): the shell routes them after every input, before the frame
        # is painted (conquista.app.routing); a game resumed waiting for its roll has that roll's already.
        self._out: list[Effect] = list(out)
        self._view: TableView | None = None   # the last view made (`view`), kept while the version stays

    # ------------------------------------------------------------------------------------------- input

    def step(self, item: Input, now: float) -> list[Effect]:
        """Take one input at time `now`; returns the effects it gave out (table/effects.py). They stay in the
        outbox until the shell's router takes them (`take_effects`), so an input handed over here or another way
        (`handle`, `start`, ...) loses none: the router is the one that sends them on, the journal first."""
        state, out = step(self.state, item, now)
        _SET(self, "state", state)   # the shell's own field: no need of `__setattr__`'s checks on every input
        if out:
            self._out.extend(out)
            return list(out)
        return []

    def start(self, game: Game, now: float, said: str, *, bots: Mapping[int, str] | None = None,
              dice: DiceSource | None = None, settings: Sequence[Setting] = ()) -> None:
        """Referee a new or resumed game from now on (`StartGame`): the one home of "start a game" that the set-up
        menu at the board, the host's phone and the resume question all call. The phones follow the seats at once
        (`GameStarted`: a seat gone, or now a bot's, unbinds its phones)."""
        self.step(StartGame(game, said, bots_of(bots), dice, tuple(settings)), now)

    def take_effects(self) -> list[Effect]:
        """The effects given out since they were last taken, oldest first (the shell's router takes them)."""
        out = self._out
        if not out:   # the usual case: the router asks after every input and before every frame
            return []
        _SET(self, "_out", [])
        return out

    # ------------------------------------------------------------------------------------------ output

    def view(self) -> TableView:
        """The table as every screen shows it, at this version (table/table_view.py): made when the version moved
        since the last one, else the same value."""
        view = self._view
        state = self.state
        if view is not None and view.version == state.version:
            return view
        game = state.game
        mode = state.mode
        held = mode.under if isinstance(mode, Paused) else mode
        claim = state.claims.open
        faults = state.faults
        question = state.question
        effects = state.effects
        asked = state.asked
        view = TableView(
            state.version, state.now, game, state.selection, state.message, state.message_kind,
            state.log, state.last_roll, state.last_battle,
            state.fault if faults else "", state.storage_fault if faults else "", state.paused,
            bool(faults), question.text if question is not None else "", question, state.power is not None,
            state.power_off, state.menu, isinstance(asked, TypingDice), claim.seat if claim is not None else -1,
            state.claims.timeout_s, state.defend_timeout_s, state.host, bool(state.undoable), mode.takes_play,
            mode.phones_may_act,
            not isinstance(held, Play) or game.winner is not None, isinstance(mode, Question | PowerQuestion),
            isinstance(mode, Play), state.clock_running,
            state.turn_started, state.physical_dice, state.dice.name, state.dice, state.palette,
            state.bots_available, state.new_game_offered, state.hints_allowed, state.hint_leds, state.hints_asked,
            tuple((e.territory, e.start, e.kind.value) for e in effects) if effects else (), state.refused_at,
            lambda now: referee_lights.scene(self.state, now), self._work, self._version_now, {},
            phase_started=state.phase_started, claim_asked_at=claim.asked_at if claim is not None else -1.0)
        _SET(self, "_view", view)
        return view

    def _version_now(self) -> int:
        return self.state.version

    @property
    def _work(self) -> dict[str, Any]:
        """What a view works out at its first read (table/table_view.py), from the state of that moment: one of
        the same version (a view read later refuses, `StaleView`), whose time may have passed on."""
        return {"status": lambda: referee_lights.status(self.state),
                "chance": lambda: referee_lights.conquest_chance(self.state),
                "dice": lambda: referee_lights.dice_values(self.state),
                "blinking": lambda: tuple(self.state.dealt.blinking(self.state.game))}

    # ------------------------------------------------------------------- for tests and tools (not screens)

    def __getattr__(self, name: str) -> Any:
        """What the state holds, read through the referee (tests look into a position so)."""
        if name == "state":   # not made yet: no recursion
            raise AttributeError(name)
        return getattr(self.state, name)

    def __setattr__(self, name: str, value: object) -> None:
        """The shell's own, or (a test's position set up) a new state with that field: the state of the moment
        is replaced whole, never changed in place (product code hands inputs to `step`:
        tests/test_referee_writes.py)."""
        if name in _OWN:
            object.__setattr__(self, name, value)
        elif name in TableState.__dataclass_fields__ and name != "mode":
            self.state = with_fields(self.state, **{name: value})
        else:
            raise AttributeError(f"the table has no {name!r}: hand it an input (`step`, table/inputs.py)")

    @property
    def hints_asked(self) -> dict[int, int]:
        return dict(self.state.hints_asked)

    @property
    def log(self) -> list[str]:
        """The log's lines (a copy: the state's log is a value)."""
        return list(self.state.log)

    @property
    def effects(self) -> list[LightEffect]:
        return list(self.state.effects)

    def handle(self, gesture: Gesture, now: float) -> None:
        """`step` with a gesture. Illegal ones flash red and change nothing."""
        self.step(gesture, now)

    def tick(self, now: float) -> None:
        """Time passing (`step` with `Tick()`)."""
        self.step(TICK, now)

    def reset(self, game: Game, now: float, *, play: bool = True) -> None:
        """Referee `game` from here on (`TakeGame`); with `play=False` only show it (`ShowGame`: a replay)."""
        from conquista.table.inputs import ShowGame

        self.step(TakeGame(game) if play else ShowGame(game), now)

    def offer_menu(self, menu: SetupMenu) -> None:
        self.step(OfferMenu(menu), self.state.now)

    def ask(self, question: TableQuestion) -> None:
        self.step(AskQuestion(question), self.state.now)

    def withdraw(self, question: TableQuestion) -> bool:
        """Take back an unanswered question; False if it is no longer asked."""
        asked = self.state.question == question
        self.step(WithdrawQuestion(question), self.state.now)
        return asked

    def note(self, line: str) -> None:
        self.step(Note(line), self.state.now)

    def trade(self, cards: tuple[int, ...], now: float) -> None:
        """Trade a chosen set as the table decided it; refused like a tap (the reason in `message`)."""
        self._decide((Apply(Trade(tuple(cards))),), now)

    def leave(self, seat: int, now: float, *, bot: bool = False) -> bool:
        """`seat` leaves (`LeaveSeat`); False when refused (the reason in `message`)."""
        self.step(LeaveSeat(seat, bot), now)
        state = self.state
        return not (state.message_kind is MessageKind.REFUSAL and state.message)

    def apply_action(self, action: Action, now: float) -> bool:
        """Apply an action as the table decided it (a test's position); False when refused."""
        before = len(self.state.game.log)
        self._decide((Apply(action),), now)
        return len(self.state.game.log) > before

    def illegal(self, t: int, now: float, reason: str) -> None:
        self._decide((Illegal(t, reason),), now)

    def refuse(self, now: float, reason: str) -> None:
        self._decide((Refuse(reason),), now)

    def notice(self, text: str) -> None:
        self._decide((Notice(text),), self.state.now)

    def hold(self, selection: Selection) -> None:
        self._decide((Hold(selection),), self.state.now)

    def _decide(self, decisions: tuple[Decision, ...], now: float) -> None:
        self.state, out = decided(self.state, decisions, now)
        self._out.extend(out)

    def status(self) -> Status:
        return referee_lights.status(self.state)

    def conquest_chance(self) -> float | None:
        return referee_lights.conquest_chance(self.state)

    def scene(self, now: float) -> Scene:
        """Every light at time `now`, changing nothing (animations are functions of time, so tests step time)."""
        return referee_lights.scene(self.state, now)

    def dice_values(self) -> tuple[DiceRow, DiceRow]:
        return referee_lights.dice_values(self.state)


_OWN = frozenset({"state", "_out", "_view"})   # what the shell holds: the state of the moment and its outbox
_SET = object.__setattr__
