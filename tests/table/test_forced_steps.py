"""Steps with one choice only go on by themselves (issue 39 §6): the move-in when one count only may move in, and
the reinforcements once their last army is placed; the log and the lights still show what happened, CANCEL still
takes the last placement back, and a set to trade (a choice) still waits for NEXT."""

from __future__ import annotations

from conquista.dice.sources import SeededDice
from conquista.rules.actions import EndPhase, Occupy, Place
from conquista.rules.events import Phase
from conquista.table.effects import ActionApplied, ActionUndone
from conquista.table.gestures import Button, Press, Tap, Turn
from conquista.table.referee import Referee
from conquista_sim.dice import FixedDice
from tests.rules.helpers import MAP, duel, position, tid


def test_a_move_in_of_one_possible_count_is_made_without_roll() -> None:
    # Three dice from four armies take a one-army territory: exactly three must and may move in.
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 4, "kamchatka": 1})
    ref = Referee(game, FixedDice(6, 1))
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.take_effects()
    ref.handle(Press(Button.ROLL), 1.2)
    assert ref.game.phase is Phase.ATTACK and ref.game.owner[tid("kamchatka")] == 0
    assert (ref.game.armies[tid("alaska")], ref.game.armies[tid("kamchatka")]) == (1, 3)
    applied = [e.action for e in ref.take_effects() if isinstance(e, ActionApplied)]
    assert applied[-1] == Occupy(3)                       # journaled as any move-in
    assert ref.log[-1] == "3 armies move from Alaska to Kamchatka"
    assert ref.message == "3 armies move into Kamchatka: the only count that may"
    assert "move 3 armies" not in ref.status().pending and ref.source == -1
    ref.handle(Press(Button.CANCEL), 1.3)                 # nothing was chosen, so nothing is taken back
    assert ref.game.log[-1] == Occupy(3) and ref.message.startswith("nothing to undo")


def test_a_move_in_with_a_choice_still_waits_for_roll() -> None:
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 5, "kamchatka": 1})
    ref = Referee(game, FixedDice(6, 1))
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.handle(Press(Button.ROLL), 1.2)
    assert ref.game.phase is Phase.OCCUPY and ref.status().pending == \
        "move 3 armies into Kamchatka, from 3 to 4: ROLL confirms"


def test_the_last_army_placed_ends_the_reinforcements_and_cancel_takes_it_back() -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0}, phase=Phase.REINFORCE, state={"pool": 3})
    ref = Referee(game, SeededDice(1))
    ref.handle(Tap(tid("alberta")), 1.0)
    ref.handle(Tap(tid("alaska")), 1.1)
    ref.take_effects()
    ref.handle(Turn(1), 1.2)                              # the last army: no NEXT needed
    assert ref.game.phase is Phase.ATTACK and ref.game.armies[tid("alaska")] == 3
    assert [e.action for e in ref.take_effects() if isinstance(e, ActionApplied)] == [
        Place(tid("alaska"), 1), EndPhase()]
    assert ref.status().pending == "tap a territory to attack from, or NEXT to fortify"
    assert ref.message == "every army is placed: the attack begins (CANCEL takes the last one back)"
    # CANCEL before the first attack takes the last placement back, and the phase with it.
    ref.handle(Press(Button.CANCEL), 1.3)
    assert ref.game.phase is Phase.REINFORCE and ref.game.pool == 1 and ref.game.armies[tid("alaska")] == 2
    assert ref.take_effects() == [ActionUndone(EndPhase(), 4), ActionUndone(Place(tid("alaska"), 1), 3)]
    ref.handle(Press(Button.CANCEL), 1.4)                 # and the placements before it, as ever
    assert ref.game.pool == 2 and ref.game.armies[tid("alaska")] == 1
    ref.handle(Tap(tid("alberta")), 1.5)
    ref.handle(Tap(tid("alberta")), 1.6)
    assert ref.game.phase is Phase.ATTACK and ref.game.armies[tid("alberta")] == 4
    assert ref.game.log[-3:] == [Place(tid("alberta"), 1), Place(tid("alberta"), 1), EndPhase()]


def test_a_set_to_trade_keeps_the_reinforcements_waiting_for_next() -> None:
    cannons = [t.index for t in MAP.territories if t.card == "cannon"][:3]
    game = position("italian", owners={"alaska": 0}, phase=Phase.REINFORCE, hands={0: cannons}, state={"pool": 1})
    ref = Referee(game, SeededDice(1))
    ref.handle(Tap(tid("alaska")), 1.0)
    assert ref.game.phase is Phase.REINFORCE and ref.game.pool == 0
    assert ref.status().pending == "NEXT ends the phase · a set can be traded: ROLL"
    ref.handle(Press(Button.NEXT), 1.1)
    assert ref.game.phase is Phase.ATTACK


def test_in_the_duel_the_last_army_placed_hands_over_to_the_neutral_army_for_good() -> None:
    ref = Referee(duel(Phase.REINFORCE, state={"pool": 1}), SeededDice(1))
    mine = ref.game.owner.index(0)
    ref.handle(Tap(mine), 1.0)
    game = ref.game
    assert game.phase is Phase.NEUTRAL_REINFORCE and game.to_move == 1
    assert ref.message == "every army is placed; now placing the neutral army's reinforcements"
    ref.handle(Press(Button.CANCEL), 1.1)     # the opponent acts now: red's placements stand, as after NEXT
    assert game.phase is Phase.NEUTRAL_REINFORCE and game.log[-1] == EndPhase()
