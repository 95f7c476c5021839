"""The words of the table's refusals name their cause (issue 39 §5): a fortify destination not connected to the
source says so and names both; NEXT in a step it cannot end says what is left to do."""

from __future__ import annotations

from conquista.dice.sources import SeededDice
from conquista.rules.events import Phase
from conquista.table.gestures import Button, Hold, Press, Tap
from conquista.table.referee import Referee
from conquista_sim.dice import FixedDice
from tests.rules.helpers import dealt, position, tid


def test_a_destination_not_next_to_the_source_is_refused_as_not_connected() -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0, "great_britain": 0}, armies={"alaska": 6},
                    phase=Phase.FORTIFY)
    ref = Referee(game, SeededDice(1))
    ref.handle(Tap(tid("alaska")), 1.0)
    before = ref.game.digest()
    ref.handle(Tap(tid("great_britain")), 1.1)
    assert ref.message == "Great Britain is not connected to Alaska: a move goes to a neighbouring territory"
    assert ref.game.digest() == before and (ref.source, ref.target) == (tid("alaska"), -1)
    ref.handle(Tap(tid("alberta")), 1.2)          # a neighbour is still the destination it was
    assert ref.target == tid("alberta")


def test_a_destination_cut_off_by_enemies_is_not_connected_through_your_territories() -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0, "great_britain": 0, "iceland": 0},
                    armies={"alaska": 6, "iceland": 3}, phase=Phase.FORTIFY, fortify_path="connected")
    ref = Referee(game, SeededDice(1))
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("great_britain")), 1.1)
    assert ref.message == "Great Britain is not connected to Alaska through your territories"
    assert ref.source == tid("alaska")
    # A territory with armies to spare becomes the source instead, and the words say why it was not the destination.
    ref.handle(Tap(tid("iceland")), 1.2)
    assert (ref.source, ref.target) == (tid("iceland"), -1)
    assert ref.message == "Iceland is not connected to Alaska through your territories; Iceland is the source now"
    ref.handle(Tap(tid("great_britain")), 1.3)
    assert ref.target == tid("great_britain")


def test_next_in_the_initial_placement_says_how_many_armies_are_left() -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1))
    assert ref.game.phase is Phase.SETUP and ref.game.pool == 3
    ref.handle(Press(Button.NEXT), 1.0)
    assert ref.message == "place your 3 remaining armies first"
    ref.handle(Tap(ref.game.owner.index(0)), 1.1)
    ref.handle(Tap(ref.game.owner.index(0)), 1.2)
    ref.handle(Press(Button.NEXT), 1.3)
    assert ref.message == "place your 1 remaining army first"


def test_next_after_a_conquest_says_the_move_in_is_to_choose() -> None:
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 8, "kamchatka": 3})
    ref = Referee(game, FixedDice(6, 1))
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.handle(Hold(Button.ROLL), 2.0)
    assert ref.game.phase is Phase.OCCUPY
    ref.handle(Press(Button.NEXT), 2.5)
    assert ref.message == "choose how many armies move into Kamchatka first: turn to change, ROLL confirms"
    assert ref.game.phase is Phase.OCCUPY


def test_next_while_the_defender_chooses_says_who_chooses() -> None:
    game = position("french-1976", players=3, owners={"alaska": 0}, armies={"alaska": 5, "kamchatka": 4},
                    automatic_defence=False)
    ref = Referee(game, SeededDice(1))
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.handle(Press(Button.ROLL), 1.2)
    assert ref.game.phase is Phase.DEFEND
    ref.handle(Press(Button.NEXT), 1.3)
    assert ref.message == "blue chooses the dice defending Kamchatka first: ROLL confirms"


def test_with_a_destination_chosen_another_tap_changes_it_or_says_why_not() -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0, "northwest_territory": 0, "great_britain": 0},
                    armies={"alaska": 6}, phase=Phase.FORTIFY)
    ref = Referee(game, SeededDice(1))
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("alberta")), 1.1)
    ref.handle(Tap(tid("northwest_territory")), 1.2)      # another neighbour: the destination changes
    assert (ref.source, ref.target, ref.count) == (tid("alaska"), tid("northwest_territory"), 5)
    ref.handle(Tap(tid("great_britain")), 1.3)
    assert ref.message == "Great Britain is not connected to Alaska: a move goes to a neighbouring territory"
    assert ref.target == tid("northwest_territory")
