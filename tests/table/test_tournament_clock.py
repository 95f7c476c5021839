"""The tournament clock at the table: it counts the seconds of play from the times passed in (a fake clock here),
stops for a fault, the menu and the power-off question, goes on from the journal's times after a resume, applies
`ClockOut()` when `tournament_status` says it is due, and shows on the status, the pending line and the ring."""

from __future__ import annotations

from conquista.dice.sources import SeededDice
from conquista.rules.actions import ClockOut
from conquista.rules.tournament import Stage
from conquista.table.gestures import Button, HeldDown, Press
from conquista.table.inputs import ClockSaved, Fault, FaultSource
from conquista.table.questions import QuestionKind, TableQuestion
from conquista.table.referee import Referee
from conquista.table.tournament_clock import (
    PAUSE_GAP_S,
    TOURNAMENT_SIGNAL,
    clock_text,
    played_from_times,
    to_json,
)
from tests.rules.helpers import dealt, position

MINUTE = 60.0


def tournament_referee(minutes: int = 2, history: list[float] | None = None) -> Referee:
    ref = Referee(dealt("italian", 3, tournament_ending=True, tournament_minutes=minutes), SeededDice(1))
    if history is not None:
        ref.step(ClockSaved(tuple(history)), 0.0)
    return ref


def clock_outs(ref: Referee) -> int:
    return sum(1 for a in ref.game.log if isinstance(a, ClockOut))


def test_play_time_from_the_journals_times_skips_the_long_gaps() -> None:
    assert played_from_times([]) == 0.0 and played_from_times([100.0]) == 0.0
    assert played_from_times([100.0, 130.0, 190.0]) == 90.0
    # Switched off for an hour between 190 and 3790: that gap is no play; the 20 s after it are.
    assert played_from_times([100.0, 130.0, 190.0, 3790.0, 3810.0]) == 110.0
    assert played_from_times([0.0, PAUSE_GAP_S]) == PAUSE_GAP_S and played_from_times([0.0, PAUSE_GAP_S + 1]) == 0.0
    assert played_from_times([50.0, 40.0, 45.0]) == 5.0   # a clock set back counts nothing for that gap


def test_the_clock_out_is_applied_when_the_time_of_play_is_up() -> None:
    ref = tournament_referee(minutes=2)
    ref.tick(0.0)
    ref.tick(119.0)
    assert clock_outs(ref) == 0 and ref.tournament.elapsed(ref, 119.0) == 119.0
    status = ref.status().tournament
    assert status is not None and status.stage is Stage.CLOCK and status.seconds_left == 1.0
    ref.tick(120.5)
    assert clock_outs(ref) == 1 and ref.game.clock_out_round == max(ref.game.round, 1)  # 1 in the placement
    assert any("the tournament clock runs out" in line for line in ref.log)
    assert "second-to-last" in ref.message
    ref.tick(500.0)
    assert clock_outs(ref) == 1                       # once only
    status = ref.status().tournament
    assert status is not None and status.stage is Stage.SECOND_TO_LAST and status.seconds_left is None
    assert to_json(status) is not None and to_json(status)["text"] == "tournament: the second-to-last round"


def test_a_fault_and_the_power_question_stop_the_clock() -> None:
    ref = tournament_referee(minutes=2)
    ref.tick(0.0)
    ref.tick(60.0)
    ref.step(Fault(FaultSource.LINK, "sensor link down"), ref.now)
    ref.tick(60.0)
    ref.tick(1000.0)                                  # paused for 940 s: none of it counts
    assert clock_outs(ref) == 0 and ref.tournament.elapsed(ref, 1000.0) == 60.0
    ref.step(Fault(FaultSource.LINK, None), ref.now)
    ref.tick(1000.0)
    ref.handle(HeldDown(Button.NEXT), 1030.0)         # the power-off question stops it too
    ref.tick(1030.0)
    ref.tick(5000.0)
    assert ref.tournament.elapsed(ref, 5000.0) == 90.0
    ref.handle(Press(Button.CANCEL), 5000.0)          # the board stays on
    ref.tick(5000.0)
    ref.tick(5029.0)
    assert clock_outs(ref) == 0
    ref.tick(5030.0)
    assert clock_outs(ref) == 1


def test_a_question_holds_the_clock_out_until_it_is_answered() -> None:
    ref = tournament_referee(minutes=1)
    ref.tick(0.0)
    ref.ask(TableQuestion(QuestionKind.OTHER, "a question? ROLL: yes, CANCEL: no"))
    ref.tick(70.0)
    assert clock_outs(ref) == 0                        # due, but the table is asked something
    ref.handle(Press(Button.ROLL), 71.0)
    ref.tick(71.0)
    assert clock_outs(ref) == 1


def test_a_resumed_game_goes_on_from_the_time_its_journal_shows() -> None:
    history = [0.0, 30.0, 90.0, 7290.0, 7300.0]        # 100 s of play, and two hours switched off
    ref = tournament_referee(minutes=2, history=history)
    assert ref.tournament.elapsed(ref, 0.0) == 100.0   # shown before the first tick too
    ref.tick(5.0)
    ref.tick(24.0)
    assert ref.tournament.elapsed(ref, 24.0) == 119.0 and clock_outs(ref) == 0
    ref.tick(25.0)
    assert clock_outs(ref) == 1
    # Another game on the same referee (a new one): its own history (the deal only) starts it from zero.
    history[:] = [50_000.0]
    ref.reset(dealt("italian", 3, seed=2, tournament_ending=True, tournament_minutes=2), 30.0)
    ref.tick(30.0)
    assert ref.tournament.elapsed(ref, 40.0) == 10.0


def test_without_the_tournament_ending_nothing_is_kept_or_shown() -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1))
    ref.tick(0.0)
    ref.tick(1e6)
    assert clock_outs(ref) == 0 and ref.status().tournament is None
    assert to_json(None) is None
    assert ref.scene(0.0).ring[0] != TOURNAMENT_SIGNAL


def test_the_ring_signals_the_last_rounds() -> None:
    ref = tournament_referee(minutes=1)
    ref.tick(0.0)
    assert ref.scene(0.2).ring[0] != TOURNAMENT_SIGNAL
    ref.tick(61.0)
    assert ref.scene(0.2).ring[0] == TOURNAMENT_SIGNAL and ref.scene(0.7).ring[0] == TOURNAMENT_SIGNAL  # steady
    last = position("italian", players=3, tournament_ending=True, round_=4, state={"clock_out_round": 3})
    ref.reset(last, 62.0)                           # the last round: the signal blinks
    assert ref.scene(0.2).ring[0] == TOURNAMENT_SIGNAL and ref.scene(0.7).ring[0] != TOURNAMENT_SIGNAL


def test_the_status_for_the_screens() -> None:
    ref = tournament_referee(minutes=90)
    ref.tick(0.0)
    ref.tick(3.5)
    view = to_json(ref.status().tournament)
    assert view is not None and view["stage"] == "clock" and view["clock"] == "1:29:57"
    assert view["seconds_left"] == 5396.5 and view["text"] == "tournament clock 1:29:57"
    points = view["points"]
    assert isinstance(points, list) and len(points) == 3 and all(p > 0 for p in points)
    assert clock_text(0.0) == "0:00" and clock_text(0.2) == "0:01" and clock_text(754.0) == "12:34"


def test_playing_md_says_how_long_a_gap_is_a_pause() -> None:
    from pathlib import Path

    playing = (Path(__file__).resolve().parents[2] / "docs" / "playing.md").read_text(encoding="utf-8")
    assert f"a gap of more than {PAUSE_GAP_S / 60:.0f} minutes, which was a pause" in playing.replace("\n", " ")


def test_the_screens_get_a_new_view_once_a_minute_of_play() -> None:
    ref = tournament_referee(minutes=90)
    ref.tick(0.0)
    versions = []
    for second in range(1, 181):
        ref.tick(float(second))
        versions.append(ref.version)
    assert len(set(versions)) == 4      # minutes 0 to 3: seconds 60, 120 and 180 each move it once


def test_what_was_saved_counts_only_for_the_game_it_was_saved_for() -> None:
    ref = tournament_referee(history=[0.0, 30.0, 60.0])   # told as data, for the game being refereed
    assert ref.tournament.elapsed(ref, 0.0) == 60.0
    other = dealt("italian", 3, seed=4, tournament_ending=True)
    ref.start(other, 1.0, "a new game starts")
    assert ref.tournament.elapsed(ref, 1.0) == 0.0          # a new game plays from nothing ...
    ref.step(ClockSaved((0.0, 45.0)), 1.0)                  # ... until the app says what it saved of it
    assert ref.tournament.elapsed(ref, 1.0) == 45.0
