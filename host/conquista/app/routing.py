"""The one router of the referee's effects (table/effects.py): what the referee gives out reaches the rest of the
app in one order, from one place.

1. the journal: an applied action is on disk (or the journal's fault raised) before anything shows it; the
   journal's fault, when it changed, goes back to the referee as its input `Fault(STORAGE, why)`;
2. the shell's decisions: a question's answer the table leaves to the app (resume the saved game?), the game
   chosen at the set-up menu, a new game asked for after the end, a seat handed to a bot;
3. the phones (every web companion: claims' news, a game started, whose seats they follow);
4. the terminal and whatever else listens;
5. the buzzer, last: its cues follow the referee's version (and its tune goes on with time at every call).

It also brings back what the app's threads worked out for the referee: a hint searched off the board's loop
(app/hint_worker.py, the decision on `HintWanted`) is `post`ed from its thread, and handed to the referee as its
input (`HintFound`) at the start of the next `route`, on the loop; `wake` (the loop's) makes that at once.

The board's loop (app/board_loop.py), the runner's step (app/runner.py), the web companion's commands
(web/companion.py) and the simulator route after every input and before every frame, so no light or screen shows
an action the journal does not have. A decision that changes the table (a new game started) gives effects of its
own: they are routed in the same call, until none is left.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from conquista.app.hint_worker import HintWorker
from conquista.table.effects import Effect
from conquista.table.hint_asks import HintWanted
from conquista.table.inputs import Fault, HintFound
from conquista.table.referee import Referee

E = TypeVar("E")


class JournalSink(Protocol):
    """What routing needs of `conquista.journal.GameJournal` (not imported here: it opens sqlite3)."""

    def follow(self, effects: Iterable[object]) -> None: ...


class StorageFaults(Protocol):
    """Where the storage fault comes from (`GameJournal.take_fault`): the fault when it changed, else None."""

    def take_fault(self) -> Fault | None: ...


class SoundSink(Protocol):
    """The buzzer's cues (conquista.app.sounds.CuePlayer)."""

    def update(self, referee: Referee, now: float) -> None: ...


class PhoneSink(Protocol):
    """A web companion (conquista.web.companion.Companion): it routes through this router after each phone command
    (`route_effects`), and takes the effects meant for the phones (`route`)."""

    route_effects: Callable[[Referee, float], None] | None

    def route(self, referee: Referee, effects: list[Effect]) -> None: ...


class EffectRouter:
    """Takes the referee's effects and sends them on: the journal first, then the shell's decisions, the phones,
    the terminal, the buzzer (the module's docstring)."""

    def __init__(self, journal: JournalSink | None = None, sounds: SoundSink | None = None) -> None:
        self.journal = journal
        self.storage: StorageFaults | None = None   # the journal's fault, told to the referee (`follow_journal`)
        self.sounds = sounds
        self.phones: list[PhoneSink] = []
        self.listeners: list[Callable[[Referee, list[Effect]], None]] = []   # the terminal and the like
        self._decisions: list[tuple[type[Any], Callable[[Referee, Any], None]]] = []
        self._routing = False
        # The app's threads' answers for the referee (a hint searched off the loop), and the loop's wake-up.
        self._posted: queue.SimpleQueue[HintFound] = queue.SimpleQueue()
        self.wake: Callable[[], None] = lambda: None
        self.hints = HintWorker(self.post)
        self.on(HintWanted, lambda referee, wanted: self.hints.think(referee, wanted))

    def on(self, kind: type[E], decide: Callable[[Referee, E], None]) -> None:
        """The shell's decision on each effect of `kind` (e.g. `SetupChosen`: deal and start the game chosen)."""
        self._decisions.append((kind, decide))

    def add_phones(self, phones: PhoneSink) -> None:
        """A web companion starts serving: it receives the phones' effects, and its commands are routed here."""
        phones.route_effects = self.route
        self.phones.append(phones)

    def post(self, found: HintFound) -> None:
        """From any thread: an answer for the referee, handed to it at the next `route` (the loop is woken)."""
        self._posted.put(found)
        self.wake()

    def route(self, referee: Referee, now: float) -> None:
        """Hand the referee what was posted, then send on every effect the referee gave out, and those the
        decisions give in turn. Cheap when there are none: it runs after every input and before every frame."""
        if self._routing:   # a decision's own effects: the call below routes them when it returns
            return
        self._routing = True
        try:
            posted = self._posted
            while not posted.empty():
                referee.step(posted.get_nowait(), now)
            effects = referee.take_effects()
            while effects:
                self._send(referee, effects)
                effects = referee.take_effects()
        finally:
            self._routing = False
        storage = self.storage
        if storage is not None:
            fault = storage.take_fault()
            if fault is not None:   # the journal could not write, or writes again: the ring says so
                referee.step(fault, now)
        if self.sounds is not None:
            self.sounds.update(referee, now)

    def _send(self, referee: Referee, effects: list[Effect]) -> None:
        if self.journal is not None:
            self.journal.follow(effects)
        if self._decisions:
            for effect in effects:
                for kind, decide in self._decisions:
                    if isinstance(effect, kind):
                        decide(referee, effect)
        for phones in self.phones:
            phones.route(referee, effects)
        for listener in self.listeners:
            listener(referee, effects)
