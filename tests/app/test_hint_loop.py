"""A hint is searched off the board's loop (issue 31 §3): while the hard bot thinks, the loop keeps taking taps and
sending frames; an answer for a game that moved on is dropped and the phone told to ask again; one search at a time
per seat. The search is held on a latch, so nothing here depends on how fast it runs."""

from __future__ import annotations

import threading
import time

from conquista.app.board_loop import BoardLoop
from conquista.app.hint_worker import hard_search
from conquista.rules.engine import Game
from conquista.table.hint_asks import BUSY_WORDS, STALE_WORDS, Hint, HintState
from conquista.web.companion import Companion, HintAnswer, SeatHint
from conquista.web.seats import SeatBook
from conquista_sim.devices import FakeClock, MemoryStrip
from tests.app.test_board_loop import loop_for, tap

WAIT_S = 30.0   # a bound for a thread to reach its latch: never reached when all is well


class Latched:
    """The hard bot's search, held until `release` is set; `started` says it is running."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.threads: list[str] = []

    def __call__(self, view: Game, seat: int) -> Hint:
        self.threads.append(threading.current_thread().name)
        self.started.set()
        assert self.release.wait(WAIT_S), "the test never released the search"
        return hard_search(view, seat)


def phones_on(loop: BoardLoop) -> tuple[Companion, list[object]]:
    sent: list[object] = []
    companion = Companion(SeatBook(3))
    companion.send = sent.append
    companion.wake = loop.inbox.wake
    loop.runner.router.add_phones(companion)
    loop.on_step = companion.step
    return companion, sent


def answers(sent: list[object], connection: int) -> list[HintAnswer]:
    return [item for item in sent if isinstance(item, HintAnswer) and item.connection == connection]


def until_answered(loop: BoardLoop, sent: list[object], connection: int) -> HintAnswer:
    """Run the loop's passes until the phone's ask is answered (the search's thread wakes the loop)."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        loop.pass_once()
        done = [a for a in answers(sent, connection) if a.state is not HintState.THINKING]
        if done:
            return done[-1]
    raise AssertionError("the hint never came back to the loop")


def slow_loop() -> tuple[BoardLoop, MemoryStrip, FakeClock, Latched, Companion, list[object]]:
    loop, strip, clock = loop_for()
    search = Latched()
    loop.runner.router.hints.search = search
    companion, sent = phones_on(loop)
    loop.pass_once()
    return loop, strip, clock, search, companion, sent


def test_the_loop_takes_taps_and_sends_frames_while_hard_thinks_and_the_stale_answer_is_dropped() -> None:
    loop, strip, clock, search, companion, sent = slow_loop()
    referee = loop.runner.referee
    game = referee.game
    seat = game.current
    companion.submit(SeatHint(seat, 5))
    loop.pass_once()
    assert [a.state for a in answers(sent, 5)] == [HintState.THINKING]
    assert search.started.wait(WAIT_S)
    assert search.threads and search.threads[0] != threading.current_thread().name   # not the loop's thread

    companion.submit(SeatHint(seat, 6))                       # another phone of the seat, while hard thinks
    loop.pass_once()
    busy = answers(sent, 6)
    assert [(a.state, a.text) for a in busy] == [(HintState.REFUSED, BUSY_WORDS)]

    frames, moves = strip.shown, len(game.log)
    mine = game.owner.index(seat)
    tap(loop, clock, mine)                                    # the search is still held: the board plays on
    loop.pass_once()
    assert len(game.log) == moves + 1 and game.armies[mine] == 2
    assert strip.shown > frames and not search.release.is_set()

    search.release.set()
    stale = until_answered(loop, sent, 5)
    assert stale.state is HintState.STALE and stale.text == STALE_WORDS and not stale.territories
    assert referee.hints_asked == {}                          # a dropped answer is not counted
    assert not [e for e in referee.effects if e.kind == "hint"]

    seat = game.to_move                                       # the game as it is now: asked again, answered
    assert isinstance(seat, int)
    companion.submit(SeatHint(seat, 7))
    loop.pass_once()
    given = until_answered(loop, sent, 7)
    assert given.given and given.text.startswith("hard would ") and given.territories
    assert referee.hints_asked == {seat: 1}


def test_an_answer_after_the_host_turned_hints_off_is_dropped() -> None:
    from conquista.table.inputs import SetHints

    loop, _strip, clock, search, companion, sent = slow_loop()
    referee = loop.runner.referee
    seat = referee.game.current
    companion.submit(SeatHint(seat, 5))
    loop.pass_once()
    assert search.started.wait(WAIT_S)
    referee.step(SetHints(False, False), clock.now())         # as the host's phone does, through the companion
    referee.step(SetHints(True, False), clock.now())          # ... and on again: the search was for before
    search.release.set()
    answer = until_answered(loop, sent, 5)
    assert answer.state is HintState.STALE and referee.hints_asked == {}


def test_a_search_that_fails_tells_the_phone_and_frees_the_seat() -> None:
    loop, _strip, _clock = loop_for()

    def broken(view: Game, seat: int) -> Hint:
        raise RuntimeError("a bug in the search")

    loop.runner.router.hints.search = broken
    companion, sent = phones_on(loop)
    seat = loop.runner.referee.game.current
    companion.submit(SeatHint(seat, 5))
    loop.pass_once()
    failed = until_answered(loop, sent, 5)
    assert failed.state is HintState.STALE and "ask again" in failed.text
    assert loop.runner.referee.hint_asks.thinking == ()      # the seat may ask again
