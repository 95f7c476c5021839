"""A simulated board served for real: the board loop runs in its own thread (the only one touching the game),
uvicorn in another, as in `conquista sim --web`. Tests ask the loop to press buttons with `do`."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

from conquista.web.companion import Companion
from conquista.web.seats import SeatBook
from conquista.web.service import WebAddress, WebService
from conquista_sim.table import SimulatedTable

T = TypeVar("T")
PASS_S = 0.02


class LiveBoard:
    def __init__(self, players: int = 3, seed: int = 5, bots: frozenset[int] = frozenset(),
                 claim_timeout_s: float = 30.0, first_seat_hosts: bool = False, rules: str = "italian") -> None:
        self.table = SimulatedTable(rules, players, seed, bots, think_time=0.05)
        self.companion = Companion(SeatBook(players, bots, first_seat_hosts=first_seat_hosts),
                                   claim_timeout_s=claim_timeout_s)
        self.table.add_phones(self.companion)
        self.service = WebService(self.companion, WebAddress("127.0.0.1", 0, explicit=True))
        self._jobs: queue.SimpleQueue[tuple[Callable[[], object], Future[object]]] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="board-loop", daemon=True)

    def start(self) -> str:
        url = self.service.start()
        self.service.wait_ready()
        self._thread.start()
        return url

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                job, done = self._jobs.get(timeout=PASS_S)
            except queue.Empty:
                self.table.advance(PASS_S)   # simulated time follows real time, as at the terminal
                continue
            try:
                done.set_result(job())
            except BaseException as exc:  # handed to the test that asked
                done.set_exception(exc)

    def do(self, job: Callable[[], T]) -> T:
        """Run `job` on the board loop (e.g. `lambda: table.press("roll")`) and return its result."""
        done: Future[object] = Future()
        self._jobs.put((job, done))
        return done.result(timeout=10)  # type: ignore[return-value]

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.service.stop()
        self.table.close()
