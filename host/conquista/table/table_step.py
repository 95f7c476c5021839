"""The table's one step (issue 36): `step(state, input, now) -> (state, effects)`, the only way a table's state
(table/table_state.py) becomes the next one (ARCHITECTURE.md, "The flow of a tap").

Gestures come in, legal ones become engine actions, chance steps are answered at once from the dice source (or
from physical dice typed in with the encoder), phones' commands are checked (who may act, what a trade may be,
what only the host may ask), time passing runs the clocks and the time-outs. The helpers read a state and return
what they decide (table/decisions.py); `_Step` carries it out on its own working copy of the fields, and the step
ends with one new frozen state. Nothing here reads a clock or a pin: time is passed in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from conquista.dice.chance import chance_action
from conquista.dice.sources import DiceSource
from conquista.errors import IllegalActionError
from conquista.rules.actions import Action, Defend, EndPhase, Fortify, Occupy, Place, Roll, Trade
from conquista.rules.engine import Game
from conquista.rules.events import Event, Phase
from conquista.table import leaving, referee_lights, referee_log, turn_clock
from conquista.table.colours import Palette
from conquista.table.dealt import NewlyDealt
from conquista.table.decisions import (
    Answer,
    Apply,
    Ask,
    ClearSelection,
    Confirmed,
    Decisions,
    EndAsked,
    EndPower,
    Give,
    Hold,
    Illegal,
    Log,
    Notice,
    NoticeOf,
    Placed,
    Refuse,
    ShowMenu,
    TypeDice,
    Undo,
    UndoPlacements,
)
from conquista.table.effects import ActionApplied, ActionUndone, Answered, Effect, GameStarted, PhoneRefused, SeatToBot
from conquista.table.forced_steps import forced_action
from conquista.table.gestures import Button, Chord, Gesture, HeldDown, LongPress, Press, Tap, Turn
from conquista.table.gestures import Hold as HoldButton
from conquista.table.hint_asks import STALE_WORDS, THINKING_WORDS, HintAsks, HintNews, HintState, HintTicket, HintWanted
from conquista.table.inputs import (
    AppInput,
    AsHost,
    AskHint,
    AskQuestion,
    ClockSaved,
    Fault,
    FaultSource,
    ForgetClaim,
    HintFound,
    HostFirstSeat,
    Input,
    LeaveSeat,
    Note,
    OfferBots,
    OfferMenu,
    OfferNewGame,
    PhoneCommand,
    RefuseClaim,
    SavedHints,
    Say,
    SeatAct,
    SeatClaim,
    SetHints,
    SetPalette,
    SetPhysicalDice,
    SetTimeOuts,
    Setting,
    ShowGame,
    StartGame,
    TakeGame,
    Tick,
    TradeSet,
    WithdrawQuestion,
)
from conquista.table.log_lines import NO_LINES, LogLines
from conquista.table.modes import PLAY, Mode, PowerQuestion, Question, SettingUp, TypingDice, mode_of, play_mode
from conquista.table.questions import TableQuestion
from conquista.table.referee_log import Noted
from conquista.table.referee_records import (
    NO_SELECTION,
    STOPPED_CLOCK,
    DiceEntry,
    EffectKind,
    LastBattle,
    LightEffect,
    MessageKind,
    Selection,
    TurnClock,
)
from conquista.table.seat_claims import SeatClaims
from conquista.table.table_state import ModeView, TableState
from conquista.table.tournament_clock import TournamentClock
from conquista.table.unit_kinds import units
from conquista.table.wording import phase_words

# Actions CANCEL can take back (the engine can undo any action; this is the table's policy): none involves dice,
# so an undo can never re-roll or un-roll a battle.
UNDOABLE = (Place, Occupy, Fortify)
HINT_BLINKS = 3   # how many times a hint's territories blink on the board (the host allows hints on the LEDs)
_GESTURES = (Tap, LongPress, Press, Turn, HoldButton, HeldDown, Chord)   # `Gesture`, the usual first
_STILL = object()   # a step that changed nothing the screens show (time passing, mostly): the version stays

# A frozen state made from the step's fields as one dict: a step ends in one, often several a step (a helper
# reads one); its fields set one by one through the frozen record's __setattr__ were most of a step's cost.
_NEW_STATE = object.__new__
_SET = object.__setattr__


def step(state: TableState, item: Input, now: float) -> tuple[TableState, tuple[Effect, ...]]:
    """Take one input at time `now`: the table's next state, and the effects the input gave out (table/effects.py)
    for the shell to route, the journal first."""
    work = _Step(state, now)
    if isinstance(item, _GESTURES):
        work.gesture(item, now)
        result: object = None
    else:
        result = work.take(item, now)
    return work.finish(now, result), tuple(work.out)


def decided(state: TableState, decisions: Decisions, now: float) -> tuple[TableState, tuple[Effect, ...]]:
    """The table after `decisions` carried out as a helper's would be: for tests and tools that set a position up
    (the product's changes are inputs to `step`; tests/test_referee_reads.py keeps it so)."""
    work = _Step(state, now)
    work.decide(decisions, now)
    return work.finish(now, None), tuple(work.out)


def with_fields(state: TableState, **changes: Any) -> TableState:
    """`state` with some fields set another way (a test's or a tool's position), its mode worked out again."""
    work = _Step(dataclasses.replace(state, **changes), state.now)
    return work.frozen()


def first_state(game: Game, dice: DiceSource, *, ring_size: int = 16, physical_dice: bool = False,
                defend_timeout_s: float = 15.0, palette: Palette = Palette.STANDARD, bots_available: bool = False,
                settings: Sequence[Setting] = ()) -> tuple[TableState, tuple[Effect, ...]]:
    """The table as it first referees `game`: its own settings first (a resumed game's), then its pending chance
    step answered (or typed in, with physical dice), the clock at its start; a resumed game shows its recent past
    and its last battle."""
    lines, battle = referee_log.replayed(game)
    state = TableState(game, dice, PLAY, ring_size=ring_size, palette=palette, physical_dice=physical_dice,
                       defend_timeout_s=defend_timeout_s, bots_available=bots_available, log=LogLines.of(lines),
                       last_battle=battle, dealt=NewlyDealt.of(game), last_phase=(game.phase, game.current))
    work = _Step(state, 0.0)
    for setting in settings:
        work.set(setting)
    work.settle(0.0)
    return work.finish(0.0, _STILL), tuple(work.out)


class _Step:
    """One step's working copy of the state's fields: the step's own, never seen outside this module (the
    helpers are handed frozen states, `frozen()`)."""

    # The fields live in the instance's dict, copied in and out whole; what is the step's own is a slot apart.
    __slots__ = ("__dict__", "out")

    game: Game
    dice: DiceSource
    version: int
    now: float
    ring_size: int
    palette: Palette
    physical_dice: bool
    defend_timeout_s: float
    selection: Selection
    last_roll: tuple[tuple[int, ...], tuple[int, ...]]
    message: str
    message_kind: MessageKind
    refused_at: float
    faults: tuple[tuple[FaultSource, str], ...]
    claims: SeatClaims
    asked: Mode | None
    power: PowerQuestion | None
    power_off: bool
    new_game_offered: bool
    bots_available: bool
    log: LogLines
    last_placed_line: tuple[int, int, bool, int, int] | None
    last_battle: LastBattle | None
    effects: tuple[LightEffect, ...]
    undoable: tuple[int, ...]
    forced_end: int
    dealt: NewlyDealt
    phase_started: float
    last_phase: tuple[Phase, int]
    turn_clock: TurnClock
    tournament: TournamentClock
    hints_allowed: bool
    hint_leds: bool
    hints_asked: tuple[tuple[int, int], ...]
    hint_asks: HintAsks
    moves: int
    hosted: bool
    host: int
    turn_key: tuple[int, int, int]
    turn_started: float

    def __init__(self, state: TableState, now: float) -> None:
        fields = self.__dict__
        fields.update(state.__dict__)   # every field, `mode` too: the state's, until a field changes
        self.out: list[Effect] = []
        self.now = now
        self.update_clock(now, state.mode)   # the turn clock runs up to now as it was

    # ------------------------------------------------------------------------------------------ reading

    @property
    def mode(self) -> Mode:
        if self.asked is None and self.power is None and not self.faults:   # play, the usual case: asked per step
            phase = self.game.phase
            if phase is not Phase.OVER:
                return play_mode(phase)
        return mode_of(self.game, self.asked, self.power, self.fault, bool(self.faults))

    @property
    def fault(self) -> str:
        faults = self.faults
        if not faults:
            return ""
        held = dict(faults)
        return held.get(FaultSource.LINK) or held.get(FaultSource.HOST) or ""

    @property
    def entry(self) -> DiceEntry | None:
        return self.asked.entry if self.asked is not None else None

    def frozen(self) -> TableState:
        """The state as this step has made it so far (for a helper to read)."""
        fields = self.__dict__.copy()
        fields["mode"] = self.mode
        state = _NEW_STATE(TableState)
        _SET(state, "__dict__", fields)
        return state

    def update_clock(self, now: float, mode: ModeView | None = None) -> None:
        """`mode`: the mode when it is known (the step's start: the state's own), else worked out."""
        game = self.game
        if not game.rules.turn_time_limit_s:
            return   # no limit: nothing reads the clock (`time_left`), so it stays as it is
        running = (mode or self.mode).clock_runs and game.turn_clock_runs()
        self.turn_clock = self.turn_clock.update(game.clock_key(), running, now)

    def finish(self, now: float, result: object) -> TableState:
        """The step's end: the clock runs on from now as the step left it (a question or a fault stops it), the
        turn's start is noted, and the version moves so the screens redraw, unless the step changed nothing."""
        self.update_clock(now)
        game = self.game
        turn = (id(game), game.turn, game.current)
        if turn != self.turn_key or isinstance(self.asked, SettingUp):
            self.turn_key, self.turn_started = turn, now   # the turn's time counts from its first step
        if result is not _STILL:
            self.version += 1
        return self.frozen()

    # ------------------------------------------------------------------------------------------ words

    def refuse_quietly(self, reason: str) -> None:
        self.message, self.message_kind = reason, MessageKind.REFUSAL

    def refuse(self, now: float, reason: str) -> None:
        """A press that changes nothing: the reason on the screens, the refusal's buzz on the buzzer."""
        self.message, self.message_kind = reason, MessageKind.REFUSAL
        self.refused_at = now

    def notice(self, text: str) -> None:
        self.message, self.message_kind = text, MessageKind.NOTICE

    def illegal(self, t: int, now: float, reason: str) -> None:
        self.message, self.message_kind = reason, MessageKind.REFUSAL
        self.effects = (*self.effects, LightEffect(t, now, EffectKind.ILLEGAL))

    # ------------------------------------------------------------------------------------------ inputs

    def take(self, item: Input, now: float) -> object:
        match item:
            case Fault(source, text):
                rest = tuple(pair for pair in self.faults if pair[0] is not source)
                self.faults = (*rest, (source, text)) if text else rest
            case SeatClaim(screen, seat):
                self.claims, news = self.claims.ask(screen, seat, now)
                self.out.append(news)
            case RefuseClaim(seat):
                self.claims, refused = self.claims.refuse(seat, now, "the seat's phone refused it")
                if refused is None:
                    return _STILL
                self.out.append(refused)
            case Tick():
                refused_at = self.refused_at
                minute = self.tick(now)
                if not minute and not self.out and self.refused_at == refused_at:
                    return _STILL
            case SetPalette() | SetPhysicalDice() | SetHints() | SetTimeOuts() | OfferBots() | OfferNewGame():
                self.set(item)
            case AskHint(seat, screen):
                self.ask_hint(seat, screen)
            case HintFound():
                self.hint_found(item, now)
            case SavedHints(counts):
                self.hints_asked = tuple(sorted((seat, n) for seat, n in counts if 0 <= seat < self.game.players))
            case SeatAct() | TradeSet() | LeaveSeat() | ForgetClaim():
                return self.phone(item, now)
            case AsHost(seat, screen, act):
                if seat < 0 or seat != self.host:
                    self.out.append(PhoneRefused(screen, "only the host's phone can change the game's set-up"))
                    return None
                return self.take(act, now)
            case HostFirstSeat():
                if self.hosted:
                    return _STILL
                self.hosted = True
            case StartGame() | TakeGame() | OfferMenu() | AskQuestion() | WithdrawQuestion() | Note() | Say() \
                    | ClockSaved() | ShowGame():
                return self.app(item, now)
            case _:
                self.gesture(item, now)
        return None

    def phone(self, command: PhoneCommand, now: float) -> object:
        """A phone's command: the table decides who may act (the seat the board waits for, while nothing holds the
        game) and what a trade may be (a set the seat holds, in its reinforcement)."""
        match command:
            case SeatAct(seat, gesture):
                if not self.may_act(seat):
                    return _STILL   # a phone's late tap: nothing to say, nothing changed
                self.gesture(gesture, now)
            case TradeSet(seat, cards, screen):
                cards = tuple(sorted(cards))
                game = self.game
                if not self.may_act(seat) or game.phase not in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
                    self.out.append(PhoneRefused(screen, "a set is traded only in your reinforcement, before "
                                                         "attacking"))
                elif cards not in game.valid_trades(seat):
                    self.out.append(PhoneRefused(screen, "those cards are not a set you hold"))
                else:
                    self.message = ""
                    if self.mode.takes_play:
                        self.apply_action(Trade(cards), now)
                    else:
                        self.refuse_quietly("not now")
            case LeaveSeat(seat, bot, screen):
                if not 0 <= seat < self.game.players:
                    self.out.append(PhoneRefused(screen, f"there is no seat {seat}"))
                    return None
                self.message = ""
                refused, decided = leaving.leave(self.frozen(), seat, now, bot=bot)
                if refused:
                    self.refuse_quietly(refused)
                    if screen >= 0:
                        self.out.append(PhoneRefused(screen, refused))
                else:
                    self.decide(decided, now)
            case ForgetClaim(screen):
                self.claims = self.claims.forget(screen)
        return None

    def may_act(self, seat: int) -> bool:
        """A seat's phone acts only for itself, when the board waits for it; a paused game takes nothing from
        phones."""
        paused = any(source is FaultSource.HOST and text for source, text in self.faults)
        return not paused and self.game.to_move == seat and self.mode.phones_may_act

    def app(self, item: AppInput, now: float) -> object:
        match item:
            case StartGame(game, said, bots, dice, settings):
                if dice is not None:
                    self.dice = dice
                for setting in settings:
                    self.set(setting)
                self.reset(game, now, play=True)
                seated = dict(bots) if bots is not None else None
                if self.host >= game.players or (seated is not None and self.host in seated):
                    self.host = -1
                self.notice(said)
                self.out.append(GameStarted(game.players, seated))
            case TakeGame(game):
                self.reset(game, now, play=True)
            case OfferMenu(menu):
                self.asked = SettingUp(menu)
                self.selection = self.selection.cleared()
                self.effects = ()
            case AskQuestion(question):
                self.asked = Question(question)
            case WithdrawQuestion(question):
                if self.asked is None or self.asked.question != question:
                    return _STILL
                self.asked = None
            case Note(line):
                self.log = self.log.added(line)
                self.last_placed_line = None
            case Say(text):
                self.notice(text)
            case ClockSaved(rows):
                self.tournament = self.tournament.saved(self.game, rows)
            case ShowGame(game, fresh_log):
                if fresh_log:
                    self.log = NO_LINES
                self.reset(game, now, play=False)
        return None

    def set(self, setting: Setting) -> None:
        """A host's setting or an app's offer."""
        match setting:
            case SetPalette(palette):
                self.palette = palette
            case SetPhysicalDice(physical):
                if self.entry is None:   # between battles only: dice being typed in stay as they are
                    self.physical_dice = physical
            case SetHints(allowed, leds):
                if self.hints_allowed and not allowed:
                    self.moves += 1   # a hint being searched is not given any more
                self.hints_allowed, self.hint_leds = allowed, leds
            case SetTimeOuts(defend_s, claim_s):
                if defend_s is not None:
                    self.defend_timeout_s = defend_s
                if claim_s is not None:
                    self.claims = SeatClaims(claim_s, self.claims.cooldown_s, self.claims.per_minute,
                                             self.claims.open, self.claims.blocked_until, self.claims.asked)
            case OfferBots(available):
                self.bots_available = available
            case OfferNewGame(offered):
                self.new_game_offered = offered

    # ------------------------------------------------------------------------------------------ gestures

    def gesture(self, gesture: Gesture, now: float) -> None:
        self.message, self.message_kind = "", MessageKind.REFUSAL
        if isinstance(gesture, Chord):
            # The chord means one thing in every mode: the waiting seat claim is granted.
            self.claims, news = self.claims.grant()
            if news is None:
                self.refuse_quietly("no phone asks for a seat: ROLL and NEXT together grant a seat a phone asks for")
            else:
                if self.hosted and self.host < 0:
                    self.host = news.seat
                self.out.append(news)
                self.notice(f"the {self.frozen().seat_name(news.seat)} seat goes to the phone that asked for it")
            return
        if isinstance(gesture, HeldDown) and self.power is None:
            if gesture.button is Button.CANCEL:
                self.decide(leaving.ask_to_leave(self.frozen()), now)   # CANCEL held down on one's turn: leave?
            elif gesture.button is Button.NEXT:
                self.power = PowerQuestion(PLAY)   # NEXT held down: switch the board off?
            return
        state = self.frozen()
        self.decide(state.mode.gesture(state, gesture, now), now)

    def decide(self, decisions: Decisions, now: float) -> None:
        """Carry out what a helper decided, in order; a refused action ends what follows it."""
        for decision in decisions:
            match decision:
                case Apply(action):
                    if not self.apply_action(action, now):
                        return
                case Hold(selection):
                    self.selection = selection
                case Placed(t, fleet):
                    self.selection = self.selection.placed(t, fleet)
                case ClearSelection():
                    self.selection = self.selection.cleared()
                case Confirmed(t):
                    self.dealt = self.dealt.confirm(self.game, t)[0]
                case Illegal(t, reason):
                    self.illegal(t, now, reason)
                case Refuse(reason, quiet):
                    if quiet:
                        self.refuse_quietly(reason)
                    else:
                        self.refuse(now, reason)
                case Notice(text):
                    self.notice(text)
                case NoticeOf(words):
                    self.notice(words(self.game))
                case Undo(refusal):
                    if not self.undo_last() and refusal:
                        self.refuse(now, refusal)
                case UndoPlacements(count):
                    for _ in range(count):
                        if not isinstance(self.game.log[-1], Place) or not self.undo_last():
                            break
                case Log(line):
                    self.log = self.log.added(line)
                    self.last_placed_line = None
                case Ask(question):
                    self.asked = Question(question)
                case Answer(question, yes):
                    self.answer(question, yes, now)
                case EndAsked():
                    self.asked = None
                case EndPower(off):
                    self.power = None
                    self.power_off = self.power_off or off
                case TypeDice(entry):
                    self.asked = TypingDice(entry)
                case ShowMenu(menu):
                    self.asked = SettingUp(menu)
                case Give(effect):
                    if isinstance(effect, SeatToBot) and effect.seat == self.host:
                        self.host = -1   # a bot hosts nothing
                    self.out.append(effect)

    def answer(self, question: TableQuestion, yes: bool, now: float) -> None:
        """A question was answered (its mode already left): the table's own answer, or an `Answered` effect."""
        if question.kind in leaving.OWN:
            self.decide(leaving.answered(self.frozen(), question, yes, now), now)
        else:
            self.out.append(Answered(question, yes, now))

    # ------------------------------------------------------------------------------------------ hints

    def ask_hint(self, seat: int, screen: int) -> None:
        """A seat's phone asks what hard would do in its place: refused now, or hard thinks off the board's loop
        (`HintWanted`, on a copy of what the seat may know) and the phone is told so."""
        refused = self.why_no_hint(seat)
        if refused:
            self.out.append(HintNews(screen, seat, HintState.REFUSED, refused))
            return
        self.hint_asks, asked = self.hint_asks.ask(seat, screen, self.moves)
        if isinstance(asked, HintNews):   # hard already thinks for this seat
            self.out.append(asked)
            return
        # Imported at the first hint: the hard bot is not what the board's first frame needs.
        from conquista.table.hints import hint_view

        self.out.append(HintWanted(asked, hint_view(self.game, seat)))
        self.out.append(HintNews(screen, seat, HintState.THINKING, THINKING_WORDS))

    def why_no_hint(self, seat: int) -> str:
        if not self.hints_allowed:
            return "the host has turned hints off for this game"
        if self.fault:
            return "the game is paused: ask again when it goes on"
        if not self.mode.phones_may_act or self.game.to_move != seat:
            return "a hint is for your own move: ask when the board waits for you"
        return ""

    def hint_found(self, found: HintFound, now: float) -> None:
        """The search's answer: to the phone that asked if the game is where it was then, counted for the luck
        report and shown on the LEDs if the host allows it; else the phone is told to ask again."""
        ticket: HintTicket = found.ticket
        self.hint_asks, searched = self.hint_asks.answered(ticket)
        if not searched:
            return   # not an ask of this table's (nothing is searched twice for one ask)
        screen, seat = ticket.screen, ticket.seat
        hint = found.hint
        if not self.hints_allowed:
            self.out.append(HintNews(screen, seat, HintState.REFUSED, "the host has turned hints off for this game"))
        elif ticket.moment != self.moves:
            self.out.append(HintNews(screen, seat, HintState.STALE, STALE_WORDS))
        elif hint is None:
            self.out.append(HintNews(screen, seat, HintState.STALE, found.failure or STALE_WORDS))
        else:
            counts = dict(self.hints_asked)
            asked = counts[seat] = counts.get(seat, 0) + 1
            self.hints_asked = tuple(sorted(counts.items()))
            if self.hint_leds:
                self.effects = (*self.effects,
                                *(LightEffect(t, now, EffectKind.HINT, HINT_BLINKS) for t in hint.territories))
            self.out.append(HintNews(screen, seat, HintState.GIVEN, hint.words, hint.territories, asked))

    # ------------------------------------------------------------------------------------------ time

    def tick(self, now: float) -> bool:
        """Time passing: a defender who does not choose in time defends with the most dice; a seat claim expires;
        the turn clock and the tournament clock. True when the tournament clock's minute moved (the screens'
        countdown is set again)."""
        if self.effects:   # the scene only reads them; time passing forgets the finished ones
            self.effects = referee_lights.live_effects(self.effects, now)
        self.claims, expired = self.claims.expire(now)
        if expired is not None:
            self.out.append(expired)
        game = self.game
        battle = game.battle
        if game.phase is Phase.DEFEND and battle is not None and now - self.phase_started >= self.defend_timeout_s:
            self.apply_action(Defend(game.max_defend_dice(battle.target)), now)
        if game.rules.turn_time_limit_s and turn_clock.time_up(self.frozen(), now):
            while (defence := turn_clock.defence_due(self.frozen())) is not None:
                if not self.apply_action(defence.action, now):
                    break
            self.decide(turn_clock.time_out(self.frozen()), now)
        if not game.rules.tournament_ending:
            return False
        self.tournament, minute, decided = self.tournament.check(self.frozen(), now)
        self.decide(decided, now)
        return minute

    # ------------------------------------------------------------------------------------------ applying

    def apply_action(self, action: Action, now: float) -> bool:
        """Apply an action (a gesture's, or one the table decided: a time-out, a player leaving); a refusal is
        said like a press's (False)."""
        seat = self.game.current
        try:
            events = self.game.apply(action)
        except IllegalActionError as exc:
            self.refuse(now, self.frozen().readable(str(exc)))
            return False
        if isinstance(action, UNDOABLE):
            if self.undoable and self.undoable[-1] != seat:
                self.undoable = ()  # the next player has acted: the previous player's fortify stands
            self.undoable = (*self.undoable, seat)
        if isinstance(action, Fortify | Occupy):
            # Fortify: the move is made, so CANCEL now takes it back rather than clearing its taps.
            # Occupy: the battle is over; a source still pulsing from it made the next tap on it a silent
            # deselection. With nothing selected, a tap on any own territory chooses the next attack's source.
            self.selection = self.selection.cleared()
        self.record(action, events, now)
        self.settle(now)
        return True

    def record(self, action: Action, events: list[Event], now: float) -> None:
        self.moves += 1   # a hint being searched is for the game as it was
        if not isinstance(action, UNDOABLE):
            self.undoable = ()  # nothing before a roll, a draw, an attack or a phase's end is ever taken back
        # Out first: the shell journals it before any light shows it.
        self.out.append(ActionApplied(action, tuple(events), len(self.game.log) - 1))
        noted = referee_log.record(Noted(self.log, self.dealt, self.effects, self.last_placed_line, None),
                                   self.game, events, now)
        self.log, self.dealt, self.effects = noted.log, noted.dealt, noted.effects
        self.last_placed_line = noted.placed_line
        if noted.battle is not None:
            self.last_battle = noted.battle
            self.last_roll = (noted.battle.attack, noted.battle.defend)

    def settle(self, now: float) -> None:
        """Answer chance steps and take the steps with one choice only (table/forced_steps.py), then set up the
        choice that the new phase asks for."""
        game = self.game
        while True:
            while game.is_chance():
                if game.phase is Phase.ROLL and self.physical_dice and game.battle is not None:
                    battle = game.battle
                    self.asked = TypingDice(DiceEntry(battle.attack_dice + battle.defend_dice, battle.attack_dice))
                    return
                action = chance_action(game, self.dice)
                events = game.apply(action)
                self.record(action, events, now)
            forced = forced_action(game)
            if forced is None:
                break
            self.take_forced(forced, now)
        phase_key = (game.phase, game.current)
        if phase_key != self.last_phase:
            player_changed = phase_key[1] != self.last_phase[1]
            self.phase_started = now
            self.last_phase = phase_key
            if game.phase in (Phase.SETUP, Phase.REINFORCE, Phase.NEUTRAL_REINFORCE) or player_changed:
                # An action of an earlier phase or player is never undone, except a fortify that passed the turn
                # with no card drawn: it stays undoable until the next player acts (`apply_action` drops it then).
                fortify_passed = bool(self.undoable) and isinstance(game.log[-1], Fortify)
                self.undoable = self.undoable[-1:] if fortify_passed else ()
                self.selection = self.selection.placed(-1, self.selection.last_fleet)
        # The new phase's play mode says what of the selection holds.
        self.selection = play_mode(game.phase).settle(game, self.selection)

    def take_forced(self, action: Action, now: float) -> None:
        """The table takes a step with one choice only. The move-in is no one's to take back (there was nothing to
        choose); the end of the reinforcements goes back with the last placement, which CANCEL still takes back
        before the first attack (`undo_last`), as it did before NEXT was needed no more."""
        game = self.game
        undoable = self.undoable
        battle = game.battle
        # Said on the screens, so a player who waited to choose sees why nothing is asked (the log has the move).
        said = (f"{units(game, action.count, battle.source, battle.target)} move into "
                f"{game.map.territories[battle.target].name_en}: the only count that may"
                if isinstance(action, Occupy) and battle is not None else "")
        events = game.apply(action)
        if isinstance(action, Occupy):
            self.selection = self.selection.cleared()   # as after a move-in chosen with ROLL (`apply_action`)
        self.record(action, events, now)
        if isinstance(action, EndPhase) and game.phase is Phase.ATTACK:
            self.undoable = undoable
            self.forced_end = len(game.log)
            said = "every army is placed: the attack begins (CANCEL takes the last one back)"
        elif isinstance(action, EndPhase):
            # The duel's neutral turn follows: the opponent acts now, and the placements stand (as after NEXT).
            said = f"every army is placed; now {phase_words(game.phase.value)}"
        if said:
            self.notice(said)

    def undo_last(self) -> bool:
        """Take back the last placement or move of this turn (the engine's own undo)."""
        if not self.undoable:
            return False
        game = self.game
        if self.forced_end == len(game.log) and isinstance(game.log[-1], EndPhase):
            # The reinforcements the table ended itself go back to the placement taken back, in the same phase as
            # before (so what else of the turn may be taken back stays so).
            ended = game.undo()
            self.out.append(ActionUndone(ended, len(game.log)))
            self.last_phase = (game.phase, game.current)
        self.forced_end = -1
        self.undoable = self.undoable[:-1]
        self.moves += 1
        undone = game.undo()
        self.log = self.log.added(f"undo: {self.frozen().readable(game.describe(undone))}")
        self.last_placed_line = None
        self.out.append(ActionUndone(undone, len(game.log)))
        self.settle(self.now)
        return True

    # ------------------------------------------------------------------------------------------ a game

    def reset(self, game: Game, now: float, *, play: bool) -> None:
        """Referee `game` from here on (a new game, or a saved one resumed): selections, undo and effects start
        afresh, the dice panel shows the game's last roll, and a pending chance step is answered. With
        `play=False` the game is only shown (a replay): chance steps are left waiting."""
        self.game = game
        self.asked = None   # a game is refereed from now on (e.g. set up from a phone): no menu, question or dice
        self.selection = NO_SELECTION
        self.dealt = NewlyDealt.of(game)
        last = next((a for a in reversed(game.log) if isinstance(a, Roll)), None)
        self.last_roll = (last.attack, last.defend) if last is not None else ((), ())
        self.effects = ()
        self.undoable = ()
        self.forced_end = -1
        self.last_phase = (game.phase, game.current)
        self.phase_started = now
        self.turn_clock = STOPPED_CLOCK
        self.hints_asked = ()
        self.moves += 1
        self.last_battle = None   # a replay's position is only shown: its battles are not told (nor replayed)
        if play:
            # The log is this game's: a new one starts empty, a resumed one shows its recent past.
            lines, self.last_battle = referee_log.replayed(game)
            self.log = LogLines.of(lines)
            self.last_placed_line = None
            self.settle(now)


def bots_of(bots: Mapping[int, str] | None) -> tuple[tuple[int, str], ...] | None:
    """The seats bots play, as `StartGame` holds them."""
    return tuple(sorted(bots.items())) if bots is not None else None
