"""The referee's modes: what the table is doing now, each an object that owns its fields (issue 19).

A mode answers the questions the rest of the table used to answer from flags, each in its own way: what a gesture
does (`gesture`), what the pending line and the ring say (`pending`, `ring`), whether the turn clock runs and is
shown (`clock_runs`, `shows_clock`), and whether bots and phones may act now (`takes_play`, `phones_may_act`).

The referee holds at most one asked mode (`Question`, `SettingUp`, `TypingDice`) and the power-off question above
everything; the rest are chosen from the game and the faults each time they are asked for (`GameOver`, `Paused`
over the mode it holds, `Play`), so nothing has to be cleaned up after an action. A mode that is over takes itself
off the table (`EndAsked`, `EndPower`) first among what it decides, so what it does next (an answer that asks the
next question, a menu whose choice starts a game) lands on a table already out of that mode.

Modes read the table's state (table/table_state.py, a value) and return what they decide (table/decisions.py);
the table's step carries it out. Pure: time is passed in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.actions import Roll
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.table import prompt_words, referee_input
from conquista.table.colours import FAULT, OFF, RGB
from conquista.table.decisions import (
    Answer,
    Apply,
    Decisions,
    EndAsked,
    EndPower,
    Give,
    Illegal,
    MenuView,
    Notice,
    Refuse,
    ShowMenu,
    TypeDice,
)
from conquista.table.effects import NewGameAsked, SetupChosen
from conquista.table.gestures import Button, Gesture, LongPress, Press, Tap, Turn
from conquista.table.gestures import Hold as HoldButton
from conquista.table.questions import TableQuestion
from conquista.table.referee_lights import game_ring
from conquista.table.referee_records import ATTACKING, PLACING, DiceEntry, Selection
from conquista.table.ring import Ring, blink_on, question_ring, with_time_left
from conquista.table.tournament_clock import with_tournament_signal

if TYPE_CHECKING:
    from conquista.table.table_state import TableState

NOTHING: Decisions = ()


class Mode:
    """What the table is doing now. The class attributes are the answers of the usual mode; each mode says where
    it differs."""

    clock_runs = False        # the turn clock may run (the rules have the last word: Game.turn_clock_runs)
    shows_clock = True        # a turn's time left is shown (not while a game is set up or after it ended)
    takes_play = False        # bots act, players may leave, cards may be traded from a phone
    phones_may_act = False    # a seated phone's gestures reach the table
    ring_marks = True         # the seat claim's and the journal's signals are laid over the ring
    # What an asked mode holds (the state's `question`, `menu`, `entry` read them): none in the usual mode.
    question: TableQuestion | None = None
    menu: MenuView | None = None
    entry: DiceEntry | None = None

    def gesture(self, state: TableState, gesture: Gesture, now: float) -> Decisions:
        raise NotImplementedError

    def pending(self, state: TableState) -> str:
        raise NotImplementedError

    def ring(self, state: TableState, now: float) -> Ring:
        """The ring of a game being played: the seat's colour and its count, running down with the turn clock."""
        ring = game_ring(state, now)
        fraction = state.time_fraction(now)
        if fraction is not None:
            ring = with_time_left(ring, fraction)
        return with_tournament_signal(ring, state.game, now)   # the tournament's last rounds: its top LED


class Play(Mode):
    """A game is played. The play mode is chosen from the game's phase at every ask (`play_mode`): placing,
    attacking (the neutral army's attacks too), moving in, fortifying, defending, or waiting (a step no gesture
    makes). Its state is the selection (`Selection`: source, target, count, last placement), a value the referee
    keeps for it as `TypingDice` keeps its `DiceEntry`: each play mode says what a tap makes of it and, after every
    action (`settle`), what of it still holds, so nothing of an earlier phase has to be cleaned up after. The
    encoder and the buttons are read by the gesture reader (table/referee_input.py), which follows the phase too
    and returns the selection to hold."""

    clock_runs = True
    takes_play = True
    phones_may_act = True

    def gesture(self, state: TableState, gesture: Gesture, now: float) -> Decisions:
        match gesture:
            case Tap(t):
                return self._touch(state, t, long=False)
            case LongPress(t):
                return self._touch(state, t, long=True)
            case Turn(steps):
                return referee_input.turn(state, steps)
            case Press(button):
                return referee_input.press(state, button, held=False)
            case HoldButton(button):
                return referee_input.press(state, button, held=True)
        return NOTHING

    def _touch(self, state: TableState, t: int, *, long: bool) -> Decisions:
        game = state.game
        if not 0 <= t < game.map.size:
            return NOTHING
        if state.dealt.owners and state.dealt.confirm(game, t)[1]:   # newly dealt: its army is on the board now
            return referee_input.confirmed(state, t)
        return self.tap(state, t, long=long)

    def tap(self, state: TableState, t: int, *, long: bool) -> Decisions:
        return (Illegal(t, "not now"),)

    def settle(self, game: Game, sel: Selection) -> Selection:
        """After an action: what of the selection still holds (in most steps, nothing)."""
        return sel.cleared()

    def pending(self, state: TableState) -> str:
        return prompt_words.play_pending(state)


class Placing(Play):
    """Armies (or the neutral army's) are placed: a tap places one, a long press a fleet (lamorisse-1954)."""

    def tap(self, state: TableState, t: int, *, long: bool) -> Decisions:
        return referee_input.tap_place(state, t, long, state.game.acting_owner())


class Attacking(Play):
    """The current player's attacks, or the neutral army's: a source, then a target; a long press blitzes."""

    def tap(self, state: TableState, t: int, *, long: bool) -> Decisions:
        return referee_input.tap_attack(state, t, long, state.game.acting_owner())

    def settle(self, game: Game, sel: Selection) -> Selection:
        # The source may have been lost or spent, the target taken: only what may still attack stays selected.
        if sel.source >= 0 and (game.owner[sel.source] != game.acting_owner() or game.armies[sel.source] < 2):
            sel = sel.cleared()
        elif sel.target >= 0 and not game.attack_allowed(sel.source, sel.target):
            sel = sel.with_target(-1, sel.count)
        if sel.target >= 0:
            sel = sel.with_count(min(max(sel.count, 1), game.max_attack_dice(sel.source)))
        return sel


class Occupying(Play):
    """After a conquest: armies move in, a tap on the target one more, on the source one fewer."""

    def tap(self, state: TableState, t: int, *, long: bool) -> Decisions:
        return referee_input.tap_occupy(state, t)

    def settle(self, game: Game, sel: Selection) -> Selection:
        return sel.with_count(game.occupy_range()[0])


class Fortifying(Play):
    """The source, then the destination; the encoder sets how many move."""

    def tap(self, state: TableState, t: int, *, long: bool) -> Decisions:
        return referee_input.tap_fortify(state, t)

    def settle(self, game: Game, sel: Selection) -> Selection:
        if sel.source >= 0 and game.owner[sel.source] != game.current:
            return sel.cleared()
        return sel


class Defending(Play):
    """The defender chooses how many dice (the most by default, and at the time-out); a choice holds for the next
    rolls of the same battle, as far as the armies left allow. The attacker's count is left as it is."""

    def settle(self, game: Game, sel: Selection) -> Selection:
        battle = game.battle
        if battle is None:
            return sel.cleared()
        most = game.max_defend_dice(battle.target)
        return sel.with_defence(min(sel.defence, most) if sel.defence > 0 else most)


PLAY = Play()      # waiting: a step no gesture makes (a chance step being answered), where taps are refused
PLAY_MODES: dict[Phase, Play] = {
    **dict.fromkeys(PLACING, Placing()),
    **dict.fromkeys(ATTACKING, Attacking()),
    Phase.OCCUPY: Occupying(),
    Phase.FORTIFY: Fortifying(),
    Phase.DEFEND: Defending(),
}


def play_mode(phase: Phase) -> Play:
    """The play mode of a game in `phase`."""
    return PLAY_MODES.get(phase, PLAY)


class GameOver(Mode):
    """The game has ended: the result stays up; ROLL asks the shell for the set-up menu when it offers a next
    game (`new_game_offered`)."""

    shows_clock = False

    def gesture(self, state: TableState, gesture: Gesture, now: float) -> Decisions:
        if state.new_game_offered and isinstance(gesture, Press) and gesture.button is Button.ROLL:
            return (Give(NewGameAsked(now)),)   # the set-up menu for the next game
        again = ": ROLL for a new game" if state.new_game_offered else ""
        return (Notice(f"game over: {state.seat_name(state.game.winner)} won{again}"),)

    def pending(self, state: TableState) -> str:
        if state.game.winner is None:   # ended with no winner: the game's own words
            return prompt_words.play_pending(state)
        return prompt_words.game_over_pending(state)


GAME_OVER = GameOver()


class Paused(Mode):
    """A fault holds the game (the link, the host's pause): every gesture is refused; what was pending stays
    pending."""

    ring_marks = False
    phones_may_act = True     # the mover's phone is told why (the host's own pause is kept from phones earlier)

    def __init__(self, under: Mode) -> None:
        self.under = under
        self.shows_clock = under.shows_clock

        self.question, self.menu, self.entry = under.question, under.menu, under.entry

    def gesture(self, state: TableState, gesture: Gesture, now: float) -> Decisions:
        return (Refuse(f"paused: {state.fault}", quiet=True),)

    def pending(self, state: TableState) -> str:
        return self.under.pending(state)

    def ring(self, state: TableState, now: float) -> Ring:
        return tuple(FAULT if blink_on(now) else OFF for _ in range(state.ring_size))


class Question(Mode):
    """A yes/no question (table/questions.py; ROLL: yes, CANCEL: no); nothing else is taken meanwhile. With a
    colour the whole ring flashes it (e.g. the seat that leaves) instead of green and red. The answer goes to
    `Answer`: the table answers its own questions, the rest leave as an `Answered` effect."""

    def __init__(self, question: TableQuestion) -> None:
        self.asked = self.question = question

    @property
    def text(self) -> str:
        return self.asked.text

    @property
    def colour(self) -> RGB | None:
        return self.asked.colour

    def gesture(self, state: TableState, gesture: Gesture, now: float) -> Decisions:
        if not isinstance(gesture, Press | HoldButton) or gesture.button is Button.NEXT:
            return (Refuse("answer the question first: ROLL or CANCEL"),)  # the question itself is already shown
        return EndAsked(), Answer(self.asked, gesture.button is Button.ROLL)

    def pending(self, state: TableState) -> str:
        return self.text

    def ring(self, state: TableState, now: float) -> Ring:
        return question_ring(state.ring_size, now, self.colour)


class SettingUp(Mode):
    """The set-up menu (table/setup_menu.py, a state machine of its own) while a new game is chosen at the board;
    the game meanwhile is a stand-in, unlit. ROLL on its last step gives out the choice (`SetupChosen`): the
    shell deals and starts the game."""

    shows_clock = False

    def __init__(self, menu: MenuView) -> None:
        self.menu = self.setup = menu

    def gesture(self, state: TableState, gesture: Gesture, now: float) -> Decisions:
        menu, choice = self.setup.stepped(gesture)
        # The menu's words are a refused key's reason ("" when it moved on), or a notice: an option switched.
        said: Decisions = (Refuse(menu.message, quiet=True), *((Notice(menu.said),) if menu.said else ()))
        if choice is not None:
            return EndAsked(), *said, Give(SetupChosen(choice, now))
        return ShowMenu(menu), *said

    def pending(self, state: TableState) -> str:
        return self.setup.describe()

    def ring(self, state: TableState, now: float) -> Ring:
        return self.setup.ring(state.ring_size, now)


class TypingDice(Mode):
    """Physical dice typed in with the encoder, one die at a time, attack dice first: ROLL confirms a die, CANCEL
    takes back the last one; the last die applies the roll. A seated phone's encoder and buttons type too."""

    phones_may_act = True

    def __init__(self, entry: DiceEntry) -> None:
        self.entry = self.typed = entry

    def gesture(self, state: TableState, gesture: Gesture, now: float) -> Decisions:
        entry = self.typed
        match gesture:
            case Turn(steps):
                return (TypeDice(entry.turned(steps)),)
            case Press(Button.ROLL) | HoldButton(Button.ROLL):
                entry = entry.confirmed()
                if len(entry.values) == entry.needed:
                    values = entry.values
                    return EndAsked(), Apply(Roll(values[: entry.attack], values[entry.attack:], "physical"))
                return (TypeDice(entry),)
            case Press(Button.CANCEL) | HoldButton(Button.CANCEL):
                return (TypeDice(entry.taken_back()),) if entry.values else NOTHING
        return (Refuse("enter the dice with the encoder, ROLL confirms each die", quiet=True),)

    def pending(self, state: TableState) -> str:
        entry = self.typed
        return (f"enter die {len(entry.values) + 1} of {entry.needed}: {entry.current} "
                f"(turn to change, ROLL confirms)")


class PowerQuestion(Mode):
    """NEXT held for 5 s asks whether to switch the board off, above every other mode and fault: ROLL switches off
    (the app then closes the journal), any other key keeps the board on. `under` is the mode it was asked over:
    the referee keeps the question asked over play, and `over` gives the same question over the mode of the
    moment (a new value: the question kept is not changed by being looked at)."""

    ring_marks = False

    def __init__(self, under: Mode) -> None:
        self.under = under
        self.shows_clock = under.shows_clock
        self.question, self.menu, self.entry = under.question, under.menu, under.entry

    def over(self, under: Mode) -> PowerQuestion:
        return self if under is self.under else PowerQuestion(under)

    def gesture(self, state: TableState, gesture: Gesture, now: float) -> Decisions:
        if isinstance(gesture, Press | HoldButton) and gesture.button is Button.ROLL:
            return EndPower(off=True), Notice("switching off: the board goes dark, then unplug it")
        return EndPower(off=False), Notice("the board stays on")

    def pending(self, state: TableState) -> str:
        return prompt_words.POWER_QUESTION

    def ring(self, state: TableState, now: float) -> Ring:
        return question_ring(state.ring_size, now)


AskedMode = Question | SettingUp | TypingDice    # the modes the referee holds (at most one at a time)


def mode_of(game: Game, asked: Mode | None, power: PowerQuestion | None, fault: str, faulted: bool) -> Mode:
    """What the table is doing now: the power-off question above all; the set-up menu unless a fault holds it;
    the game's end; a fault over the mode it holds; the mode asked for; else play (`faulted`: any fault, even one
    that does not hold the game)."""
    if asked is None and power is None and not faulted and game.phase is not Phase.OVER:
        return play_mode(game.phase)   # the usual case
    if isinstance(asked, SettingUp) and not fault:
        mode: Mode = asked
    elif game.over:
        mode = GAME_OVER
    elif fault:
        mode = Paused(asked or play_mode(game.phase))
    else:
        mode = asked or play_mode(game.phase)
    return power.over(mode) if power is not None else mode
