"""Typed messages of the link: firmware frames parsed and checked, host commands built."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from conquista.link import codec
from conquista.link.frames import Frame

# A KEY frame keeps bit 7 for up/down, so no matrix can have more keys than this.
MAX_KEYS = 128


@dataclass(frozen=True, slots=True)
class Hello:
    seq: int
    protocol: int
    firmware_version: tuple[int, int, int]
    rows: int
    cols: int
    debounce_ms: int
    scan_period_ms: int
    # The LEDs the firmware drives (config.json's led_count; 0: none); None from firmware before 0.2, which
    # did not say.
    led_count: int | None = None

    @property
    def keys(self) -> int:
        return self.rows * self.cols


@dataclass(frozen=True, slots=True)
class KeyReport:
    seq: int
    key: int
    down: bool
    fw_ms: int  # firmware milliseconds modulo 65536


@dataclass(frozen=True, slots=True)
class Snapshot:
    seq: int
    fw_ms: int
    keys: int
    down: frozenset[int]


@dataclass(frozen=True, slots=True)
class Heartbeat:
    seq: int
    fw_ms: int
    firmware_rx_errors: int


Message = Hello | KeyReport | Snapshot | Heartbeat


def parse(frame: Frame, keys: int | None) -> Message | None:
    """The message a firmware frame carries, or None when its type, length or content cannot be right.

    `keys` is the matrix size from HELLO when known: a key index past it is refused even with a good CRC, one
    more guard against a corrupted frame that happened to pass the CRC.
    """
    p = frame.payload
    limit = keys if keys is not None else MAX_KEYS
    if frame.type == codec.T_KEY:
        if len(p) != codec.KEY_LEN or (p[0] & 0x7F) >= limit:
            return None
        return KeyReport(frame.seq, p[0] & 0x7F, bool(p[0] & codec.KEY_DOWN), (p[1] << 8) | p[2])
    if frame.type == codec.T_HEARTBEAT:
        if len(p) != codec.HEARTBEAT_LEN:
            return None
        return Heartbeat(frame.seq, (p[0] << 8) | p[1], p[2])
    if frame.type == codec.T_SNAPSHOT:
        if len(p) < codec.SNAPSHOT_HEAD:
            return None
        count = p[2]
        if count > limit or len(p) != codec.SNAPSHOT_HEAD + (count + 7) // 8:
            return None
        bitmap = p[codec.SNAPSHOT_HEAD :]
        down = frozenset(k for k in range(count) if bitmap[k >> 3] & (1 << (k & 7)))
        return Snapshot(frame.seq, (p[0] << 8) | p[1], count, down)
    if frame.type == codec.T_HELLO:
        if len(p) not in (codec.HELLO_LEN, codec.HELLO_LEN_V0) or p[4] * p[5] > MAX_KEYS or p[7] == 0:
            return None
        leds = (p[8] << 8) | p[9] if len(p) == codec.HELLO_LEN else None
        return Hello(frame.seq, p[0], (p[1], p[2], p[3]), p[4], p[5], p[6], p[7], leds)
    return None


def resync_request(host_seq: int, last_key_seq: int | None) -> bytes:
    """Ask for a SNAPSHOT, preceded by the KEY events numbered after last_key_seq if the firmware still has them."""
    if last_key_seq is None:
        payload = bytes([0, 0])
    else:
        payload = bytes([last_key_seq & 0xFF, codec.RESYNC_HAVE_SEQ])
    return codec.encode_frame(codec.T_RESYNC, host_seq, payload)


def hello_request(host_seq: int) -> bytes:
    return codec.encode_frame(codec.T_HELLO_REQUEST, host_seq, b"")


def ping(host_seq: int) -> bytes:
    return codec.encode_frame(codec.T_PING, host_seq, b"")


def config(host_seq: int, debounce_ms: int) -> bytes:
    if not 1 <= debounce_ms <= 255:
        raise ValueError(f"debounce of {debounce_ms} ms is outside 1..255 ms")
    return codec.encode_frame(codec.T_CONFIG, host_seq, bytes([debounce_ms]))


def stop_request(host_seq: int) -> bytes:
    return codec.encode_frame(codec.T_STOP, host_seq, codec.STOP_MAGIC)


def led_frames(first_seq: int, colors: Sequence[tuple[int, int, int]]) -> list[bytes]:
    """An LED frame split into link frames, then LED_SHOW so the chain latches it whole."""
    out: list[bytes] = []
    seq = first_seq
    step = codec.MAX_LEDS_PER_FRAME
    for start in range(0, len(colors), step):
        chunk = colors[start : start + step]
        payload = bytearray([start >> 8, start & 0xFF])
        for r, g, b in chunk:
            payload += bytes((r & 0xFF, g & 0xFF, b & 0xFF))
        out.append(codec.encode_frame(codec.T_LED, seq, payload))
        seq = (seq + 1) & 0xFF
    out.append(codec.encode_frame(codec.T_LED_SHOW, seq, b""))
    return out
