"""The referee's side of issue 6: CANCEL undoes the last placement or move (never a roll), the resume prompt,
and the journal fault on the ring (with play going on)."""

from __future__ import annotations

import json
import weakref
from pathlib import Path

from conquista.app.routing import EffectRouter
from conquista.dice.sources import SeededDice
from conquista.journal import GameJournal
from conquista.rules.actions import EndPhase, Fortify, Occupy, Place, Roll
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.serialize import decode_action
from conquista.table.colours import FAULT, OFF
from conquista.table.effects import ActionUndone, Answered
from conquista.table.gestures import Button, Gesture, Press, Tap, Turn
from conquista.table.inputs import Fault, FaultSource
from conquista.table.questions import QuestionKind, TableQuestion
from conquista.table.referee import PROMPT_NO, PROMPT_YES, Referee
from conquista_sim.dice import FixedDice
from tests.rules.helpers import dealt, position, tid

_ROUTERS: weakref.WeakKeyDictionary[Referee, EffectRouter] = weakref.WeakKeyDictionary()


def journaled(game, tmp_path: Path, dice=None) -> tuple[Referee, GameJournal, list]:  # type: ignore[no-untyped-def]
    """A referee whose effects go through the shell's router: the journal first, then a list of the undone."""
    undone: list = []
    ref = Referee(game, dice or SeededDice(1))
    journal = GameJournal(tmp_path)
    journal.attach(ref)
    router = EffectRouter(journal)
    router.listeners.append(lambda _ref, effects: undone.extend(
        e.action for e in effects if isinstance(e, ActionUndone)))
    _ROUTERS[ref] = router
    return ref, journal, undone


def handle(ref: Referee, gesture: Gesture, now: float) -> None:
    """A gesture at the board, and its effects routed, as the board's runner does."""
    ref.handle(gesture, now)
    _ROUTERS[ref].route(ref, now)


def journal_rows(journal: GameJournal) -> list[str]:
    store = journal.store
    assert store is not None and journal.game_id is not None
    return store.log_lines(journal.game_id)[1:]


def test_cancel_undoes_moves_of_this_turn_but_never_a_roll(tmp_path: Path) -> None:
    game = position("classic", owners={"alaska": 0, "alberta": 0}, armies={"alaska": 8, "kamchatka": 2},
                    fortify_moves=3, automatic_defence=True)
    ref, journal, undone = journaled(game, tmp_path, FixedDice(6, 1))
    handle(ref, Tap(tid("alaska")), 1.0)
    handle(ref, Tap(tid("kamchatka")), 1.1)
    handle(ref, Press(Button.ROLL), 1.2)                   # attack and roll: the defender loses both armies
    assert ref.game.phase is Phase.OCCUPY
    after_roll = ref.game.digest()
    handle(ref, Turn(2), 1.3)
    handle(ref, Press(Button.ROLL), 1.4)                   # occupy with 5
    assert ref.game.armies[tid("kamchatka")] == 5 and ref.game.phase is Phase.ATTACK
    assert undone == [] and ref.source == -1              # the move-in ends the battle's selection
    handle(ref, Press(Button.CANCEL), 1.5)                 # no selection: undo the occupation
    assert undone == [Occupy(5)] and ref.game.phase is Phase.OCCUPY and ref.game.digest() == after_roll
    assert ref.count == 3                                 # the choice starts again from the minimum
    handle(ref, Press(Button.CANCEL), 1.6)
    assert undone == [Occupy(5)] and isinstance(ref.game.log[-1], Roll) and "never" in ref.message
    handle(ref, Press(Button.ROLL), 1.7)                   # occupy with 3 this time
    handle(ref, Press(Button.NEXT), 1.8)
    assert ref.game.phase is Phase.FORTIFY
    handle(ref, Press(Button.CANCEL), 1.85)
    assert undone == [Occupy(5)]                          # ending the phase closed the attack for good
    handle(ref, Tap(tid("alaska")), 1.9)
    handle(ref, Tap(tid("alberta")), 2.0)
    handle(ref, Press(Button.ROLL), 2.1)                   # fortify alaska → alberta with all it can spare
    moved = Fortify(tid("alaska"), tid("alberta"), 4)
    assert ref.game.log[-1] == moved and ref.game.armies[tid("alaska")] == 1
    handle(ref, Press(Button.CANCEL), 2.2)
    assert undone[-1] == moved and ref.game.armies[tid("alaska")] == 5 and ref.game.phase is Phase.FORTIFY
    assert journal_rows(journal)[-1].startswith('{"type": "end_phase"')
    assert len(journal_rows(journal)) == len(ref.game.log)


def test_encoder_back_only_takes_back_placements(tmp_path: Path) -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0}, phase=Phase.REINFORCE, state={"pool": 5})
    ref, journal, undone = journaled(game, tmp_path)
    handle(ref, Tap(tid("alaska")), 1.0)
    handle(ref, Tap(tid("alberta")), 1.1)
    handle(ref, Turn(-5), 1.2)
    assert undone == [Place(tid("alberta"), 1), Place(tid("alaska"), 1)] and ref.game.pool == 5
    assert len(journal_rows(journal)) == 1                # only the deal is left
    handle(ref, Press(Button.CANCEL), 1.3)
    assert ref.message.startswith("nothing to undo")


def test_resume_prompt_takes_only_roll_or_cancel() -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1))
    question = TableQuestion(QuestionKind.RESUME, "unfinished game 3: ROLL resumes it, CANCEL starts a new game",
                             subject=3)
    ref.ask(question)
    assert ref.status().pending.startswith("unfinished game 3")
    ring = ref.scene(0.1).ring
    assert ring[0] == PROMPT_YES and ring[-1] == PROMPT_NO and ref.scene(0.6).ring[0] == OFF
    before = ref.game.digest()
    ref.handle(Tap(ref.game.owner.index(ref.game.current)), 1.0)
    ref.handle(Press(Button.NEXT), 1.1)
    assert ref.take_effects() == [] and ref.game.digest() == before
    assert ref.status().pending.startswith("unfinished game 3")
    # The question is shown once (as the pending step); the refusal only says how to answer it.
    assert ref.message == "answer the question first: ROLL or CANCEL"
    ref.handle(Press(Button.CANCEL), 1.2)
    assert ref.take_effects() == [Answered(question, False, 1.2)] and not ref.prompt   # for the shell to act on
    ref.handle(Tap(ref.game.owner.index(ref.game.current)), 1.3)
    assert len(ref.game.log) == 2                         # play goes on once the question is answered


def test_reset_relights_a_resumed_game_and_answers_its_roll() -> None:
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 8, "kamchatka": 3})
    ref = Referee(dealt("classic", 2), FixedDice(6, 1))
    ref.handle(Tap(tid("alaska")), 0.5)
    assert ref.source >= 0 or ref.message
    from conquista.rules.actions import Attack

    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))   # the referee was killed before the roll
    assert game.phase is Phase.ROLL
    ref.reset(game, 1.0)
    assert ref.game is game and isinstance(game.log[-1], Roll) and ref.source == -1
    assert ref.dice_values() == ((6, 6, 6), (1, 1, None))


def test_journal_fault_blinks_the_ring_and_play_goes_on() -> None:
    game = position("italian", owners={"alaska": 0}, phase=Phase.REINFORCE, state={"pool": 3})
    ref = Referee(game, SeededDice(1))
    ref.step(Fault(FaultSource.STORAGE, "journal not saved: disk full"), ref.now)
    lit = ref.scene(0.1).ring
    dark = ref.scene(0.6).ring
    assert lit[0] == FAULT and lit[1] != FAULT and dark[0] != FAULT and dark[0] != OFF
    ref.handle(Tap(tid("alaska")), 1.0)
    assert ref.game.pool == 2 and "disk full" in ref.status().message


def _forced_steps_position() -> Game:
    return position("classic", owners={"alaska": 0, "alberta": 0}, armies={"alaska": 3, "kamchatka": 1},
                    phase=Phase.REINFORCE, state={"pool": 1}, automatic_defence=True)


def test_the_steps_the_table_takes_itself_are_journaled_and_replay_identically(tmp_path: Path) -> None:
    """Issue 39 §6: the end of the reinforcements after their last army, and a move-in of one possible count, are
    actions the table applies itself: the journal has them (and loses them when CANCEL takes the placement back),
    and its rows, replayed on the position the game started from, make the game played."""
    ref, journal, undone = journaled(_forced_steps_position(), tmp_path, FixedDice(6, 1))
    handle(ref, Tap(tid("alaska")), 1.0)
    assert ref.game.phase is Phase.ATTACK and journal_rows(journal)[-1].startswith('{"type": "end_phase"')
    handle(ref, Press(Button.CANCEL), 1.1)
    assert undone == [EndPhase(), Place(tid("alaska"), 1)] and ref.game.phase is Phase.REINFORCE
    assert len(journal_rows(journal)) == len(ref.game.log)
    handle(ref, Tap(tid("alaska")), 1.2)
    handle(ref, Tap(tid("alaska")), 1.3)
    handle(ref, Tap(tid("kamchatka")), 1.4)
    handle(ref, Press(Button.ROLL), 1.5)                   # three dice from four armies: three move in
    assert ref.game.log[-1] == Occupy(3) and ref.game.phase is Phase.ATTACK
    assert len(journal_rows(journal)) == len(ref.game.log)
    replayed = _forced_steps_position()
    for row in journal_rows(journal)[1:]:                 # after the deal, which the position carries
        replayed.apply(decode_action(json.loads(row), replayed.map))
    assert replayed.digest() == ref.game.digest() and replayed.log == ref.game.log
