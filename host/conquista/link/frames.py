"""Host-side stream decoding: bytes from the port in, checked frames out, every dropped frame counted.

The per-frame work (COBS, CRC) is the shared codec's; only the split on the 0x00 delimiter is host-specific,
done with bytes.split so a burst of frames costs one C-level pass instead of a Python call per byte.
"""

from __future__ import annotations

from dataclasses import dataclass

from conquista.link import codec


@dataclass(frozen=True, slots=True)
class Frame:
    type: int
    seq: int
    payload: bytes


@dataclass(slots=True)
class DecodeCounters:
    frames: int = 0  # frames that passed the CRC
    crc_errors: int = 0
    malformed: int = 0  # bad COBS or too short to be a frame
    overflows: int = 0  # runs longer than any frame: noise or a stream that is not ours


class StreamDecoder:
    """Feed it whatever the port returns, split anywhere; it returns the valid frames completed so far."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self._discarding = False
        self._scratch = bytearray(codec.MAX_RAW)
        self.counters = DecodeCounters()

    def reset(self) -> None:
        """Forget a partial frame (after reopening the port, its first half belongs to a dead connection)."""
        self._pending.clear()
        self._discarding = False

    def _overflow(self) -> None:
        # No frame is this long: drop the run now rather than buffer noise forever, skip to the next delimiter.
        self._pending.clear()
        self._discarding = True
        self.counters.overflows += 1

    def feed(self, data: bytes | bytearray) -> list[Frame]:
        if 0 not in data:
            if not self._discarding:
                self._pending += data
                if len(self._pending) > codec.MAX_WIRE:
                    self._overflow()
            return []
        chunks = bytes(data).split(b"\x00")
        if self._discarding:
            chunks[0] = b""
            self._discarding = False
        elif self._pending:
            chunks[0] = bytes(self._pending) + chunks[0]
        tail = chunks.pop()
        self._pending = bytearray(tail)
        if len(tail) > codec.MAX_WIRE:
            self._overflow()
        out: list[Frame] = []
        scratch = self._scratch
        counters = self.counters
        for chunk in chunks:
            if not chunk:
                continue
            if len(chunk) > codec.MAX_WIRE:
                counters.overflows += 1
                continue
            n = codec.decode_frame(chunk, 0, len(chunk), scratch)
            if n >= 2:
                counters.frames += 1
                out.append(Frame(scratch[0], scratch[1], bytes(scratch[2:n])))
            elif n == codec.ERR_CRC:
                counters.crc_errors += 1
            else:
                counters.malformed += 1
        return out
