"""The table's yes/no questions as values: a question whose ring flashes one colour, its answer as an effect,
withdrawing it, and trading a chosen set (the board's ROLL trades the best one)."""

from __future__ import annotations

from conquista.dice.sources import SeededDice
from conquista.rules.events import Phase
from conquista.table.colours import OFF
from conquista.table.effects import Answered
from conquista.table.gestures import Button, Press
from conquista.table.questions import QuestionKind, TableQuestion
from conquista.table.referee import Referee
from tests.rules.helpers import dealt, position, tid

SEAT_COLOUR = (0, 60, 255)


def test_question_with_a_colour_flashes_the_whole_ring_in_it() -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1))
    question = TableQuestion(QuestionKind.OTHER, "blue's phone asks for its seat", SEAT_COLOUR, 1)
    ref.ask(question)
    assert set(ref.scene(0.1).ring) == {SEAT_COLOUR} and set(ref.scene(0.6).ring) == {OFF}
    ref.handle(Press(Button.ROLL), 1.0)
    # The answer leaves as data, for the shell: the question it answers, yes or no, and when.
    assert ref.take_effects() == [Answered(question, True, 1.0)]
    assert not ref.prompt and ref.prompt_colour is None


def test_withdrawn_question_is_gone_and_a_later_roll_is_not_an_answer() -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1))
    question = TableQuestion(QuestionKind.OTHER, "red's phone asks for its seat", SEAT_COLOUR, 0)
    ref.ask(question)
    assert not ref.withdraw(TableQuestion(QuestionKind.OTHER, "another question"))
    assert ref.withdraw(question)
    assert not ref.prompt and SEAT_COLOUR not in ref.scene(0.1).ring
    ref.handle(Press(Button.ROLL), 1.0)
    assert not any(isinstance(e, Answered) for e in ref.take_effects())


def _reinforce_with_cards() -> Referee:
    # alaska: infantry; the others make two different valid sets with it.
    game = position("italian", 2, owners={"alaska": 0, "peru": 0}, phase=Phase.REINFORCE, state={"pool": 3},
                    hands={0: [tid("alaska"), tid("peru"), tid("brazil"), tid("ontario")]})
    return Referee(game, SeededDice(1))


def test_trade_a_chosen_set() -> None:
    ref = _reinforce_with_cards()
    trades = ref.game.valid_trades()
    assert len(trades) >= 2
    chosen = min(trades, key=ref.game.trade_value)
    pool = ref.game.pool
    value = ref.game.trade_value(chosen)
    ref.trade(chosen, 1.0)
    assert ref.message == ""
    assert ref.game.pool == pool + value and not set(chosen) & set(ref.game.hands[0])


def test_trade_of_cards_not_held_is_refused_and_changes_nothing() -> None:
    ref = _reinforce_with_cards()
    before = ref.game.digest()
    ref.trade((tid("japan"), tid("siam"), tid("china")), 1.0)
    assert ref.message and ref.game.digest() == before
