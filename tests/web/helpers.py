"""A referee with its web companion, driven by hand: the test plays the board loop (`step`)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from conquista.app.host_setup import HostSetUp
from conquista.app.routing import EffectRouter
from conquista.dice.sources import SeededDice
from conquista.journal import GameJournal
from conquista.rules.actions import Action
from conquista.rules.missions import mission_text
from conquista.table.effects import ActionApplied, Effect
from conquista.table.gestures import Button, Chord, Press
from conquista.table.inputs import Tick
from conquista.table.referee import Referee
from conquista.web.companion import ClaimAnswer, Companion
from conquista.web.seats import SeatBook
from tests.rules.helpers import dealt


@dataclass
class Board:
    referee: Referee
    companion: Companion
    now: float = 0.0
    sent: list[Any] = field(default_factory=list)
    tokens: dict[int, str] = field(default_factory=dict)   # each seated connection's token
    # The shell's router, as the board loop has it: the companion's commands are routed through it.
    router: EffectRouter = field(default_factory=EffectRouter)
    applied: list[Action] = field(default_factory=list)     # the actions routed, as a journal sees them

    def __post_init__(self) -> None:
        self.router.add_phones(self.companion)
        self.router.listeners.append(self._note)

    def _note(self, _referee: Referee, effects: list[Effect]) -> None:
        self.applied.extend(e.action for e in effects if isinstance(e, ActionApplied))

    def journal_to(self, journal: GameJournal) -> None:
        """Journal the board's game, as the composition root does: the journal follows the referee's game and is
        the router's first stop."""
        journal.attach(self.referee)
        self.router.journal = journal

    def applied_from_now(self) -> list[Action]:
        """The actions applied from now on (the list grows as they are routed)."""
        self.router.route(self.referee, self.now)
        self.applied.clear()
        return self.applied

    def step(self, seconds: float = 0.05) -> None:
        self.now += seconds
        self.referee.step(Tick(), self.now)
        self.router.route(self.referee, self.now)
        self.companion.step(self.referee, self.now)

    def step_when_queued(self, timeout: float = 5.0) -> None:
        """Step once a phone's command has reached the inbox (the server takes it on its own thread)."""
        deadline = time.monotonic() + timeout
        while self.companion.inbox.empty() and time.monotonic() < deadline:
            time.sleep(0.002)
        assert not self.companion.inbox.empty(), "no command reached the board"
        self.step()

    def step_until_answered(self, connection: int, timeout: float = 20.0) -> Any:
        """Step the board until the phone `connection`'s last ask is answered (the hard bot searches in a thread of
        its own, app/hint_worker.py, and may answer within the step that asked); returns that answer (a
        `HintAnswer` that is not "thinking")."""
        from conquista.table.hint_asks import HintState
        from conquista.web.wire import HintAnswer

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.step()
            answers = [item for item in self.sent if isinstance(item, HintAnswer) and item.connection == connection]
            asked = max((i for i, a in enumerate(answers) if a.state is HintState.THINKING), default=-1)
            done = [a for a in answers[asked + 1:] if a.state is not HintState.THINKING]
            if done:
                return done[-1]
            time.sleep(0.005)
        raise AssertionError(f"no hint reached phone {connection}")

    def step_until_answered_on(self, ws: Any, timeout: float = 20.0) -> dict[str, Any]:
        """Step the board until a "hint" frame reaches the websocket `ws` (the search's thread posts the answer,
        the board's next step hands it to the referee and the server sends it); returns that frame."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.step()
            if not self.referee.hint_asks.thinking:   # the answer was handed to the referee and sent
                frame: dict[str, Any] = ws.receive_json()
                while frame["type"] != "hint":
                    frame = ws.receive_json()
                return frame
            time.sleep(0.005)
        raise AssertionError("no hint reached the phone")

    def press_roll(self) -> None:
        self.now += 0.1
        self.referee.handle(Press(Button.ROLL), self.now)
        self.step()

    def grant(self) -> None:
        """ROLL and NEXT pressed together at the board: the waiting claim is granted."""
        self.now += 0.1
        self.referee.step(Chord(), self.now)
        self.step()
        for answer in self.answers():
            if answer.grant is not None:
                self.tokens[answer.connection] = answer.grant.token

    def answers(self) -> list[ClaimAnswer]:
        return [item for item in self.sent if isinstance(item, ClaimAnswer)]

    def missions(self) -> list[str]:
        game = self.referee.game
        return [mission_text(m, game.rules.colours) for m in game.missions]


def make_board(players: int = 3, bots: frozenset[int] = frozenset(), first_seat_hosts: bool = False,
               record: bool = True) -> Board:
    game = dealt("italian", players, seed=3)
    referee = Referee(game, SeededDice(1))
    companion = Companion(SeatBook(players, bots, first_seat_hosts=first_seat_hosts))
    board = Board(referee, companion)
    if record:
        companion.send = board.sent.append
    return board


def host_set_up(board: Board, journal: GameJournal | None = None, bots_allowed: bool = True) -> HostSetUp:
    """The composition root's set-up for the host's phone, dealing from a seeded generator."""
    import random

    def plain() -> tuple[random.Random, SeededDice, int]:
        rng = random.Random(4)
        return rng, SeededDice(rng=rng), 4

    return HostSetUp(journal, board.referee.game.map, plain=plain, bots_allowed=bots_allowed)


def seat_host(board: Board, seat: int = 2, connection: int = 1) -> None:
    """A phone asks for `seat`, ROLL grants it: the first seat granted hosts (the board was made with
    first_seat_hosts)."""

    seat_phone(board, seat, connection)
    assert board.companion.host_seat == seat


def seat_phone(board: Board, seat: int, connection: int = 1) -> str:
    """A phone asks for `seat` and the board grants it (ROLL and NEXT together); returns its token."""
    from conquista.web.companion import ClaimSeat

    board.companion.submit(ClaimSeat(connection, seat))
    board.step()
    board.grant()
    return board.tokens[connection]
