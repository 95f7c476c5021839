"""Issue 19: the referee's modes are objects that own their fields and answer what the table may do now (what a
gesture does, the pending words, the turn clock, whether bots and phones may act), in place of the busy tests
written six times over flags. The scene is pure: painting changes nothing."""

from __future__ import annotations

from conquista.dice.sources import SeededDice
from conquista.rules.events import Phase
from conquista.rules.rulesets import load_ruleset
from conquista.table.colours import ILLEGAL
from conquista.table.gestures import Button, HeldDown, Press, Tap, Turn
from conquista.table.inputs import Fault, FaultSource, OfferBots
from conquista.table.modes import (
    Attacking,
    Fortifying,
    GameOver,
    Occupying,
    Paused,
    Play,
    PowerQuestion,
    Question,
    SettingUp,
    TypingDice,
    play_mode,
)
from conquista.table.questions import QuestionKind, TableQuestion
from conquista.table.referee import Referee
from conquista.table.setup_menu import RulesetOption, SetupMenu
from conquista.web.companion import SeatGesture
from conquista_sim.dice import FixedDice
from tests.rules.helpers import dealt, position, tid
from tests.web.helpers import make_board


def _answers(referee: Referee) -> tuple[bool, bool, bool]:
    mode = referee.mode
    return mode.takes_play, mode.phones_may_act, mode.clock_runs


def test_play_takes_bots_phones_and_the_clock_and_a_question_stops_them_all() -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1))
    assert isinstance(ref.mode, Play) and _answers(ref) == (True, True, True)
    ref.ask(TableQuestion(QuestionKind.OTHER, "leave?"))
    assert isinstance(ref.mode, Question) and _answers(ref) == (False, False, False)
    assert ref.status().pending == "leave?"
    ref.handle(Press(Button.CANCEL), 1.0)
    assert isinstance(ref.mode, Play) and not ref.prompt


def test_an_answer_that_asks_the_next_question_keeps_it() -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1))
    ref.step(OfferBots(True), ref.now)
    seat = ref.game.current
    ref.ask(TableQuestion(QuestionKind.LEAVE, "leave?", subject=seat))
    ref.handle(Press(Button.ROLL), 1.0)              # yes: the table asks its next question itself
    assert isinstance(ref.mode, Question) and ref.question is not None
    assert ref.question.kind is QuestionKind.BOT_SEAT and ref.question.subject == seat
    assert ref.take_effects() == []                  # its own questions' answers never leave the table


def test_a_fault_holds_the_mode_it_pauses_and_keeps_its_words() -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1))
    ref.ask(TableQuestion(QuestionKind.OTHER, "resume?"))
    ref.step(Fault(FaultSource.LINK, "sensor link down"), 1.0)
    mode = ref.mode
    assert isinstance(mode, Paused) and isinstance(mode.under, Question)
    assert ref.status().pending == "resume?"
    assert _answers(ref) == (False, True, False)     # a phone is told why (the referee refuses it)
    ref.handle(Press(Button.ROLL), 1.5)
    assert ref.message == "paused: sensor link down" and ref.prompt == "resume?"
    ref.step(Fault(FaultSource.LINK, None), 2.0)
    assert isinstance(ref.mode, Question)


def test_the_menu_and_the_game_over_hide_the_turn_clock() -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1))
    ref.offer_menu(SetupMenu([RulesetOption.of("italian", load_ruleset("italian"))]))
    assert isinstance(ref.mode, SettingUp) and not ref.mode.shows_clock and not ref.mode.takes_play
    won = position("italian", owners={"alaska": 0}, phase=Phase.OVER)   # chosen from the game's phase, never set
    won.winner = 0
    ref = Referee(won, SeededDice(1))
    assert isinstance(ref.mode, GameOver) and not ref.mode.shows_clock and not ref.mode.takes_play


def test_dice_typed_in_take_the_phones_encoder_but_not_the_bots() -> None:
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 3, "kamchatka": 1})
    ref = Referee(game, SeededDice(1), physical_dice=True)
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.handle(Press(Button.ROLL), 1.2)
    assert isinstance(ref.mode, TypingDice) and _answers(ref) == (False, True, False)
    ref.handle(Turn(4), 1.3)
    assert ref.entry is not None and ref.entry.current == 5


def test_a_phones_press_does_not_answer_the_power_question() -> None:
    board = make_board()
    referee = board.referee
    seat = referee.game.to_move
    assert isinstance(seat, int)
    board.companion.seats.grant(seat)
    referee.handle(HeldDown(Button.NEXT), 1.0)
    assert isinstance(referee.mode, PowerQuestion)
    board.companion.submit(SeatGesture(seat, Press(Button.ROLL)))
    board.step()
    assert referee.power_question and not referee.power_off     # only the board's own keys answer it
    referee.handle(Press(Button.CANCEL), board.now + 1)
    assert isinstance(referee.mode, Play) and referee.message == "the board stays on"


def test_the_scene_changes_nothing_and_time_forgets_a_finished_flash() -> None:
    game = position("italian", owners={"alaska": 0}, phase=Phase.REINFORCE, state={"pool": 3})
    ref = Referee(game, SeededDice(1))
    bad = tid("brazil")
    ref.handle(Tap(bad), 1.0)
    effects = list(ref.effects)
    version = ref.version
    assert ref.scene(1.05).territories[bad] == ILLEGAL
    ref.scene(30.0)                                   # long after the flash: painting forgets nothing
    assert ref.effects == effects and ref.version == version
    ref.tick(30.0)
    assert ref.effects == []


def test_the_play_mode_follows_the_phase_and_keeps_only_what_still_holds() -> None:
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 9, "kamchatka": 1},
                    phase=Phase.ATTACK)
    ref = Referee(game, FixedDice(6, 1))
    assert isinstance(ref.mode, Attacking)
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.handle(Press(Button.ROLL), 1.2)           # conquered: moving in, from the fewest that must move
    assert isinstance(ref.mode, Occupying) and ref.count == ref.game.occupy_range()[0]
    ref.handle(Tap(tid("brazil")), 1.3)           # neither end of the battle: refused by the occupying mode
    assert "move armies from Alaska into Kamchatka" in ref.message
    ref.handle(Press(Button.ROLL), 1.4)
    assert isinstance(ref.mode, Attacking) and ref.source == ref.target == -1
    ref.handle(Press(Button.NEXT), 1.5)
    assert isinstance(ref.mode, Fortifying) and play_mode(Phase.REINFORCE) is play_mode(Phase.SETUP)
