"""A referee with its web companion, driven by hand: the test plays the board loop (`step`)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from conquista.dice.sources import SeededDice
from conquista.rules.missions import mission_text
from conquista.table.gestures import Button, Press
from conquista.table.referee import Referee
from conquista.web.companion import ClaimAnswer, Companion, Snapshot
from conquista.web.seats import SeatBook
from tests.rules.helpers import dealt


@dataclass
class Board:
    referee: Referee
    companion: Companion
    now: float = 0.0
    sent: list[ClaimAnswer | Snapshot] = field(default_factory=list)

    def step(self, seconds: float = 0.05) -> None:
        self.now += seconds
        self.referee.tick(self.now)
        self.companion.step(self.referee, self.now)

    def step_when_queued(self, timeout: float = 5.0) -> None:
        """Step once a phone's command has reached the inbox (the server takes it on its own thread)."""
        deadline = time.monotonic() + timeout
        while self.companion.inbox.empty() and time.monotonic() < deadline:
            time.sleep(0.002)
        assert not self.companion.inbox.empty(), "no command reached the board"
        self.step()

    def press_roll(self) -> None:
        self.now += 0.1
        self.referee.handle(Press(Button.ROLL), self.now)
        self.step()

    def answers(self) -> list[ClaimAnswer]:
        return [item for item in self.sent if isinstance(item, ClaimAnswer)]

    def missions(self) -> list[str]:
        game = self.referee.game
        return [mission_text(m, game.rules.colours) for m in game.missions]


def make_board(players: int = 3, bots: frozenset[int] = frozenset(), first_seat_hosts: bool = False,
               record: bool = True) -> Board:
    game = dealt("italian", players, seed=3)
    referee = Referee(game, SeededDice(1), random.Random(1))
    companion = Companion(SeatBook(players, bots, first_seat_hosts=first_seat_hosts))
    board = Board(referee, companion)
    if record:
        companion.send = board.sent.append
    return board
