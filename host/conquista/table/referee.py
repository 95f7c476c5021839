"""The referee at the table (ARCHITECTURE.md, "The flow of a tap").

Gestures come in (`handle`), legal ones become engine actions, chance steps are answered at once from the dice
source (or from physical dice typed in with the encoder), and `scene(now)` says what every light shows at time
`now`. Nothing here reads a clock or a pin: time is passed in, devices live elsewhere.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

from conquista.dice.chance import chance_action
from conquista.dice.sources import DiceSource
from conquista.errors import IllegalActionError
from conquista.rules.actions import (
    Action,
    Defend,
    EndPhase,
    Fortify,
    Occupy,
    Place,
    Roll,
    Trade,
)
from conquista.rules.engine import Game
from conquista.rules.events import Event, Phase
from conquista.table import leaving, referee_lights, referee_log, turn_clock
from conquista.table.colours import RGB, Palette
from conquista.table.dealt import NewlyDealt
from conquista.table.effects import (
    ActionApplied,
    ActionUndone,
    Answered,
    Effect,
    GameStarted,
    PhoneRefused,
    SeatToBot,
)
from conquista.table.forced_steps import forced_action
from conquista.table.gestures import Button, Chord, Gesture, HeldDown, Hold, LongPress, Press, Tap, Turn
from conquista.table.hint_asks import (
    STALE_WORDS,
    THINKING_WORDS,
    HintAsks,
    HintNews,
    HintState,
    HintTicket,
    HintWanted,
)
from conquista.table.inputs import (
    HOLDING,
    TICK,
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
    Tick,
    TradeSet,
    WithdrawQuestion,
)
from conquista.table.modes import (
    GAME_OVER,
    PLAY,
    AskedMode,
    Mode,
    Paused,
    Play,
    PowerQuestion,
    Question,
    SettingUp,
    TypingDice,
    play_mode,
)
from conquista.table.prompt_words import POWER_QUESTION as POWER_QUESTION  # the question, long imported from here
from conquista.table.questions import QuestionKind as QuestionKind
from conquista.table.questions import TableQuestion
from conquista.table.referee_records import ATTACKING as ATTACKING
from conquista.table.referee_records import BLINK_PERIOD_S as BLINK_PERIOD_S
from conquista.table.referee_records import (
    NO_SELECTION,
    DiceEntry,
    EffectKind,
    LightEffect,
    MessageKind,
    Selection,
)
from conquista.table.referee_records import PLACING as PLACING
from conquista.table.referee_records import DiceRow as DiceRow
from conquista.table.referee_records import Scene as Scene
from conquista.table.referee_records import Status as Status
from conquista.table.ring import PROMPT_NO as PROMPT_NO  # the questions' colours, long imported from here
from conquista.table.ring import PROMPT_YES as PROMPT_YES
from conquista.table.seat_claims import SeatClaims
from conquista.table.table_view import LOG_TAIL, TableView
from conquista.table.tournament_clock import TournamentClock
from conquista.table.unit_kinds import units
from conquista.table.wording import owner_name, phase_words
from conquista.table.wording import readable as readable_text

if TYPE_CHECKING:  # the menu is built by the app, and only when it is shown
    from conquista.table.setup_menu import SetupMenu

# Actions CANCEL can take back (the engine can undo any action; this is the table's policy): none involves dice,
# so an undo can never re-roll or un-roll a battle.
UNDOABLE = (Place, Occupy, Fortify)
HINT_BLINKS = 3   # how many times a hint's territories blink on the board (the host allows hints on the LEDs)
T = TypeVar("T")


class Referee:
    def __init__(self, game: Game, dice: DiceSource, *, ring_size: int = 16,
                 physical_dice: bool = False, defend_timeout_s: float = 15.0,
                 palette: Palette = Palette.STANDARD, bots_available: bool = False,
                 settings: Sequence[Setting] = ()) -> None:
        """`settings`: a resumed game's own (physical dice, hints, time-outs), taken before its pending chance step
        is answered: a roll the board waited for when the power went is typed in again, not rolled."""
        self.game = game
        self.dice = dice  # the game's chance source: dice and card draws
        self.ring_size = ring_size
        # The LED colours of the seats: the host may choose the colour-blind palette at set-up.
        self.palette = palette
        self.physical_dice = physical_dice
        self.defend_timeout_s = defend_timeout_s
        # What the play modes chose with taps and the encoder (table/modes.py holds it: `Play.settle`, `hold`).
        self.selection: Selection = NO_SELECTION
        self.last_roll: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())   # its dice: the dice panel's
        # The line of words the screens show, and its kind: only a refusal is shown as one ("!", refusal red).
        self._message = ""
        self.message_kind = MessageKind.REFUSAL
        self.refused_at = -math.inf      # when a button press was last refused (the buzzer sounds it)
        # Each source's fault apart (the link, the host's pause, the journal's disk), so none clears another's.
        self.faults: dict[FaultSource, str] = {}
        # Phones' seat claims: their own input, granted by the chord; what became of them leaves as effects.
        self.claims = SeatClaims()
        # What leaves for the shell (table/effects.py): applied and undone actions (the journal's rows), claims'
        # news, a game started, the answers the shell acts on. The shell routes them after every input, before
        # the frame is painted (conquista.app.routing).
        self._out: list[Effect] = []
        # Moves on every change the screens may show: phones, the terminal and sounds redraw when it moves.
        self.version = 0
        # Set by the app: ROLL once the game is over asks for the next game's set-up menu (`NewGameAsked`).
        self.new_game_offered = False
        # The mode the table was put in (table/modes.py): a yes/no question, the set-up menu, or dice typed in;
        # None: the mode follows from the game and the faults (play, paused, game over).
        self.asked: AskedMode | None = None
        self._power: PowerQuestion | None = None   # NEXT held for 5 s asks; above every other mode and fault
        self.power_off = False           # ... and ROLL said yes: the app closes the journal and switches off
        # A resumed game shows its recent past, and its last battle (table/referee_log.py notes the next ones).
        self.log, self.last_battle = referee_log.replayed(game)
        self.effects: list[LightEffect] = []
        # The seat behind each action at the end of the log that CANCEL may take back (game.undo() does it).
        self._undoable: list[int] = []
        # The log's length just after an end of the reinforcements the table made itself (`_take_forced`): CANCEL
        # then takes it back with the last placement; -1: none.
        self._forced_end = -1
        # (player, territory, fleet, count, log index) of the last placement line, which later placements extend.
        self.last_placed_line: tuple[int, int, bool, int, int] | None = None
        self.dealt = NewlyDealt()        # newly dealt territories, blinking until their army is on the board
        self.dealt.start(game)
        # When the phase began (the defender's time-out counts from it): a moment of the game, not the time now.
        self._phase_started = 0.0
        self._last_phase = (game.phase, game.current)
        self._now = 0.0    # the time of the last input (`now`): set in one place, `_change`
        self.turn_clock = turn_clock.TurnClock()
        self.tournament = TournamentClock()   # the tournament ending's clock of play (the app tells what was saved)
        # The app's offer (`OfferBots`): a player leaving may hand the seat to a bot (`SeatToBot`).
        self.bots_available = bots_available
        # Hints for a learner (table/hints.py): the host may turn them off, or have the LEDs show them too; the
        # hints each seat asked for this game go into the luck report. The asks being searched off the board's loop
        # (table/hint_asks.py) are answered only if the game has not moved since: `_moves` counts every action
        # applied or undone, a new game, and hints turned off.
        self.hints_allowed = True
        self.hint_leds = False
        self.hints_asked: dict[int, int] = {}
        self.hint_asks = HintAsks()
        self._moves = 0
        # Who hosts (-1: nobody): with a table set up from a phone (`HostFirstSeat`), the first seat granted to a
        # phone; the host's commands (`AsHost`) are taken from that seat only. A new game without that seat, or
        # the seat handed to a bot, leaves the table without a host until the next grant.
        self.hosted = False
        self.host = -1
        self._view: TableView | None = None   # the last view made (`view`), kept while the version stays
        # What a view works out at its first read (table/table_view.py), from the referee as it is then.
        self._work: dict[str, Callable[[], object]] = {
            "status": self.status, "chance": self.conquest_chance, "dice": self.dice_values,
            "blinking": lambda: tuple(self.dealt.blinking(self.game)), "log": lambda: tuple(self.log)}
        self._turn_key: tuple[int, int, int] = (-1, -1, -1)   # the game, turn and player of the last view
        self._turn_started = 0.0
        self._first_settle(settings)

    def _first_settle(self, settings: Sequence[Setting]) -> None:
        """The game as the table first referees it: its own settings first (a resumed game's), then its pending
        chance step answered (or typed in, with physical dice), the clock at its start."""
        for setting in settings:
            self._set(setting)
        self._settle(0.0)
        turn_clock.update_clock(self, 0.0)

    # ------------------------------------------------------------------------------------------- input

    def step(self, item: Input, now: float) -> list[Effect]:
        """Take one input at time `now`; returns the effects it gave out (table/effects.py). They stay in the
        outbox until the shell's router takes them (`take_effects`), so an input handed over here or another way
        (`handle`, `start`, ...) loses none: the router is the one that sends them on, the journal first."""
        mark = len(self._out)
        self._begin(now)   # `_change`'s path, spelt out: a tap is the hottest call of the table
        if isinstance(item, _GESTURES):
            self._gesture(item, now)
            self._end(now, None)
        else:
            self._end(now, self._take(item, now, mark))
        return self._out[mark:]

    def _change(self, now: float, change: Callable[[], T]) -> T:
        """The one path of every change to the referee (`step` takes it too, unrolled): `now` becomes the
        referee's time, the turn clock runs up to it as it was, the change is made, the clock runs on from now as
        the change left it (a question or a fault stops it), and the version moves so the screens redraw; only
        time passing that changed nothing (`_take`'s `_STILL`) leaves the version as it was."""
        self._begin(now)
        result = change()
        self._end(now, result)
        return result

    def _begin(self, now: float) -> None:
        self._now = now
        turn_clock.update_clock(self, now)

    def _end(self, now: float, result: object) -> None:
        turn_clock.update_clock(self, now)
        if result is not _STILL:
            self.version += 1

    def _take(self, item: Input, now: float, mark: int) -> object:
        match item:
            case Fault(source, text):
                self._set_fault(source, text)
            case SeatClaim(screen, seat):
                self._out.append(self.claims.ask(screen, seat, now))
            case RefuseClaim(seat):
                news = self.claims.refuse(seat, now, "the seat's phone refused it")
                if news is None:
                    return _STILL
                self._out.append(news)
            case Tick():
                refused = self.refused_at
                minute = self._tick(now)
                if not minute and len(self._out) == mark and self.refused_at == refused:
                    return _STILL
            case SetPalette() | SetPhysicalDice() | SetHints() | SetTimeOuts() | OfferBots() | OfferNewGame():
                self._set(item)
            case AskHint(seat, screen):
                self._ask_hint(seat, screen)
            case HintFound():
                self._hint_found(item, now)
            case SavedHints(counts):
                self.hints_asked = {seat: count for seat, count in counts if 0 <= seat < self.game.players}
            case SeatAct() | TradeSet() | LeaveSeat() | ForgetClaim():
                return self._phone(item, now)
            case AsHost(seat, screen, act):
                if seat < 0 or seat != self.host:
                    self._out.append(PhoneRefused(screen, "only the host's phone can change the game's set-up"))
                    return None
                return self._take(act, now, mark)
            case HostFirstSeat():
                if self.hosted:
                    return _STILL
                self.hosted = True
            case OfferMenu() | AskQuestion() | WithdrawQuestion() | Note() | Say() | ClockSaved() | ShowGame():
                self._app(item, now)
            case _:
                self._gesture(item, now)
        return None

    def _phone(self, command: PhoneCommand, now: float) -> object:
        """A phone's command: the table decides who may act (the seat the board waits for, while nothing holds the
        game) and what a trade may be (a set the seat holds, in its reinforcement)."""
        match command:
            case SeatAct(seat, gesture):
                if not self._may_act(seat):
                    return _STILL   # a phone's late tap: nothing to say, nothing changed
                self._gesture(gesture, now)
            case TradeSet(seat, cards, screen):
                cards = tuple(sorted(cards))
                game = self.game
                if not self._may_act(seat) or game.phase not in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
                    self._out.append(PhoneRefused(screen, "a set is traded only in your reinforcement, before "
                                                          "attacking"))
                elif cards not in game.valid_trades(seat):
                    self._out.append(PhoneRefused(screen, "those cards are not a set you hold"))
                else:
                    self._traded(cards, now)
            case LeaveSeat(seat, bot, screen):
                if not 0 <= seat < self.game.players:
                    self._out.append(PhoneRefused(screen, f"there is no seat {seat}"))
                elif not self._left(seat, now, bot) and screen >= 0:
                    self._out.append(PhoneRefused(screen, self._message))
            case ForgetClaim(screen):
                self.claims.forget(screen)
        return None

    def _may_act(self, seat: int) -> bool:
        """A seat's phone acts only for itself, when the board waits for it; a paused game takes nothing from
        phones."""
        return not self.faults.get(FaultSource.HOST) and self.game.to_move == seat and self.mode.phones_may_act

    def _app(self, item: AppInput, now: float) -> None:
        match item:
            case OfferMenu(menu):
                self.asked = SettingUp(menu)
                self.clear_selection()
                self.effects.clear()
            case AskQuestion(question):
                self.asked = Question(question)
            case WithdrawQuestion(question):
                if self.question == question:
                    self.asked = None
            case Note(line):
                self.log.append(line)
                self.last_placed_line = None
            case Say(text):
                self.notice(text)
            case ClockSaved(rows):
                self.tournament.saved(self.game, rows)
            case ShowGame(game, fresh_log):
                if fresh_log:
                    self.log = []
                self._reset(game, now, play=False)

    def _set(self, setting: Setting) -> None:
        """A host's setting or an app's offer."""
        match setting:
            case SetPalette(palette):
                self.palette = palette
            case SetPhysicalDice(physical):
                if self.entry is None:   # between battles only: dice being typed in stay as they are
                    self.physical_dice = physical
            case SetHints(allowed, leds):
                if self.hints_allowed and not allowed:
                    self._moves += 1   # a hint being searched is not given any more
                self.hints_allowed, self.hint_leds = allowed, leds
            case SetTimeOuts(defend_s, claim_s):
                if defend_s is not None:
                    self.defend_timeout_s = defend_s
                if claim_s is not None:
                    self.claims.timeout_s = claim_s
            case OfferBots(available):
                self.bots_available = available
            case OfferNewGame(offered):
                self.new_game_offered = offered

    @property
    def now(self) -> float:
        """The time of the last input: what the screens count the turn's time left from."""
        return self._now

    def take_effects(self) -> list[Effect]:
        """The effects given out since they were last taken, oldest first (the shell's router takes them)."""
        out = self._out
        if not out:   # the usual case: the router asks after every input and before every frame
            return []
        self._out = []
        return out

    # ------------------------------------------------------------------------------------------ words

    @property
    def message(self) -> str:
        """The referee's line of words: why the last gesture or command was refused, or (`message_kind` NOTICE)
        what it did."""
        return self._message

    @message.setter
    def message(self, text: str) -> None:
        """A refusal's reason (the kind screens have always shown); a notice is said with `notice`. Set by the
        referee and its modes only."""
        self._message, self.message_kind = text, MessageKind.REFUSAL

    def notice(self, text: str) -> None:
        """Say what was done or decided (not a refusal): the screens show it as plain words."""
        self._message, self.message_kind = text, MessageKind.NOTICE

    # ------------------------------------------------------------------------------------------ faults

    @property
    def fault(self) -> str:
        """The fault that holds the game, the most important first ("": none)."""
        faults = self.faults
        if not faults:   # the usual case, asked several times a frame
            return ""
        return next((faults[s] for s in HOLDING if s in faults), "")

    @property
    def storage_fault(self) -> str:
        """The journal's disk refuses writes (`Fault(STORAGE, ...)`): the ring shows it, but play goes on."""
        return self.faults.get(FaultSource.STORAGE, "")

    def _set_fault(self, source: FaultSource, text: str | None) -> None:
        if text:
            self.faults[source] = text
        else:
            self.faults.pop(source, None)

    # ------------------------------------------------------------------------------------------- input

    def handle(self, gesture: Gesture, now: float) -> None:
        """React to one gesture at time `now` (seconds): `step` with the gesture. Illegal ones flash red and change
        nothing."""
        self.step(gesture, now)

    def _gesture(self, gesture: Gesture, now: float) -> None:
        self._message, self.message_kind = "", MessageKind.REFUSAL
        if isinstance(gesture, Chord):
            # The chord means one thing in every mode: the waiting seat claim is granted.
            news = self.claims.grant()
            if news is None:
                self.message = "no phone asks for a seat: ROLL and NEXT together grant a seat a phone asks for"
            else:
                if self.hosted and self.host < 0:
                    self.host = news.seat
                self._out.append(news)
                self.notice(f"the {self.seat_name(news.seat)} seat goes to the phone that asked for it")
            return
        if isinstance(gesture, HeldDown) and self._power is None:
            if gesture.button is Button.CANCEL:
                # CANCEL held down on one's turn: leave the game?
                self.message = leaving.ask_to_leave(self, now)
            elif gesture.button is Button.NEXT:
                self._power = PowerQuestion(PLAY)   # NEXT held down: switch the board off?
            return
        self.mode.gesture(self, gesture, now)

    # ------------------------------------------------------------------------------------------- modes

    @property
    def mode(self) -> Mode:
        """What the table is doing now (table/modes.py): the power-off question above all; the set-up menu unless
        a fault holds it; the game's end; a fault over the mode it holds; the mode asked for; else play."""
        asked = self.asked
        if asked is None and self._power is None and not self.faults and self.game.phase is not Phase.OVER:
            return play_mode(self.game.phase)   # the usual case, asked several times a frame
        if isinstance(asked, SettingUp) and not self.fault:
            mode: Mode = asked
        elif self.game.over:
            mode = GAME_OVER
        elif self.fault:
            mode = Paused(asked or play_mode(self.game.phase))
        else:
            mode = asked or play_mode(self.game.phase)
        return self._power.over(mode) if self._power is not None else mode

    def end(self, mode: object) -> None:
        """`mode` is over: the table leaves it (a mode calls this before it acts, so what it does next, such as
        asking the next question, is not undone)."""
        if mode is self._power or (isinstance(mode, PowerQuestion) and self._power is not None):
            self._power = None
        elif mode is self.asked:
            self.asked = None

    @property
    def power_question(self) -> bool:
        return self._power is not None

    @property
    def prompt(self) -> str:
        """The yes/no question being asked ("": none)."""
        return self.asked.text if isinstance(self.asked, Question) else ""

    @property
    def prompt_colour(self) -> RGB | None:
        return self.asked.colour if isinstance(self.asked, Question) else None

    @property
    def menu(self) -> SetupMenu | None:
        return self.asked.menu if isinstance(self.asked, SettingUp) else None

    @property
    def entry(self) -> DiceEntry | None:
        """Physical dice being typed in."""
        return self.asked.entry if isinstance(self.asked, TypingDice) else None

    def offer_menu(self, menu: SetupMenu) -> None:
        """Show the set-up menu until ROLL confirms its last step; its choice then leaves as `SetupChosen` (the
        shell deals the game and `start`s it)."""
        def offer() -> None:
            self.asked = SettingUp(menu)
            self.clear_selection()
            self.effects.clear()
        self._change(self._now, offer)

    def note(self, line: str) -> None:
        """Add a line of its own to the log (a bot at the table says why it acts)."""
        def noted() -> None:
            self.log.append(line)
            self.last_placed_line = None
        self._change(self._now, noted)

    def ask(self, question: TableQuestion) -> None:
        """Put a yes/no question to the table (table/questions.py): ROLL answers yes, CANCEL no; nothing else is
        taken meanwhile. With a colour the whole ring flashes it (e.g. the seat that leaves) instead of green and
        red. The table answers its own questions (a player leaving); any other answer leaves as `Answered`. The
        turn clock stops while the table answers."""
        def asked() -> None:
            self.asked = Question(question)
        self._change(self._now, asked)

    def answer(self, question: TableQuestion, yes: bool, now: float) -> None:
        """`question` was answered (its mode already left): the table's own answer, or an `Answered` effect."""
        if question.kind in leaving.OWN:
            refused = leaving.answered(self, question, yes, now)
            if refused:
                self.message = refused
        else:
            self._out.append(Answered(question, yes, now))

    def give(self, effect: Effect) -> None:
        """An effect for the shell (a mode's: the set-up menu's choice, a new game asked for, a seat to a bot)."""
        if isinstance(effect, SeatToBot) and effect.seat == self.host:
            self.host = -1   # a bot hosts nothing
        self._out.append(effect)

    @property
    def question(self) -> TableQuestion | None:
        """The yes/no question being asked, if any."""
        return self.asked.question if isinstance(self.asked, Question) else None

    def withdraw(self, question: TableQuestion) -> bool:
        """Take back an unanswered question; False if it is no longer asked."""
        def withdrawn() -> bool:
            if self.question != question:
                return False
            self.asked = None
            return True
        return self._change(self._now, withdrawn)

    def trade(self, cards: tuple[int, ...], now: float) -> None:
        """Trade a chosen set (from a player's phone); ROLL at the board trades the best one. Refused like a tap:
        the reason is in `message` and nothing changes."""
        self._change(now, lambda: self._traded(cards, now))

    def _traded(self, cards: tuple[int, ...], now: float) -> None:
        self.message = ""
        if not self.mode.takes_play:
            self.message = "not now"
            return
        self.apply_action(Trade(cards), now)

    def start(self, game: Game, now: float, said: str, *, bots: Mapping[int, str] | None = None,
              dice: DiceSource | None = None, settings: Sequence[Setting] = ()) -> None:
        """Referee a new or resumed game from now on: the one home of "start a game" that the set-up menu at the
        board, the host's phone and the resume question all call. `said` is the notice the screens show; `bots`
        the seats bots play (None: as they were), `dice` the game's chance source (None: the table's). The phones
        follow the seats at once (`GameStarted`: a seat gone, or now a bot's, unbinds its phones). `settings`: a
        resumed game's own, taken before its pending chance step is answered (a roll waiting for physical dice
        stays theirs)."""
        def started() -> None:
            if dice is not None:
                self.dice = dice
            for setting in settings:
                self._set(setting)
            self._reset(game, now, play=True)
            if self.host >= game.players or (bots is not None and self.host in bots):
                self.host = -1
            self.notice(said)
            self._out.append(GameStarted(game.players, dict(bots) if bots is not None else None))
        self._change(now, started)

    def reset(self, game: Game, now: float, *, play: bool = True) -> None:
        """Referee `game` from here on (a new game, or a saved one resumed): selections, undo and effects start
        afresh, the dice panel shows the game's last roll, and a pending chance step is answered. With
        `play=False` the game is only shown (a replay): chance steps are left waiting."""
        self._change(now, lambda: self._reset(game, now, play=play))

    def _reset(self, game: Game, now: float, *, play: bool) -> None:
        self.game = game
        self.asked = None   # a game is refereed from now on (e.g. set up from a phone): no menu, question or dice
        self.selection = NO_SELECTION
        self.dealt.start(game)
        last = next((a for a in reversed(game.log) if isinstance(a, Roll)), None)
        self.last_roll = (last.attack, last.defend) if last is not None else ((), ())
        self.effects.clear()
        self._undoable.clear()
        self._forced_end = -1
        self._last_phase = (game.phase, game.current)
        self._phase_started = now
        self.turn_clock.restart()
        self.hints_asked = {}
        self._moves += 1
        self.last_battle = None   # a replay's position is only shown: its battles are not told (nor replayed)
        if play:
            # The log is this game's: a new one starts empty, a resumed one shows its recent past.
            self.log, self.last_battle = referee_log.replayed(game)
            self.last_placed_line = None
            self._settle(now)

    def _ask_hint(self, seat: int, screen: int) -> None:
        """A seat's phone asks what hard would do in its place: refused now, or hard thinks off the board's loop
        (`HintWanted`, on a copy of what the seat may know) and the phone is told so."""
        refused = self._why_no_hint(seat)
        if refused:
            self._out.append(HintNews(screen, seat, HintState.REFUSED, refused))
            return
        asked = self.hint_asks.ask(seat, screen, self._moves)
        if isinstance(asked, HintNews):   # hard already thinks for this seat
            self._out.append(asked)
            return
        # Imported at the first hint: the hard bot is not what the board's first frame needs.
        from conquista.table.hints import hint_view

        self._out.append(HintWanted(asked, hint_view(self.game, seat)))
        self._out.append(HintNews(screen, seat, HintState.THINKING, THINKING_WORDS))

    def _why_no_hint(self, seat: int) -> str:
        if not self.hints_allowed:
            return "the host has turned hints off for this game"
        if self.fault:
            return "the game is paused: ask again when it goes on"
        if not self.mode.phones_may_act or self.game.to_move != seat:
            return "a hint is for your own move: ask when the board waits for you"
        return ""

    def _hint_found(self, found: HintFound, now: float) -> None:
        """The search's answer: to the phone that asked if the game is where it was then, counted for the luck
        report and shown on the LEDs if the host allows it; else the phone is told to ask again."""
        ticket: HintTicket = found.ticket
        if not self.hint_asks.answered(ticket):
            return   # not an ask of this table's (nothing is searched twice for one ask)
        screen, seat = ticket.screen, ticket.seat
        hint = found.hint
        if not self.hints_allowed:
            self._out.append(HintNews(screen, seat, HintState.REFUSED, "the host has turned hints off for this game"))
        elif ticket.moment != self._moves:
            self._out.append(HintNews(screen, seat, HintState.STALE, STALE_WORDS))
        elif hint is None:
            self._out.append(HintNews(screen, seat, HintState.STALE, found.failure or STALE_WORDS))
        else:
            asked = self.hints_asked[seat] = self.hints_asked.get(seat, 0) + 1
            if self.hint_leds:
                self.effects.extend(LightEffect(t, now, EffectKind.HINT, HINT_BLINKS) for t in hint.territories)
            self._out.append(HintNews(screen, seat, HintState.GIVEN, hint.words, hint.territories, asked))

    def tick(self, now: float) -> None:
        """Time passing (`step` with `Tick()`)."""
        self.step(TICK, now)

    def _tick(self, now: float) -> bool:
        """Time passing: a defender who does not choose in time defends with the most dice; a seat claim expires.
        True when the tournament clock's minute moved (the screens' countdown is set again)."""
        if self.effects:   # the scene only reads them; time passing forgets the finished ones
            self.effects = referee_lights.live_effects(self.effects, now)
        expired = self.claims.expire(now)
        if expired is not None:
            self._out.append(expired)
        game = self.game
        battle = game.battle
        if game.phase is Phase.DEFEND and battle is not None and now - self._phase_started >= self.defend_timeout_s:
            self.apply_action(Defend(game.max_defend_dice(battle.target)), now)
        turn_clock.check_time(self, now)   # the turn time limit: a time-out is applied when the time is up
        return self.tournament.check(self, now)   # the tournament clock: `ClockOut()` is applied when it runs out

    def leave(self, seat: int, now: float, *, bot: bool = False) -> bool:
        """`seat` leaves the game (from the host's phone; at the board CANCEL held down asks): `Leave(seat)`, or
        with `bot` a bot takes the seat. Refused like a tap: the reason in `message`."""
        return self._change(now, lambda: self._left(seat, now, bot))

    def _left(self, seat: int, now: float, bot: bool) -> bool:
        self.message = ""
        refused = leaving.leave(self, seat, now, bot=bot) if self.mode.takes_play else "not now"
        if refused:
            self.message = refused
        return not refused

    # ----------------------------------------------------------------------------------------- applying

    def apply_action(self, action: Action, now: float) -> bool:
        """Apply an action (a gesture's, or one the table decided: a time-out, a player leaving); a refusal is
        shown like a tap's (False)."""
        seat = self.game.current
        try:
            events = self.game.apply(action)
        except IllegalActionError as exc:
            self.refuse(now, self.readable(str(exc)))
            return False
        if isinstance(action, UNDOABLE):
            if self._undoable and self._undoable[-1] != seat:
                self._undoable.clear()  # the next player has acted: the previous player's fortify stands
            self._undoable.append(seat)
        if isinstance(action, Fortify | Occupy):
            # Fortify: the move is made, so CANCEL now takes it back rather than clearing its taps.
            # Occupy: the battle is over; a source still pulsing from it made the next tap on it a silent
            # deselection. With nothing selected, a tap on any own territory chooses the next attack's source.
            self.clear_selection()
        self._record(action, events, now)
        self._settle(now)
        return True

    def _record(self, action: Action, events: list[Event], now: float) -> None:
        self._moves += 1   # a hint being searched is for the game as it was
        if not isinstance(action, UNDOABLE):
            self._undoable.clear()  # nothing before a roll, a draw, an attack or a phase's end is ever taken back
        # Out first: the shell journals it before any light shows it.
        self._out.append(ActionApplied(action, tuple(events), len(self.game.log) - 1))
        noted = referee_log.record(self, action, events, now)
        self.last_placed_line = noted.placed_line
        if noted.battle is not None:
            self.last_battle = noted.battle
            self.last_roll = (noted.battle.attack, noted.battle.defend)

    def _settle(self, now: float) -> None:
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
                self._record(action, events, now)
            forced = forced_action(game)
            if forced is None:
                break
            self._take_forced(forced, now)
        phase_key = (game.phase, game.current)
        if phase_key != self._last_phase:
            player_changed = phase_key[1] != self._last_phase[1]
            self._phase_started = now
            self._last_phase = phase_key
            if game.phase in (Phase.SETUP, Phase.REINFORCE, Phase.NEUTRAL_REINFORCE) or player_changed:
                # An action of an earlier phase or player is never undone, except a fortify that passed the turn
                # with no card drawn: it stays undoable until the next player acts (`apply_action` drops it then).
                fortify_passed = bool(self._undoable) and isinstance(game.log[-1], Fortify)
                self._undoable = self._undoable[-1:] if fortify_passed else []
                self.selection = self.selection.placed(-1, self.selection.last_fleet)
        # The new phase's play mode says what of the selection holds.
        self.selection = play_mode(game.phase).settle(self, self.selection)

    def _take_forced(self, action: Action, now: float) -> None:
        """The table takes a step with one choice only. The move-in is no one's to take back (there was nothing to
        choose); the end of the reinforcements goes back with the last placement, which CANCEL still takes back
        before the first attack (`undo_last`), as it did before NEXT was needed no more."""
        game = self.game
        undoable = list(self._undoable)
        battle = game.battle
        # Said on the screens, so a player who waited to choose sees why nothing is asked (the log has the move).
        said = (f"{units(game, action.count, battle.source, battle.target)} move into "
                f"{self.territory_name(battle.target)}: the only count that may"
                if isinstance(action, Occupy) and battle is not None else "")
        events = game.apply(action)
        if isinstance(action, Occupy):
            self.clear_selection()   # as after a move-in chosen with ROLL (`apply_action`)
        self._record(action, events, now)
        if isinstance(action, EndPhase) and game.phase is Phase.ATTACK:
            self._undoable = undoable
            self._forced_end = len(game.log)
            said = "every army is placed: the attack begins (CANCEL takes the last one back)"
        elif isinstance(action, EndPhase):
            # The duel's neutral turn follows: the opponent acts now, and the placements stand (as after NEXT).
            said = f"every army is placed; now {phase_words(game.phase.value)}"
        if said:
            self.notice(said)

    @property
    def can_undo(self) -> bool:
        """A placement or move of this turn may be taken back now (CANCEL; − while placing)."""
        return bool(self._undoable)

    def undo_last(self) -> bool:
        """Take back the last placement or move of this turn (the engine's own undo)."""
        if not self._undoable:
            return False
        game = self.game
        if self._forced_end == len(game.log) and isinstance(game.log[-1], EndPhase):
            # The reinforcements the table ended itself go back to the placement taken back, in the same phase as
            # before (so what else of the turn may be taken back stays so).
            ended = game.undo()
            self._out.append(ActionUndone(ended, len(game.log)))
            self._last_phase = (game.phase, game.current)
        self._forced_end = -1
        self._undoable.pop()
        self._moves += 1
        undone = self.game.undo()
        self.log.append(f"undo: {self.readable(self.game.describe(undone))}")
        self.last_placed_line = None
        self._out.append(ActionUndone(undone, len(self.game.log)))
        self._settle(self._now)
        return True

    def illegal(self, t: int, now: float, reason: str) -> None:
        self.message = reason
        self.effects.append(LightEffect(t, now, EffectKind.ILLEGAL))

    def refuse(self, now: float, reason: str) -> None:
        """A button press that changes nothing: the reason on the screens, the refusal's buzz on the buzzer."""
        self.message = reason
        self.refused_at = now

    def refuse_quietly(self, reason: str) -> None:
        self.message = reason

    def clear_selection(self) -> None:
        self.selection = self.selection.cleared()

    def hold(self, selection: Selection) -> None:
        """The play mode's new selection (table/referee_input.py decides it)."""
        self.selection = selection

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

    # ------------------------------------------------------------------------------------------ output

    def view(self) -> TableView:
        """The table as every screen shows it, at this version (table/table_view.py): made when the version moved
        since the last one, else the same value."""
        view = self._view
        if view is not None and view.version == self.version:
            return view
        game = self.game
        asked = self.asked
        menu = asked.menu if isinstance(asked, SettingUp) else None
        turn = (id(game), game.turn, game.current)
        if turn != self._turn_key or menu is not None:
            self._turn_key, self._turn_started = turn, self._now   # the turn's time counts from its first view
        mode = self.mode
        held = mode.under if isinstance(mode, Paused) else mode
        claim = self.claims.open
        log = self.log
        faults = self.faults
        question = asked.question if isinstance(asked, Question) else None
        hints = self.hints_asked
        effects = self.effects
        view = self._view = TableView(
            self.version, self._now, game, self.selection, self._message, self.message_kind,
            tuple(log[-LOG_TAIL:]), len(log), self.last_roll, self.last_battle,
            self.fault if faults else "", self.storage_fault if faults else "", FaultSource.HOST in faults,
            bool(faults), question.text if question is not None else "", question, self._power is not None,
            self.power_off, menu, isinstance(asked, TypingDice), claim.seat if claim is not None else -1,
            self.claims.timeout_s, self.defend_timeout_s, self.host, bool(self._undoable), mode.takes_play,
            mode.phones_may_act,
            not isinstance(held, Play) or game.winner is not None, isinstance(mode, Question | PowerQuestion),
            isinstance(mode, Play), turn_clock.clock_running(self),
            self._turn_started, self.physical_dice, self.dice.name, self.dice, self.palette, self.bots_available,
            self.new_game_offered, self.hints_allowed, self.hint_leds,
            tuple(sorted(hints.items())) if hints else (),
            tuple((e.territory, e.start, e.kind.value) for e in effects) if effects else (), self.refused_at,
            self.scene, self._work, self._version_now, {}, phase_started=self._phase_started,
            claim_asked_at=claim.asked_at if claim is not None else -1.0)
        return view

    def _version_now(self) -> int:
        return self.version

    def status(self) -> Status:
        return referee_lights.status(self)

    def conquest_chance(self) -> float | None:
        return referee_lights.conquest_chance(self)

    def scene(self, now: float) -> Scene:
        """Every light at time `now`, changing nothing (animations are functions of time, so tests step time)."""
        return referee_lights.scene(self, now)

    def dice_values(self) -> tuple[DiceRow, DiceRow]:
        """The dice panel: the last roll, each side's dice sorted high to low as they are compared, or the physical
        dice in the order they are typed in."""
        return referee_lights.dice_values(self)

    def readable(self, text: str) -> str:
        return readable_text(text, self.game.map, self.game.rules.colours)

    def territory_name(self, t: int) -> str:
        return self.game.map.territories[t].name_en

    def seat_name(self, seat: int | None) -> str:
        return owner_name(self.game, seat) if seat is not None else "nobody"  # "neutral" for the neutral army


_GESTURES = (Tap, LongPress, Press, Turn, Hold, HeldDown, Chord)   # `Gesture`, the usual first
_STILL = object()   # a change that changed nothing the screens show (time passing, mostly): the version stays
