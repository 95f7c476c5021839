"""Terminal input while the simulated board keeps running: lines are read in a thread, and while none has come
the board's loop (the only one that touches the game) lets simulated time follow real time, so a phone's claim,
its commands and the bots' moves happen without a key being pressed. While only bots are to act, simulated time runs
`speed` times faster (sim --speed): a bot thinking 5 s a gesture at --speed 1000 plays its turn in moments, while
a person's turn (its clock, a phone's claim) keeps to real time. A phone's command does not wait for the next
pass: `wake()` (the web companion's wake-up, from the server's thread) ends the wait at once and the board takes it
then, as the real board's event-driven loop does (conquista.app.board_loop)."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable

from conquista_sim.table import SimulatedTable

PASS_S = 0.05
STEP_S = 0.05          # the board's own step (SimulatedTable.advance): bots are looked at after each one
AS_FAST_S = 600.0      # speed 0 (no pause): the simulated time a pass may take while bots play, as let_bots_play
WAKE = object()   # in the line queue: a phone's command is waiting, no line was typed


class LiveInput:
    def __init__(self, table: SimulatedTable, read: Callable[[str], str] = input,
                 redraw: Callable[[], None] | None = None, speed: float = 1.0) -> None:
        self.table = table
        self.speed = speed   # simulated seconds per real second while only bots are to act; 0: no pause
        self._read = read
        # Called when the table changed while nobody typed (a phone acted, a bot moved, a claim came): the
        # terminal follows without a key being pressed.
        self.redraw = redraw
        self._lines: queue.SimpleQueue[str | object | None] = queue.SimpleQueue()
        self._asked = threading.Event()
        threading.Thread(target=self._reader, name="conquista-terminal", daemon=True).start()

    def _reader(self) -> None:
        while True:
            self._asked.wait()
            self._asked.clear()
            try:
                line: str | None = self._read("> ")
            except (EOFError, OSError):
                line = None
            self._lines.put(line)
            if line is None:
                return

    def __call__(self, prompt: str) -> str:
        """`input()` for `run_interactive`, with the board running meanwhile."""
        self._asked.set()
        passed = time.monotonic()
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, passed + PASS_S - time.monotonic()))
            except queue.Empty:
                passed = time.monotonic()
                seen = self.table.version
                self._pass()
                if self.redraw is not None and self.table.version != seen:
                    self.redraw()
                continue
            if line is WAKE:
                # No simulated time passes: the pass every PASS_S still keeps it following real time.
                seen = self.table.version
                self.table.refresh()
                if self.redraw is not None and self.table.version != seen:
                    self.redraw()
                continue
            if line is None:
                raise EOFError
            assert isinstance(line, str)
            return line

    def _pass(self) -> None:
        """PASS_S of real time: as much simulated time, or `speed` times more while only bots are to act."""
        table = self.table
        if not self._bots_play():
            table.advance(PASS_S)
            return
        left = PASS_S * self.speed if self.speed > 0 else AS_FAST_S
        # In the board's own steps, so that the person's turn starts at real time the moment the bots are done.
        while left > 1e-9 and self._bots_play():
            step = min(STEP_S, left)
            table.advance(step)
            left -= step

    def _bots_play(self) -> bool:
        """Whether a bot is to act and nothing waits for a person: the game on, no menu, no switching off."""
        table = self.table
        referee = table.referee
        view = referee.view()
        return (not table.game.over and view.menu is None and not view.power_off
                and table.bot_seats.due(referee) != float("inf"))

    def wake(self) -> None:
        """From any thread: something for the board is waiting (a phone's command): take it now."""
        self._lines.put(WAKE)
