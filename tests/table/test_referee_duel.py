"""The referee and the neutral army (french-1976-duel): the current player's opponent acts for it with the same taps,
encoder and buttons; the status names who acts for it; its territories light in the neutral colour."""

from __future__ import annotations

from conquista.dice.sources import SeededDice
from conquista.rules.actions import Place
from conquista.rules.events import Phase
from conquista.table.colours import NEUTRAL as NEUTRAL_RGB
from conquista.table.colours import player_rgb
from conquista.table.gestures import Button, Hold, Press, Tap, Turn
from conquista.table.referee import Referee
from conquista_sim.dice import FixedDice
from tests.rules.helpers import MAP, NEUTRAL, duel, tid


def test_neutral_territories_light_in_the_neutral_colour() -> None:
    ref = Referee(duel(Phase.REINFORCE), SeededDice(1))
    lights = ref.scene(1.0).territories
    for t in range(MAP.size):
        owner = ref.game.owner[t]
        want = NEUTRAL_RGB if owner == NEUTRAL else player_rgb(ref.game.rules.colours[owner])
        assert lights[t] == want, MAP.id(t)
    assert NEUTRAL_RGB in lights and player_rgb("yellow") not in lights  # seat 2's colour is not the neutral's


def test_the_opponent_places_the_neutral_reinforcements_by_taps_and_the_encoder() -> None:
    ref = Referee(duel(Phase.REINFORCE), SeededDice(1))
    ref.handle(Press(Button.NEXT), 1.0)
    game = ref.game
    assert game.phase is Phase.NEUTRAL_REINFORCE and game.pool == 2 and game.to_move == 1
    assert ref.status().pending == "blue acts for the neutral army: place 2 armies on neutral territories: tap them"
    ring = ref.scene(1.1).ring      # in blue, who acts: the armies to place lit, the rest dim
    assert ring.count(player_rgb("blue")) == 2 and all(c[0] == 0 and c[2] > 0 for c in ring)
    ref.handle(Tap(tid("alaska")), 1.2)
    assert ref.message == "Alaska is not the neutral army's" and game.pool == 2
    ref.handle(Press(Button.NEXT), 1.3)
    assert "2 neutral armies are still to place" in ref.message
    ref.handle(Tap(tid("central_america")), 1.4)
    ref.handle(Press(Button.CANCEL), 1.5)  # a placement is taken back like any other
    assert game.pool == 2 and game.armies[tid("central_america")] == 1
    ref.handle(Tap(tid("central_america")), 1.6)
    ref.handle(Turn(1), 1.7)
    assert game.log[-2:] == [Place(tid("central_america"), 1), Place(tid("central_america"), 1)]
    assert game.phase is Phase.NEUTRAL_ATTACK and game.armies[tid("central_america")] == 3
    assert ref.status().pending.startswith("blue acts for the neutral army: tap a neutral territory to attack red")


def test_the_neutral_turn_by_taps_then_the_current_player_resumes() -> None:
    ref = Referee(duel(Phase.NEUTRAL_ATTACK, armies={"central_america": 6, "egypt": 3}), FixedDice(6, 1))
    game = ref.game
    ref.handle(Tap(tid("western_us")), 1.0)
    assert ref.message == "tap a neutral territory first"
    ref.handle(Tap(tid("egypt")), 1.1)
    ref.handle(Tap(tid("middle_east")), 1.2)  # blue's own territory: never with the neutral army
    assert "the neutral army attacks only the player whose turn it is" in ref.message and ref.target < 0
    ref.handle(Press(Button.CANCEL), 1.3)
    ref.handle(Tap(tid("central_america")), 1.4)
    ref.handle(Tap(tid("western_us")), 1.5)
    assert ref.status().pending.startswith("blue acts for the neutral army: Central America → Western United States")
    assert ref.conquest_chance() is not None
    ref.handle(Hold(Button.ROLL), 1.6)
    assert game.owner[tid("western_us")] == NEUTRAL and game.phase is Phase.OCCUPY and game.to_move == 1
    assert ref.status().pending.startswith("blue acts for the neutral army: move 3 armies into Western United States")
    ref.handle(Turn(1), 1.7)
    ref.handle(Press(Button.ROLL), 1.8)
    assert game.armies[tid("western_us")] == 4 and game.phase is Phase.NEUTRAL_ATTACK
    assert ref.scene(1.9).territories[tid("western_us")] == NEUTRAL_RGB
    ref.handle(Press(Button.NEXT), 2.0)
    assert game.phase is Phase.ATTACK and game.to_move == 0 and not game.turn_state.conquered
    assert ref.status().pending == "tap a territory to attack from, or NEXT to fortify"


def test_the_opponent_chooses_the_neutral_defence_dice_at_the_board() -> None:
    ref = Referee(duel(armies={"western_us": 5, "central_america": 3}, automatic_defence=False), FixedDice(1, 6))
    ref.handle(Tap(tid("western_us")), 1.0)
    ref.handle(Tap(tid("central_america")), 1.1)
    ref.handle(Press(Button.ROLL), 1.2)
    game = ref.game
    assert game.phase is Phase.DEFEND and game.to_move == 1
    assert ref.status().pending == ("blue acts for the neutral army: neutral defends Central America against "
                                    "Western United States: 2 dice (turn to change), ROLL confirms")
    ref.handle(Turn(-1), 1.3)
    ref.handle(Press(Button.ROLL), 1.4)
    assert ref.last_roll[1] == (6,) and game.phase is Phase.ATTACK
    assert "neutral" in ref.log[-1] or "Central America" in ref.log[-1]
