"""RULES.md §5 at the board: a player leaving (CANCEL held down on their turn, then ROLL; or the host's phone) and
the turn clock (time passed in by the test: no sleeping, no timing assertions on a real clock)."""

from __future__ import annotations

from conquista.dice.sources import SeededDice
from conquista.rules.actions import Defend, Leave, Roll, TimeOut
from conquista.rules.events import Phase
from conquista.table.colours import OFF
from conquista.table.effects import SeatToBot
from conquista.table.gestures import Button, GestureRecogniser, HeldDown, Hold, Press, Tap
from conquista.table.inputs import OfferBots
from conquista.table.questions import QuestionKind, TableQuestion
from conquista.table.referee import Referee
from conquista_sim.dice import FixedDice
from tests.rules.helpers import dealt, position, tid

# ------------------------------------------------------------------------------------------------- the gesture


def test_cancel_held_three_seconds_is_reported_while_down_and_a_shorter_hold_is_an_undo() -> None:
    rec = GestureRecogniser()
    rec.button_down(Button.CANCEL, 0.0)
    assert rec.poll(2.9) is None
    assert rec.poll(3.0) == HeldDown(Button.CANCEL)
    assert rec.poll(3.5) is None and rec.button_up(Button.CANCEL, 3.6) is None
    rec.button_down(Button.CANCEL, 10.0)
    assert rec.button_up(Button.CANCEL, 11.0) == Hold(Button.CANCEL)
    rec.button_down(Button.NEXT, 20.0)
    assert rec.poll(23.0) is None and rec.poll(25.0) == HeldDown(Button.NEXT)   # NEXT: still 5 s, power off


# ------------------------------------------------------------------------------------------------- leaving

def _attack_phase(**overrides: object) -> Referee:
    game = position("italian", players=3, owners={"alaska": 0, "kamchatka": 2}, armies={"alaska": 3}, **overrides)
    return Referee(game, SeededDice(1))


def test_cancel_held_asks_and_roll_makes_the_player_leave() -> None:
    ref = _attack_phase()
    ref.handle(Tap(tid("alaska")), 0.5)
    ref.handle(HeldDown(Button.CANCEL), 1.0)
    assert ref.prompt.startswith("red leaves the game?") and not any(ref.game.left)
    ref.handle(Press(Button.ROLL), 2.0)
    assert ref.game.log[-1] == Leave(0) and ref.game.left == [True, False, False]
    assert ref.game.current == 1 and ref.source == -1
    assert ref.status().left == (0,) and "red left the game" in ref.message
    assert any("red leaves the game" in line for line in ref.log)


def test_cancel_answers_no_and_nothing_changes() -> None:
    ref = _attack_phase()
    digest = ref.game.digest()
    ref.handle(HeldDown(Button.CANCEL), 1.0)
    ref.handle(Press(Button.CANCEL), 2.0)
    assert ref.game.digest() == digest and ref.message == "red plays on" and not ref.prompt


def test_a_bot_may_take_the_seat_instead() -> None:
    for bot in (True, False):
        ref = _attack_phase()
        ref.step(OfferBots(True), ref.now)   # the app has bots: the table may offer one
        ref.handle(HeldDown(Button.CANCEL), 1.0)
        ref.handle(Press(Button.ROLL), 2.0)
        assert ref.prompt.startswith("a bot plays on for red?")
        ref.handle(Press(Button.ROLL if bot else Button.CANCEL), 3.0)
        seated = [e.seat for e in ref.take_effects() if isinstance(e, SeatToBot)]   # the shell seats the bot
        assert seated == ([0] if bot else [])
        assert ref.game.left[0] is not bot and ref.game.current == (0 if bot else 1)


def test_leaving_where_the_ruleset_says_no_is_refused_with_its_reason() -> None:
    ref = _attack_phase(players_may_leave=False)
    ref.handle(HeldDown(Button.CANCEL), 1.0)
    assert not ref.prompt and ref.message == "players may not leave in italian"
    ref = Referee(dealt("italian", 3), SeededDice(1))    # the initial placement
    ref.handle(HeldDown(Button.CANCEL), 1.0)
    assert not ref.prompt and "initial placement" in ref.message


def test_the_host_makes_a_seat_leave_on_another_players_turn() -> None:
    ref = _attack_phase()
    assert ref.leave(2, 1.0)
    assert ref.game.left == [False, False, True] and ref.game.current == 0 and ref.game.phase is Phase.ATTACK
    assert not ref.leave(2, 2.0) and ref.message == "yellow is no longer playing"


def test_a_leaver_defends_with_the_most_dice_at_a_manual_defence_table() -> None:
    game = position("classic", players=3, owners={"alaska": 0, "kamchatka": 2}, armies={"alaska": 5, "kamchatka": 4})
    ref = Referee(game, FixedDice(1, 6))
    ref.leave(2, 0.5)
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.handle(Press(Button.ROLL), 1.2)
    roll = ref.game.log[-1]
    assert isinstance(roll, Roll) and len(roll.defend) == 2 and ref.game.phase is Phase.ATTACK


# ------------------------------------------------------------------------------------------------- the clock

def _reinforcing(limit: int, **overrides: object) -> Referee:
    game = position("italian", players=3, owners={"alaska": 0, "kamchatka": 2}, phase=Phase.REINFORCE,
                    state={"pool": 3}, turn_time_limit_s=limit, **overrides)
    return Referee(game, SeededDice(1), ring_size=24)


def test_the_clock_runs_down_and_the_time_out_spreads_the_armies_and_passes_the_turn() -> None:
    ref = _reinforcing(30)
    ref.tick(10.0)
    assert ref.status().time_left == 20.0
    ref.handle(Tap(tid("alaska")), 12.0)
    ref.tick(29.9)
    assert ref.game.current == 0 and ref.game.pool == 2
    ref.tick(30.0)
    assert isinstance(ref.game.log[-1], TimeOut) and ref.game.current == 1
    assert ref.game.armies[tid("alaska")] == 4 and "red's time is up" in ref.message
    ref.tick(31.0)
    assert ref.status().time_left == 29.0          # blue's turn has its own 30 s


def test_the_ring_shows_the_time_left() -> None:
    ref = _reinforcing(40)
    full = sum(1 for c in ref.scene(0.0).ring if c != OFF)
    half = sum(1 for c in ref.scene(20.0).ring if c != OFF)
    assert full == 24 and half == 12


def test_the_clock_stops_while_a_question_is_asked() -> None:
    ref = _reinforcing(30)
    ref.tick(5.0)
    ref.ask(TableQuestion(QuestionKind.OTHER, "resume?"))
    ref.tick(40.0)
    assert ref.game.current == 0
    ref.handle(Press(Button.CANCEL), 40.0)
    ref.tick(64.0)
    assert ref.game.current == 0 and ref.status().time_left == 1.0
    ref.tick(65.0)
    assert isinstance(ref.game.log[-1], TimeOut)


def test_no_limit_no_clock() -> None:
    ref = _reinforcing(0)
    ref.tick(10_000.0)
    assert ref.status().time_left is None and ref.game.current == 0


def test_a_defender_still_choosing_rolls_the_most_dice_then_the_turn_passes() -> None:
    game = position("classic", players=2, owners={"alaska": 0}, armies={"alaska": 5, "kamchatka": 4},
                    turn_time_limit_s=30)
    ref = Referee(game, FixedDice(1, 6), defend_timeout_s=100.0)
    ref.handle(Tap(tid("alaska")), 1.0)
    ref.handle(Tap(tid("kamchatka")), 1.1)
    ref.handle(Press(Button.ROLL), 1.2)
    assert ref.game.phase is Phase.DEFEND
    ref.tick(30.0)
    kinds = [type(a) for a in ref.game.log[-3:]]
    assert ref.game.log[-3] == Defend(2) and kinds[1:] == [Roll, TimeOut] and ref.game.current == 1
