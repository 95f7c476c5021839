"""The referee's modes: what the table is doing now, each an object that owns its fields (issue 19).

A mode answers the questions the rest of the table used to answer from flags, each in its own way: what a gesture
does (`gesture`), what the pending line and the ring say (`pending`, `ring`), whether the turn clock runs and is
shown (`clock_runs`, `shows_clock`), and whether bots and phones may act now (`takes_play`, `phones_may_act`).

The referee holds at most one asked mode (`Question`, `SettingUp`, `TypingDice`) and the power-off question above
everything; the rest are chosen from the game and the faults each time they are asked for (`GameOver`, `Paused`
over the mode it holds, `Play`), so nothing has to be cleaned up after an action. A mode that is over takes itself
off the table (`Desk.end`) before it acts on the table, so what it does (an answer that asks the next question, a
menu whose choice starts a game) lands on a table already out of that mode.

Modes see the table through the narrow context (table/desk.py) and never import the referee. Pure: time is passed
in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.actions import Roll
from conquista.rules.events import Phase
from conquista.table import prompt_words, referee_input
from conquista.table.colours import FAULT, OFF, RGB
from conquista.table.effects import NewGameAsked, SetupChosen
from conquista.table.gestures import Button, Gesture, Hold, LongPress, Press, Tap, Turn
from conquista.table.questions import TableQuestion
from conquista.table.referee_records import ATTACKING, PLACING, DiceEntry, Selection
from conquista.table.ring import Ring, blink_on, game_ring, question_ring, with_time_left
from conquista.table.tournament_clock import with_tournament_signal
from conquista.table.turn_clock import time_fraction

if TYPE_CHECKING:
    from conquista.table.desk import Desk
    from conquista.table.setup_menu import SetupMenu


class Mode:
    """What the table is doing now. The class attributes are the answers of the usual mode; each mode says where
    it differs."""

    clock_runs = False        # the turn clock may run (the rules have the last word: Game.turn_clock_runs)
    shows_clock = True        # a turn's time left is shown (not while a game is set up or after it ended)
    takes_play = False        # bots act, players may leave, cards may be traded from a phone
    phones_may_act = False    # a seated phone's gestures reach the table
    ring_marks = True         # the seat claim's and the journal's signals are laid over the ring

    def gesture(self, desk: Desk, gesture: Gesture, now: float) -> None:
        raise NotImplementedError

    def pending(self, desk: Desk) -> str:
        raise NotImplementedError

    def ring(self, desk: Desk, now: float) -> Ring:
        """The ring of a game being played: the seat's colour and its count, running down with the turn clock."""
        ring = game_ring(desk, now)
        fraction = time_fraction(desk, now)
        if fraction is not None:
            ring = with_time_left(ring, fraction)
        return with_tournament_signal(ring, desk.game, now)   # the tournament's last rounds: its top LED


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

    def gesture(self, desk: Desk, gesture: Gesture, now: float) -> None:
        chosen: Selection | None = None
        match gesture:
            case Tap(t):
                chosen = self._touch(desk, t, now, long=False)
            case LongPress(t):
                chosen = self._touch(desk, t, now, long=True)
            case Turn(steps):
                chosen = referee_input.turn(desk, steps, now)
            case Press(button):
                chosen = referee_input.press(desk, button, now, held=False)
            case Hold(button):
                chosen = referee_input.press(desk, button, now, held=True)
        if chosen is not None:
            desk.hold(chosen)

    def _touch(self, desk: Desk, t: int, now: float, *, long: bool) -> Selection | None:
        game = desk.game
        if not 0 <= t < game.map.size:
            return None
        if desk.dealt.confirm(game, t):   # a newly dealt territory: its army is on the board now
            referee_input.confirmed(desk, t)
            return None
        return self.tap(desk, t, now, long=long)

    def tap(self, desk: Desk, t: int, now: float, *, long: bool) -> Selection | None:
        desk.illegal(t, now, "not now")
        return None

    def settle(self, desk: Desk, sel: Selection) -> Selection:
        """After an action: what of the selection still holds (in most steps, nothing)."""
        return sel.cleared()

    def pending(self, desk: Desk) -> str:
        return prompt_words.play_pending(desk)


class Placing(Play):
    """Armies (or the neutral army's) are placed: a tap places one, a long press a fleet (lamorisse-1954)."""

    def tap(self, desk: Desk, t: int, now: float, *, long: bool) -> Selection | None:
        return referee_input.tap_place(desk, t, now, long, desk.game.acting_owner())


class Attacking(Play):
    """The current player's attacks, or the neutral army's: a source, then a target; a long press blitzes."""

    def tap(self, desk: Desk, t: int, now: float, *, long: bool) -> Selection | None:
        return referee_input.tap_attack(desk, t, now, long, desk.game.acting_owner())

    def settle(self, desk: Desk, sel: Selection) -> Selection:
        # The source may have been lost or spent, the target taken: only what may still attack stays selected.
        game = desk.game
        if sel.source >= 0 and (game.owner[sel.source] != game.acting_owner() or game.armies[sel.source] < 2):
            sel = sel.cleared()
        elif sel.target >= 0 and not game.attack_allowed(sel.source, sel.target):
            sel = sel.with_target(-1, sel.count)
        if sel.target >= 0:
            sel = sel.with_count(min(max(sel.count, 1), game.max_attack_dice(sel.source)))
        return sel


class Occupying(Play):
    """After a conquest: armies move in, a tap on the target one more, on the source one fewer."""

    def tap(self, desk: Desk, t: int, now: float, *, long: bool) -> Selection | None:
        return referee_input.tap_occupy(desk, t, now)

    def settle(self, desk: Desk, sel: Selection) -> Selection:
        return sel.with_count(desk.game.occupy_range()[0])


class Fortifying(Play):
    """The source, then the destination; the encoder sets how many move."""

    def tap(self, desk: Desk, t: int, now: float, *, long: bool) -> Selection | None:
        return referee_input.tap_fortify(desk, t, now)

    def settle(self, desk: Desk, sel: Selection) -> Selection:
        if sel.source >= 0 and desk.game.owner[sel.source] != desk.game.current:
            return sel.cleared()
        return sel


class Defending(Play):
    """The defender chooses how many dice (the most by default, and at the time-out); a choice holds for the next
    rolls of the same battle, as far as the armies left allow. The attacker's count is left as it is."""

    def settle(self, desk: Desk, sel: Selection) -> Selection:
        battle = desk.game.battle
        if battle is None:
            return sel.cleared()
        most = desk.game.max_defend_dice(battle.target)
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

    def gesture(self, desk: Desk, gesture: Gesture, now: float) -> None:
        if desk.new_game_offered and isinstance(gesture, Press) and gesture.button is Button.ROLL:
            desk.give(NewGameAsked(now))   # the set-up menu for the next game
            return
        again = ": ROLL for a new game" if desk.new_game_offered else ""
        desk.notice(f"game over: {desk.seat_name(desk.game.winner)} won{again}")

    def pending(self, desk: Desk) -> str:
        if desk.game.winner is None:   # ended with no winner: the game's own words
            return prompt_words.play_pending(desk)
        return prompt_words.game_over_pending(desk)


GAME_OVER = GameOver()


class Paused(Mode):
    """A fault holds the game (the link, the host's pause): every gesture is refused; what was pending stays
    pending."""

    ring_marks = False
    phones_may_act = True     # the mover's phone is told why (the host's own pause is kept from phones earlier)

    def __init__(self, under: Mode) -> None:
        self.under = under
        self.shows_clock = under.shows_clock

    def gesture(self, desk: Desk, gesture: Gesture, now: float) -> None:
        desk.refuse_quietly(f"paused: {desk.fault}")

    def pending(self, desk: Desk) -> str:
        return self.under.pending(desk)

    def ring(self, desk: Desk, now: float) -> Ring:
        return tuple(FAULT if blink_on(now) else OFF for _ in range(desk.ring_size))


class Question(Mode):
    """A yes/no question (table/questions.py; ROLL: yes, CANCEL: no); nothing else is taken meanwhile. With a
    colour the whole ring flashes it (e.g. the seat that leaves) instead of green and red. The answer goes to
    `Desk.answer`: the table answers its own questions, the rest leave as an `Answered` effect."""

    def __init__(self, question: TableQuestion) -> None:
        self.question = question

    @property
    def text(self) -> str:
        return self.question.text

    @property
    def colour(self) -> RGB | None:
        return self.question.colour

    def gesture(self, desk: Desk, gesture: Gesture, now: float) -> None:
        if not isinstance(gesture, Press | Hold) or gesture.button is Button.NEXT:
            desk.refuse(now, "answer the question first: ROLL or CANCEL")  # the question itself is already shown
            return
        desk.end(self)
        desk.answer(self.question, gesture.button is Button.ROLL, now)

    def pending(self, desk: Desk) -> str:
        return self.text

    def ring(self, desk: Desk, now: float) -> Ring:
        return question_ring(desk.ring_size, now, self.colour)


class SettingUp(Mode):
    """The set-up menu (table/setup_menu.py, a state machine of its own) while a new game is chosen at the board;
    the game meanwhile is a stand-in, unlit. ROLL on its last step gives out the choice (`SetupChosen`): the
    shell deals and starts the game."""

    shows_clock = False

    def __init__(self, menu: SetupMenu) -> None:
        self.menu = menu

    def gesture(self, desk: Desk, gesture: Gesture, now: float) -> None:
        choice = self.menu.handle(gesture)
        desk.refuse_quietly(self.menu.message)    # the menu's words are a refused key's reason ("" when it moved on)
        if self.menu.said:                  # or a notice: an option switched
            desk.notice(self.menu.said)
        if choice is not None:
            desk.end(self)
            desk.give(SetupChosen(choice, now))

    def pending(self, desk: Desk) -> str:
        return self.menu.describe()

    def ring(self, desk: Desk, now: float) -> Ring:
        return self.menu.ring(desk.ring_size, now)


class TypingDice(Mode):
    """Physical dice typed in with the encoder, one die at a time, attack dice first: ROLL confirms a die, CANCEL
    takes back the last one; the last die applies the roll. A seated phone's encoder and buttons type too."""

    phones_may_act = True

    def __init__(self, entry: DiceEntry) -> None:
        self.entry = entry

    def gesture(self, desk: Desk, gesture: Gesture, now: float) -> None:
        entry = self.entry
        match gesture:
            case Turn(steps):
                entry.current = (entry.current - 1 + steps) % 6 + 1
            case Press(Button.ROLL) | Hold(Button.ROLL):
                entry.values.append(entry.current)
                entry.current = 1
                if len(entry.values) == entry.needed:
                    values = tuple(entry.values)
                    desk.end(self)
                    desk.apply_action(Roll(values[: entry.attack], values[entry.attack:], "physical"), now)
            case Press(Button.CANCEL) | Hold(Button.CANCEL):
                if entry.values:
                    entry.values.pop()
            case _:
                desk.refuse_quietly("enter the dice with the encoder, ROLL confirms each die")

    def pending(self, desk: Desk) -> str:
        entry = self.entry
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

    def over(self, under: Mode) -> PowerQuestion:
        return self if under is self.under else PowerQuestion(under)

    def gesture(self, desk: Desk, gesture: Gesture, now: float) -> None:
        desk.end(self)
        if isinstance(gesture, Press | Hold) and gesture.button is Button.ROLL:
            desk.power_off = True
            desk.notice("switching off: the board goes dark, then unplug it")
        else:
            desk.notice("the board stays on")

    def pending(self, desk: Desk) -> str:
        return prompt_words.POWER_QUESTION

    def ring(self, desk: Desk, now: float) -> Ring:
        return question_ring(desk.ring_size, now)


AskedMode = Question | SettingUp | TypingDice    # the modes the referee holds (at most one at a time)
