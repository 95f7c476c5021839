"""Random interleavings of the table's inputs — board gestures, phone commands, seat claims and their refusals,
faults from each source, time passing — over seeded games (hypothesis): no applied action is ever missing from the
journal, no gesture acts in two modes (the chord only grants claims, nothing else grants them), no private view goes
to a connection that does not hold its seat, and the table can always go on."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conquista.app.routing import EffectRouter
from conquista.bots import make_bot
from conquista.dice.sources import SeededDice
from conquista.rules.actions import Action
from conquista.table.bot_player import BotSeats
from conquista.table.effects import ActionApplied, ActionUndone
from conquista.table.gestures import Button, Chord, Gesture, Hold, Press, Tap, Turn
from conquista.table.inputs import Fault, FaultSource, Tick
from conquista.table.referee import Referee
from conquista.table.seat_claims import ClaimState
from conquista.web.companion import ClaimSeat, Companion, RefuseClaim, SeatGesture
from conquista.web.seats import SeatBook
from conquista.web.server import Connection, Hub
from conquista.web.wire import ClaimAnswer, Snapshot
from tests.rules.helpers import dealt

PLAYERS = 3
SCREENS = 4

gestures = st.one_of(
    st.builds(Tap, st.integers(0, 41)),
    st.builds(Press, st.sampled_from(list(Button))),
    st.builds(Hold, st.just(Button.ROLL)),
    st.builds(Turn, st.integers(-3, 3)),
    st.just(Chord()),
)
inputs = st.one_of(
    st.tuples(st.just("board"), gestures),
    st.tuples(st.just("phone"), st.tuples(st.integers(0, PLAYERS - 1), gestures.filter(
        lambda g: not isinstance(g, Chord)))),
    st.tuples(st.just("claim"), st.tuples(st.integers(0, SCREENS - 1), st.integers(0, PLAYERS))),
    st.tuples(st.just("refuse"), st.integers(0, PLAYERS - 1)),
    st.tuples(st.just("fault"), st.tuples(st.sampled_from(list(FaultSource)),
                                          st.sampled_from([None, "down"]))),
    st.tuples(st.just("tick"), st.floats(0.05, 40.0)),
)


class ListJournal:
    """The journal's side of the router: the actions it holds, written in the order the effects come."""

    def __init__(self, rows: list[Action]) -> None:
        self.rows = rows

    def follow(self, effects: Iterable[object]) -> None:
        for effect in effects:
            if isinstance(effect, ActionApplied):
                if effect.seq < len(self.rows):   # already written when the journal started following
                    assert self.rows[effect.seq] == effect.action
                else:
                    assert effect.seq == len(self.rows), "an action journalled out of order"
                    self.rows.append(effect.action)
            elif isinstance(effect, ActionUndone):
                assert self.rows[-1] == effect.action and effect.seq == len(self.rows) - 1
                self.rows.pop()


class Screens:
    """The server's hub with connections that only collect what would be sent (no sockets)."""

    def __init__(self, companion: Companion, referee: Referee, journal: ListJournal) -> None:
        self.referee = referee
        self.journal = journal
        self.hub = Hub(companion)
        self.tokens: dict[int, str] = {}
        for screen in range(SCREENS):
            self.hub.connections[screen] = Connection(screen, None)  # type: ignore[arg-type]
        self.companion = companion
        self.news: list[ClaimAnswer] = []

    def deliver(self, item: Any) -> None:
        if isinstance(item, ClaimAnswer):
            self.news.append(item)
            if item.grant is not None:
                self.tokens[item.connection] = item.grant.token
        self.hub._receive(item)
        if isinstance(item, Snapshot):
            # A view shows the game as it is: the journal has every action in it already.
            assert self.journal.rows == self.referee.game.log, "a view shows an action the journal does not have"
            for conn in self.hub.connections.values():
                if "seat" in conn.views:
                    token = self.tokens.get(conn.id, "")
                    assert self.companion.seats.seat_of(token) == conn.seat, "a private view to a stranger"
                conn.views.clear()
                conn.frames.clear()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 50), steps=st.lists(inputs, min_size=1, max_size=60))
def test_any_interleaving_keeps_the_journal_the_modes_and_the_views_straight(seed: int, steps: list[Any]) -> None:
    game = dealt("italian", PLAYERS, seed=seed)
    referee = Referee(game, SeededDice(seed))
    journal = ListJournal(list(game.log))
    router = EffectRouter(journal)   # the shell's one router, as the board loop has it
    companion = Companion(SeatBook(PLAYERS))
    router.add_phones(companion)
    screens = Screens(companion, referee, journal)
    companion.send = screens.deliver
    now = 0.0
    for kind, arg in steps:
        now += 0.1
        before = len(referee.game.log)
        granted = len([n for n in screens.news if n.state is ClaimState.GRANTED])
        match kind:
            case "board":
                referee.step(arg, now)
            case "phone":
                seat, gesture = arg
                companion.submit(SeatGesture(seat, gesture))
            case "claim":
                companion.submit(ClaimSeat(*arg))
            case "refuse":
                companion.submit(RefuseClaim(arg))
            case "fault":
                referee.step(Fault(*arg), now)
            case "tick":
                now += arg
                referee.step(Tick(), now)
        router.route(referee, now)       # after every input, before any view
        companion.step(referee, now)
        grants = len([n for n in screens.news if n.state is ClaimState.GRANTED]) - granted
        if kind == "board" and isinstance(arg, Chord):
            assert len(referee.game.log) == before, "the chord acted in the game"
        else:
            assert grants == 0, f"{kind} {arg!r} granted a seat"
        assert journal.rows == referee.game.log, "an applied action is missing from the journal"
    # The table can always go on: the faults end, a question is answered, and bots play on.
    for source in FaultSource:
        referee.step(Fault(source, None), now)
    if referee.prompt:
        referee.handle(Press(Button.CANCEL), now)
    bots = BotSeats(lambda kind: make_bot(kind, random.Random(seed)), dict.fromkeys(range(PLAYERS), "greedy"),
                    think_s=0.0)
    before = len(referee.game.log)
    for _ in range(40):
        if referee.game.over:
            break
        now += 0.1
        gesture: Gesture | None = bots.next_gesture(referee, now)
        if gesture is not None:
            referee.handle(gesture, now)
            router.route(referee, now)
            bots.rested(now)
    assert referee.game.over or len(referee.game.log) > before
    assert journal.rows == referee.game.log
