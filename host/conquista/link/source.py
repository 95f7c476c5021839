"""SerialSensorSource: the Pico link as the referee sees it, a source of key presses and releases with a health.

    with SerialSensorSource("socket://127.0.0.1:7000") as sensors:   # or None: find the Pico by USB id
        while True:
            event = sensors.get(timeout=0.05)
            if isinstance(event, KeyEvent): ...          # key = row * cols + col, pressed, origin, fw_ms
            elif isinstance(event, HealthEvent): ...     # FAULT: hold the game and show it on the status ring
            sensors.health, sensors.pressed, sensors.counters()

Pull (no `on_event`): events are queued per instance (no global queue) and come out in the order the link
accepted them. While `health` is not OK the state may still be corrected by a SNAPSHOT, so the referee should not
act on taps then. The queue is bounded (`max_queued`): a reader that stalls cannot make it grow without limit.
When it is full the oldest event is dropped (the newest say what the keys and the link are now) and counted in
`queue_dropped`. Push (`on_event`, as `conquista play` wires it into the board's inbox): every event is handed to
the callback and queued nowhere, so nothing is kept that no one reads and `queue_dropped` stays 0: it counts only
events a reader never got.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

import serial

from conquista.link import messages
from conquista.link.messages import Hello
from conquista.link.ports import LinkError, find_pico_port, open_port
from conquista.link.serial_link import SerialLink
from conquista.link.session import Health, HealthEvent, KeyEvent, LinkCounters, LinkEvent, LinkSession

MAX_QUEUED = 4096   # events; a player taps a few per second, so only a stalled reader ever fills this

__all__ = ["Health", "HealthEvent", "KeyEvent", "LinkCounters", "LinkError", "LinkEvent", "SerialSensorSource"]


class SerialSensorSource:
    def __init__(
        self,
        url: str | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        silence_timeout: float = 0.5,
        resync_interval: float = 0.03,
        opener: Callable[[str], serial.SerialBase] = open_port,
        finder: Callable[[], str] = find_pico_port,
        on_event: Callable[[LinkEvent], None] | None = None,
        max_queued: int = MAX_QUEUED,
    ) -> None:
        """url: a device path, socket://HOST:PORT or loop://; None finds the Pico by its USB id at each (re)open.

        on_event, if given, is called on the link's threads for every event (keep it short), and the events are
        not queued (get()/drain() then find none); without it they are queued for get()/drain(), at most
        max_queued of them (then the oldest are dropped and counted).
        """
        if max_queued < 1:
            raise ValueError(f"max_queued must be at least 1, not {max_queued}")
        self._clock = clock
        self._queue: queue.Queue[LinkEvent] = queue.Queue(maxsize=max_queued)
        self._dropped = 0
        self._on_event = on_event
        self._ready = threading.Event()
        self.session = LinkSession(url or "the Pico", silence_timeout=silence_timeout, resync_interval=resync_interval)
        self._link = SerialLink(url, self.session, self._events, clock=clock, opener=opener, finder=finder)

    # -- lifecycle -----------------------------------------------------------------------------------------
    def start(self, wait_ready: float | None = 3.0) -> None:
        """Open the port and, unless wait_ready is None, wait that long for the firmware to answer.

        Raises LinkError naming the port when it cannot be found or opened, or when nothing answered there.
        """
        self._link.start()
        if wait_ready is not None and not self._ready.wait(wait_ready):
            port = self._link.port
            self.close()
            raise LinkError(
                f"{port} opened but no conquista firmware answered within {wait_ready:g} s: is it the Pico's "
                "port, and is the firmware deployed (`conquista firmware deploy`)?"
            )

    def close(self) -> None:
        self._link.close()

    def __enter__(self) -> SerialSensorSource:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- events --------------------------------------------------------------------------------------------
    def get(self, timeout: float | None = None) -> LinkEvent | None:
        """The next event, waiting up to timeout seconds (None: forever); None when none came."""
        try:
            return self._queue.get(timeout=timeout) if timeout != 0 else self._queue.get_nowait()
        except queue.Empty:
            return None

    def drain(self) -> list[LinkEvent]:
        out: list[LinkEvent] = []
        while True:
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                return out

    # -- state ---------------------------------------------------------------------------------------------
    @property
    def health(self) -> Health:
        return self._link.health()

    @property
    def ok(self) -> bool:
        return self.health is Health.OK

    @property
    def pressed(self) -> frozenset[int]:
        return self._link.pressed()

    @property
    def firmware(self) -> Hello | None:
        """What the firmware said in HELLO: version, matrix rows and cols, debounce, scan period."""
        return self._link.hello()

    @property
    def port(self) -> str | None:
        return self._link.port

    def counters(self) -> LinkCounters:
        return replace(self._link.counters(), queue_dropped=self._dropped)

    # -- commands ------------------------------------------------------------------------------------------
    def set_debounce(self, ms: int) -> None:
        self._link.send_numbered(lambda seq: [messages.config(seq, ms)])

    def show_leds(self, colors: Sequence[tuple[int, int, int]]) -> bool:
        """Send one LED frame (already current-limited) for the Pico to latch; False if the link is down."""
        return self._link.send_numbered(lambda first: messages.led_frames(first, colors))

    def _events(self, events: list[LinkEvent]) -> None:
        for event in events:
            if isinstance(event, HealthEvent) and event.health is Health.OK:
                self._ready.set()
            if self._on_event is not None:
                self._on_event(event)   # push: delivered, so not queued (a queue nothing drains only drops)
            else:
                self._enqueue(event)

    def _enqueue(self, event: LinkEvent) -> None:
        # The link delivers under its lock, so producers never race here: after one get_nowait there is room
        # (a consumer taking events meanwhile only makes more).
        try:
            self._queue.put_nowait(event)
            return
        except queue.Full:
            pass
        try:
            self._queue.get_nowait()
        except queue.Empty:
            pass
        self._dropped += 1
        self._queue.put_nowait(event)
