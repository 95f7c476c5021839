"""Safe power-off from the board: NEXT held for 5 s asks, ROLL says yes, anything else no (time stepped)."""

from __future__ import annotations

import pytest

from conquista.dice.sources import SeededDice
from conquista.rules.rulesets import load_ruleset
from conquista.table.gestures import Button, GestureRecogniser, HeldDown, Hold, Press, Tap, Turn
from conquista.table.inputs import Fault, FaultSource
from conquista.table.questions import QuestionKind, TableQuestion
from conquista.table.referee import POWER_QUESTION, Referee
from conquista.table.ring import PROMPT_NO, PROMPT_YES
from conquista.table.setup_menu import RulesetOption, SetupMenu
from tests.rules.helpers import dealt


def test_next_held_for_five_seconds_is_reported_while_still_down_once() -> None:
    rec = GestureRecogniser()
    rec.button_down(Button.NEXT, 10.0)
    assert rec.poll(12.0) is None and rec.poll(14.99) is None
    assert rec.poll(15.0) == HeldDown(Button.NEXT)
    assert rec.poll(16.0) is None                       # once
    assert rec.button_up(Button.NEXT, 17.0) is None     # and the release is no NEXT press
    rec.button_down(Button.NEXT, 20.0)
    assert rec.button_up(Button.NEXT, 21.0) == Hold(Button.NEXT)
    rec.button_down(Button.NEXT, 30.0)
    assert rec.button_up(Button.NEXT, 30.1) == Press(Button.NEXT)


def test_a_release_after_five_seconds_asks_even_if_not_polled() -> None:
    rec = GestureRecogniser()
    rec.button_down(Button.NEXT, 0.0)
    assert rec.button_up(Button.NEXT, 5.5) == HeldDown(Button.NEXT)


def test_roll_held_long_is_still_a_blitz() -> None:
    rec = GestureRecogniser()
    rec.button_down(Button.ROLL, 0.0)
    assert rec.poll(9.0) is None
    assert rec.button_up(Button.ROLL, 9.0) == Hold(Button.ROLL)


def test_roll_answers_yes() -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1))
    before = ref.game.digest()
    ref.handle(HeldDown(Button.NEXT), 1.0)
    assert ref.power_question and ref.status().pending == POWER_QUESTION
    ring = ref.scene(1.1).ring
    assert ring[0] == PROMPT_YES and ring[-1] == PROMPT_NO
    ref.handle(Press(Button.ROLL), 2.0)
    assert ref.power_off and not ref.power_question and ref.game.digest() == before


@pytest.mark.parametrize("answer", [Press(Button.CANCEL), Press(Button.NEXT), Tap(3), Turn(1), Hold(Button.CANCEL)])
def test_anything_else_answers_no_and_changes_nothing(answer: object) -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1))
    before = ref.game.digest()
    ref.handle(HeldDown(Button.NEXT), 1.0)
    ref.handle(answer, 2.0)  # type: ignore[arg-type]
    assert not ref.power_off and not ref.power_question and ref.game.digest() == before
    assert ref.message == "the board stays on"


def test_asked_above_a_fault_a_question_and_the_menu() -> None:
    # The table is in one asked mode at a time (a question, or the menu: the menu follows a "no" to the resume
    # question, never beside it), so the power question is tried above each with a fault.
    ref = Referee(dealt("italian", 3), SeededDice(1))
    ref.step(Fault(FaultSource.LINK, "sensor link down"), ref.now)
    ref.ask(TableQuestion(QuestionKind.OTHER, "resume?"))
    ref.handle(HeldDown(Button.NEXT), 1.0)
    assert ref.scene(1.1).ring[0] == PROMPT_YES         # not the fault's orange
    ref.handle(Press(Button.ROLL), 2.0)
    assert ref.power_off and ref.prompt == "resume?"    # the other question was not answered by it
    ref = Referee(dealt("italian", 3), SeededDice(1))
    ref.step(Fault(FaultSource.LINK, "sensor link down"), ref.now)
    ref.offer_menu(SetupMenu([RulesetOption.of("italian", load_ruleset("italian"))]))
    ref.handle(HeldDown(Button.NEXT), 1.0)
    assert ref.scene(1.1).ring[0] == PROMPT_YES
    ref.handle(Press(Button.ROLL), 2.0)
    assert ref.power_off and ref.menu is not None       # the menu did not take the ROLL


def test_other_buttons_held_down_do_not_ask() -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1))
    ref.handle(HeldDown(Button.ROLL), 1.0)
    assert not ref.power_question
