"""The transport: a pyserial port read by serial.threaded, a supervisor that keeps it alive, the session inside.

Two threads touch the session: the ReaderThread of the current connection (bytes in) and the supervisor (timers,
reopening). One lock serialises them, and events are handed out under it so they stay in order. A reopened port
is a new connection with a new generation number; late callbacks of an old ReaderThread are ignored.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import cast

import serial
import serial.threaded

from conquista.link.messages import Hello
from conquista.link.ports import LinkError, find_pico_port, open_port
from conquista.link.session import Health, LinkCounters, LinkEvent, LinkSession


class _Protocol(serial.threaded.Protocol):
    def __init__(self, link: SerialLink, generation: int) -> None:
        self.link = link
        self.generation = generation

    def data_received(self, data: bytes) -> None:
        self.link._on_data(self.generation, data)

    def connection_lost(self, exc: BaseException | None) -> None:
        # Never re-raise (the base class does): the supervisor reopens, the reader thread just ends.
        self.link._on_lost(self.generation, exc)


class SerialLink:
    def __init__(
        self,
        url: str | None,
        session: LinkSession,
        on_events: Callable[[list[LinkEvent]], None],
        *,
        clock: Callable[[], float] = time.monotonic,
        opener: Callable[[str], serial.SerialBase] = open_port,
        finder: Callable[[], str] = find_pico_port,
        tick: float = 0.01,
        max_backoff: float = 2.0,
    ) -> None:
        self.url = url
        self.session = session
        self._on_events = on_events
        self._clock = clock
        self._opener = opener
        self._finder = finder
        self._tick = tick
        self._max_backoff = max_backoff
        self._lock = threading.RLock()
        self._write_lock = threading.Lock()
        self._serial: serial.SerialBase | None = None
        self._reader: serial.threaded.ReaderThread[_Protocol] | None = None
        self._generation = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._failures = 0
        self._next_attempt = 0.0
        self.port: str | None = None

    # -- public ------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Open the port now (a LinkError names it if that fails), then keep it open in the background."""
        if self._thread is not None:
            return
        self._connect()
        self._thread = threading.Thread(target=self._supervise, name="conquista-link", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None
        with self._lock:
            self._retire_connection()

    def send(self, frames: list[bytes]) -> bool:
        """Write frames to the port; False (and a reopen scheduled) when the port is gone."""
        if not frames:
            return True
        ser = self._serial
        if ser is None:
            return False
        try:
            with self._write_lock:
                ser.write(b"".join(frames))
        except (serial.SerialException, OSError) as exc:
            with self._lock:
                if ser is self._serial:
                    self.session.disconnected(f"cannot write to {self.port}: {exc}", self._clock())
                    self._deliver()
            return False
        return True

    # -- the session, read and numbered under the lock its threads change it under ---------------------------
    def health(self) -> Health:
        with self._lock:
            return self.session.health

    def pressed(self) -> frozenset[int]:
        with self._lock:
            return self.session.pressed

    def hello(self) -> Hello | None:
        with self._lock:
            return self.session.hello

    def counters(self) -> LinkCounters:
        with self._lock:
            return self.session.counters()

    def send_numbered(self, build: Callable[[int], list[bytes]]) -> bool:
        """Send the frames `build` makes from the first of the host's next sequence numbers, one number for each
        frame: numbered under the lock, so the supervisor's own frames (resyncs) never take one of them."""
        with self._lock:
            session = self.session
            frames = build(session.next_host_seq())
            for _ in range(len(frames) - 1):
                session.next_host_seq()
        return self.send(frames)

    # -- connection management ---------------------------------------------------------------------------
    def _resolve(self) -> str:
        # Auto-detection runs again on every reopen: a replugged Pico may come back as another ttyACM.
        return self.url if self.url is not None else self._finder()

    def _connect(self) -> None:
        port = self._resolve()
        ser = self._opener(port)
        with self._lock:
            self._generation += 1
            generation = self._generation
            self.port = port
            self.session.port_name = port
            self._serial = ser
            # ReaderThread is typed for Serial but uses only the SerialBase API, which URL handlers implement.
            reader = serial.threaded.ReaderThread(cast(serial.Serial, ser), lambda: _Protocol(self, generation))
            reader.name = f"conquista-link-reader-{generation}"
            self._reader = reader
            out = self.session.connected(self._clock())
            self._deliver()
        reader.start()
        self.send(out)

    def _retire_connection(self) -> None:
        reader, self._reader = self._reader, None
        self._serial = None
        self._generation += 1
        if reader is not None:
            # ReaderThread.close() joins the reader (up to a second on socket://) and pyserial's socket close
            # sleeps 0.3 s: done aside, so the supervisor opens the new connection at once.
            threading.Thread(target=self._close_quietly, args=(reader,), daemon=True).start()

    @staticmethod
    def _close_quietly(reader: serial.threaded.ReaderThread[_Protocol]) -> None:
        try:
            reader.close()
        except (serial.SerialException, OSError):
            pass

    def _supervise(self) -> None:
        while not self._stop.wait(self._tick):
            now = self._clock()
            with self._lock:
                out = self.session.poll(now)
                reopen = self.session.needs_reopen
                self._deliver()
            if reopen:
                if now >= self._next_attempt:
                    self._reopen(now)
                continue
            self.send(out)

    def _reopen(self, now: float) -> None:
        with self._lock:
            self._retire_connection()
        try:
            self._connect()
        except LinkError as exc:
            self._failures += 1
            # A port that does not open (unplugged) is retried at 0.1, 0.2, 0.4 ... s, at most max_backoff apart.
            self._next_attempt = now + min(0.05 * 2**self._failures, self._max_backoff)
            with self._lock:
                self.session.disconnected(str(exc), now)
                self._deliver()
            return
        self._failures = 0

    # -- reader callbacks (ReaderThread) ----------------------------------------------------------------
    def _on_data(self, generation: int, data: bytes) -> None:
        with self._lock:
            if generation != self._generation:
                return
            out = self.session.receive(data, self._clock())
            self._deliver()
        self.send(out)

    def _on_lost(self, generation: int, exc: BaseException | None) -> None:
        with self._lock:
            if generation != self._generation:
                return
            self.session.disconnected(f"{self.port} closed: {exc or 'end of stream'}", self._clock())
            self._deliver()

    def _deliver(self) -> None:
        events = self.session.take_events()
        if events:
            self._on_events(events)
