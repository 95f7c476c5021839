"""The host's side of the link protocol as a pure state machine: bytes and the time in, events and bytes out.

No port, thread or clock lives here (the transport passes `now`), so every rule below is unit-tested by stepping
time. The rules, from hardware/PROTOCOL.md:
- a frame that fails COBS, the CRC, or the type/length/range checks is dropped and counted;
- KEY numbers must follow each other; any other frame carries the number of the last KEY sent. A gap, seen on
  any frame, asks the firmware to resync: it replays the KEY events the host missed (while it still has them)
  and then sends a SNAPSHOT, which is authoritative: any key whose state still differs is corrected from it,
  so a lost release can never leave a key down;
- no valid frame for `silence_timeout` seconds is a fault: the transport reopens the port, with growing patience.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields

from conquista.link import messages
from conquista.link.frames import StreamDecoder
from conquista.link.messages import Heartbeat, Hello, KeyReport, Snapshot

# The firmware keeps this many KEY events for replay (firmware/cqfw/device.py RING).
REPLAY_RING = 32


class Health(enum.Enum):
    CONNECTING = "connecting"  # no port open yet, or never heard the firmware since start
    SYNCING = "syncing"  # frames arrive but the key state is not confirmed by a SNAPSHOT yet
    OK = "ok"
    FAULT = "fault"  # was OK, then the link went silent or the port failed: hold the game


class KeyOrigin(enum.Enum):
    LIVE = "live"  # reported as it happened
    REPLAY = "replay"  # missed, then replayed by the firmware with its original timestamp
    SNAPSHOT = "snapshot"  # inferred from a SNAPSHOT: the state is right, the moment is not known


@dataclass(frozen=True, slots=True)
class KeyEvent:
    key: int  # matrix index: row * cols + col
    pressed: bool
    origin: KeyOrigin
    fw_ms: int | None  # firmware milliseconds, unwrapped to count up from the link's first frame
    host_time: float  # host clock when the host accepted it
    seq: int | None  # the KEY frame's number (None for a SNAPSHOT correction)


@dataclass(frozen=True, slots=True)
class HealthEvent:
    health: Health
    reason: str
    host_time: float


LinkEvent = KeyEvent | HealthEvent


@dataclass(frozen=True, slots=True)
class LinkCounters:
    frames: int = 0
    crc_errors: int = 0
    malformed: int = 0
    overflows: int = 0
    rejected: int = 0  # good CRC but impossible content (unknown type, bad length, key out of range)
    duplicates: int = 0
    gaps: int = 0
    resync_requests: int = 0
    resyncs: int = 0  # SNAPSHOTs applied after a gap, a reconnect or a firmware restart
    replayed: int = 0
    corrections: int = 0
    silences: int = 0
    reconnects: int = 0
    firmware_restarts: int = 0
    firmware_rx_errors: int = 0
    bytes_in: int = 0
    queue_dropped: int = 0  # events the host's queue dropped because its reader fell behind (SerialSensorSource)

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


class LinkSession:
    def __init__(
        self,
        port_name: str = "the link",
        *,
        silence_timeout: float = 0.5,
        resync_interval: float = 0.01,
        max_replay_attempts: int = 8,
    ) -> None:
        self.port_name = port_name
        self.silence_timeout = silence_timeout
        self.resync_interval = resync_interval
        self.max_replay_attempts = max_replay_attempts
        self._decoder = StreamDecoder()
        self._events: list[LinkEvent] = []
        self._down: set[int] = set()
        self._last: int | None = None
        self._synced = False
        self._connected = False
        self._ever_ok = False
        self._health = Health.CONNECTING
        self._hello: Hello | None = None
        self._last_rx = 0.0
        self._connected_at = 0.0
        self._patience = silence_timeout
        self._last_request = float("-inf")
        self._replay_attempts = 0
        # KEY frames that arrived ahead of a missing one (a replay burst with a hole): kept, by number, until the
        # hole is filled, so each resync round fills holes instead of starting over from the first loss.
        self._ahead: dict[int, KeyReport] = {}
        self._host_seq = 0
        self._needs_reopen = False
        # True while _down is the firmware's state as of key number _last (set by a SNAPSHOT, kept by accepting
        # KEY events strictly in order); only then can a matching HEARTBEAT confirm we are in step.
        self._state_valid = False
        self._fw_base: int | None = None
        self._fw_last16 = 0
        self._c: dict[str, int] = {f.name: 0 for f in fields(LinkCounters)}

    # -- state for the transport and the referee ---------------------------------------------------------
    @property
    def health(self) -> Health:
        return self._health

    @property
    def pressed(self) -> frozenset[int]:
        return frozenset(self._down)

    @property
    def hello(self) -> Hello | None:
        return self._hello

    @property
    def needs_reopen(self) -> bool:
        return self._needs_reopen

    @property
    def synced(self) -> bool:
        return self._synced and self._connected

    def counters(self) -> LinkCounters:
        d = dict(self._c)
        dc = self._decoder.counters
        d["frames"] = dc.frames
        d["crc_errors"] = dc.crc_errors
        d["malformed"] = dc.malformed
        d["overflows"] = dc.overflows
        return LinkCounters(**d)

    def take_events(self) -> list[LinkEvent]:
        events, self._events = self._events, []
        return events

    def next_host_seq(self) -> int:
        self._host_seq = (self._host_seq + 1) & 0xFF
        return self._host_seq

    # -- transport callbacks -------------------------------------------------------------------------------
    def connected(self, now: float) -> list[bytes]:
        """The port is (re)open: forget the half frame of the old connection and ask who is there."""
        if self._ever_ok or self._c["silences"]:
            self._c["reconnects"] += 1
        self._decoder.reset()
        self._connected = True
        self._needs_reopen = False
        self._synced = False
        self._connected_at = now
        self._last_rx = now
        self._last_request = now
        self._set_health(Health.FAULT if self._ever_ok else Health.SYNCING, f"{self.port_name} opened", now)
        out: list[bytes] = []
        # After a reconnect this asks straight for the replay of what was missed; the first time, for HELLO.
        self._request(now, out, replay=True)
        return out

    def disconnected(self, reason: str, now: float) -> None:
        self._connected = False
        self._synced = False
        self._needs_reopen = True
        self._set_health(Health.FAULT if self._ever_ok else Health.CONNECTING, reason, now)

    def receive(self, data: bytes, now: float) -> list[bytes]:
        """Bytes from the port; returns what to send back (resync requests)."""
        self._c["bytes_in"] += len(data)
        out: list[bytes] = []
        keys = self._hello.keys if self._hello is not None else None
        for frame in self._decoder.feed(data):
            msg = messages.parse(frame, keys)
            if msg is None:
                self._c["rejected"] += 1
                continue
            self._last_rx = now
            self._patience = self.silence_timeout
            if isinstance(msg, KeyReport):
                self._on_key(msg, now, out)
            elif isinstance(msg, Heartbeat):
                self._c["firmware_rx_errors"] = msg.firmware_rx_errors
                self._track_fw_ms(msg.fw_ms)
                if self._last is not None and msg.seq != self._last:
                    self._gap(now, out)
                elif not self._synced and self._last is not None and self._state_valid:
                    # Every KEY up to the firmware's latest is in, in order, on top of a confirmed state: in step.
                    self._in_step(now)
                elif not self._synced:
                    self._maybe_request(now, out)
            elif isinstance(msg, Snapshot):
                self._on_snapshot(msg, now, out)
            else:
                self._on_hello(msg, now)
            keys = self._hello.keys if self._hello is not None else None
        return out

    def poll(self, now: float) -> list[bytes]:
        """Timers: the silence watchdog and the resync retry. Call it every few tens of ms."""
        out: list[bytes] = []
        if not self._connected:
            return out
        if now - self._last_rx > self._patience:
            self._c["silences"] += 1
            self._needs_reopen = True
            self._synced = False
            # Each silent reopen waits twice as long before the next, up to 4 s: a board that is switched off
            # is not hammered, while a link that comes back is still caught at once by the resync requests.
            self._patience = min(self._patience * 2, 4.0)
            self._set_health(
                Health.FAULT if self._ever_ok else Health.CONNECTING,
                f"no frame from {self.port_name} for {now - self._last_rx:.1f} s",
                now,
            )
            return out
        if not self._synced:
            self._maybe_request(now, out)
        return out

    # -- rules ---------------------------------------------------------------------------------------------
    def _on_key(self, msg: KeyReport, now: float, out: list[bytes]) -> None:
        if self._last is None:
            # Numbers are meaningless until a SNAPSHOT (after HELLO) fixes our starting point.
            self._maybe_request(now, out)
            return
        dist = (msg.seq - self._last) & 0xFF
        if dist == 0 or dist >= 128:
            self._c["duplicates"] += 1
            return
        if dist > 1:
            if dist <= REPLAY_RING:
                self._ahead[msg.seq] = msg
            self._gap(now, out)
            return
        self._accept(msg, now, out)
        while self._last is not None and (nxt := self._ahead.pop((self._last + 1) & 0xFF, None)) is not None:
            self._accept(nxt, now, out)

    def _accept(self, msg: KeyReport, now: float, out: list[bytes]) -> None:
        assert self._last is not None
        if msg.down == (msg.key in self._down):
            # A press of a key already down (or the reverse) cannot follow in sequence: our state is wrong.
            self._last = msg.seq
            self._c["gaps"] += 1
            self._synced = False
            self._state_valid = False
            self._ahead.clear()
            self._request(now, out, replay=False)
            return
        self._last = msg.seq
        # Progress: a replay that got this far is worth asking to continue, however many rounds it takes.
        self._replay_attempts = 0
        if msg.down:
            self._down.add(msg.key)
        else:
            self._down.discard(msg.key)
        origin = KeyOrigin.LIVE if self._synced else KeyOrigin.REPLAY
        if origin is KeyOrigin.REPLAY:
            self._c["replayed"] += 1
        fw_ms = self._track_fw_ms(msg.fw_ms)
        self._events.append(KeyEvent(msg.key, msg.down, origin, fw_ms, now, msg.seq))

    def _on_snapshot(self, msg: Snapshot, now: float, out: list[bytes]) -> None:
        self._track_fw_ms(msg.fw_ms)
        if self._state_valid and self._last is not None and msg.seq != self._last:
            missing = (msg.seq - self._last) & 0xFF
            if missing <= REPLAY_RING and self._replay_attempts < self.max_replay_attempts:
                # Some KEY events are still missing but the firmware can replay them: ask again rather than
                # collapse a whole tap into nothing.
                self._replay_attempts += 1
                self._c["gaps"] += 1
                self._synced = False
                self._request(now, out, replay=True)
                return
        releases = sorted(self._down - msg.down)
        presses = sorted(msg.down - self._down)
        for key in releases:
            self._down.discard(key)
            self._events.append(KeyEvent(key, False, KeyOrigin.SNAPSHOT, None, now, None))
        for key in presses:
            self._down.add(key)
            self._events.append(KeyEvent(key, True, KeyOrigin.SNAPSHOT, None, now, None))
        self._c["corrections"] += len(releases) + len(presses)
        self._last = msg.seq
        self._state_valid = True
        self._in_step(now)

    def _in_step(self, now: float) -> None:
        if not self._synced:
            self._c["resyncs"] += 1
        self._synced = True
        self._replay_attempts = 0
        self._ahead.clear()
        self._ever_ok = True
        self._set_health(Health.OK, f"{self.port_name} in step", now)

    def _on_hello(self, msg: Hello, now: float) -> None:
        previous = self._hello
        self._hello = msg
        if previous is not None and msg.seq != self._last:
            # Numbers restarted: the firmware rebooted (watchdog, power). Nothing before it can be replayed.
            self._c["firmware_restarts"] += 1
            self._forget_numbers()
        elif previous is None and self._last is not None and msg.seq != self._last:
            self._forget_numbers()

    def _forget_numbers(self) -> None:
        self._last = None
        self._fw_base = None
        self._synced = False
        self._state_valid = False
        self._ahead.clear()

    def _gap(self, now: float, out: list[bytes]) -> None:
        self._c["gaps"] += 1
        if self._synced:
            self._synced = False
            self._last_request = float("-inf")
        self._maybe_request(now, out)

    def _maybe_request(self, now: float, out: list[bytes]) -> None:
        if now - self._last_request >= self.resync_interval:
            self._request(now, out, replay=True)

    def _request(self, now: float, out: list[bytes], *, replay: bool) -> None:
        self._last_request = now
        self._c["resync_requests"] += 1
        # Sent twice: a duplicate only earns a duplicate answer (ignored), while a lone request lost to noise
        # costs a whole retry interval.
        for _ in range(2):
            if self._hello is None:
                out.append(messages.hello_request(self.next_host_seq()))
            else:
                out.append(messages.resync_request(self.next_host_seq(), self._last if replay else None))

    def _track_fw_ms(self, ms16: int) -> int:
        # Firmware time is sent modulo 65536; frames come at least every 100 ms, so the step from the last one
        # is unambiguous and the host rebuilds a counter that never wraps.
        if self._fw_base is None:
            self._fw_base = ms16
        else:
            step = (ms16 - self._fw_last16) & 0xFFFF
            if step >= 0x8000:
                step -= 0x10000  # a replayed event, older than the last frame
            self._fw_base += step
        self._fw_last16 = ms16
        return self._fw_base

    def _set_health(self, health: Health, reason: str, now: float) -> None:
        if health is not self._health:
            self._health = health
            self._events.append(HealthEvent(health, reason, now))
