"""The wire codec of the Pico link, written once for CPython (host) and MicroPython (firmware).

This file is the single source: the host imports it as `conquista.link.codec`, and `conquista firmware deploy`
copies it to the Pico as `/lib/conquista/link/codec.py` (with empty package `__init__` files), so the firmware
imports it under the very same name. It therefore uses only what both runtimes share: no `__future__`, no
`typing`, no f-strings in hot paths, and the encode/decode paths write into caller-owned buffers so the
firmware's scan loop allocates nothing. Annotations name builtin types only, because MicroPython ignores them
but CPython evaluates them when the function is defined.

A frame before framing is  type:u8 | seq:u8 | payload | crc:u16 (big-endian, CRC-16/CCITT-FALSE over
type, seq and payload). On the wire it is COBS-encoded, so it contains no 0x00, and followed by one 0x00.
hardware/PROTOCOL.md documents the frame types and the sequence rules.
"""

PROTOCOL_VERSION = 1

# Firmware -> host.
T_HELLO = 0x01
T_KEY = 0x02
T_SNAPSHOT = 0x03
T_HEARTBEAT = 0x04
# Host -> firmware. The high bit tells the direction, so a frame looped back by a miswired port is never
# mistaken for one of the other side's.
T_RESYNC = 0x81
T_PING = 0x82
T_CONFIG = 0x83
T_LED = 0x84
T_LED_SHOW = 0x85
T_HELLO_REQUEST = 0x86
# Leave the scan loop for maintenance (conquista firmware deploy); the payload must be STOP_MAGIC.
T_STOP = 0x87
STOP_MAGIC = b"REPL"

# Payload lengths of the fixed-size frames; the firmware preallocates one output buffer per type from these.
# protocol, fw major, minor, patch, rows, cols, debounce ms, scan period ms, LED count (u16: 0 = no LED output).
# Firmware before 0.2 sent the first 8 only; the host still reads those (HELLO_LEN_V0), with the LED count unknown.
HELLO_LEN = 10
HELLO_LEN_V0 = 8
KEY_LEN = 3  # key index with bit 7 = down, ms timestamp (u16, wraps every 65.536 s)
HEARTBEAT_LEN = 3  # ms timestamp u16, frames the firmware dropped for a bad CRC (u8, wraps)
SNAPSHOT_HEAD = 3  # ms timestamp u16, key count u8; a bitmap of ceil(keys / 8) bytes follows
RESYNC_LEN = 2  # last key sequence number the host accepted, flags (bit 0: that number is valid)
CONFIG_LEN = 1  # debounce ms
LED_HEAD = 2  # first LED index u16; 3 bytes (r, g, b) per LED follow

KEY_DOWN = 0x80
RESYNC_HAVE_SEQ = 0x01

MAX_PAYLOAD = 64
MAX_LEDS_PER_FRAME = (MAX_PAYLOAD - LED_HEAD) // 3
MAX_RAW = MAX_PAYLOAD + 4
# Frames up to 253 raw bytes cost exactly one COBS code byte, and MAX_RAW is well under that.
MAX_WIRE = MAX_RAW + 2

# Results of decode_frame / Deframer.feed below zero: why a frame was dropped.
NEED_MORE = 0
ERR_COBS = -1
ERR_SHORT = -2
ERR_CRC = -3
ERR_OVERFLOW = -4

# CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) four bits at a time: a 16-entry table is a constant, so it costs
# no work at import, and halves the loop count of the bitwise form. tests/link check it against the definition.
_CRC_NIBBLE = (
    0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
    0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF,
)  # fmt: skip


def crc16(buf: bytes | bytearray | memoryview, start: int, end: int) -> int:
    """CRC-16/CCITT-FALSE of buf[start:end] (check value of b"123456789": 0x29B1)."""
    crc = 0xFFFF
    table = _CRC_NIBBLE
    i = start
    while i < end:
        b = buf[i]
        crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (b & 0x0F)]
        i += 1
    return crc


def cobs_encode(src: bytes | bytearray | memoryview, start: int, end: int, dst: bytearray, dpos: int) -> int:
    """COBS-encode src[start:end] into dst at dpos (no delimiter); returns the index after the last byte written.

    dst needs room for (end - start) + 1 + (end - start) // 254 bytes.
    """
    code_pos = dpos
    dpos += 1
    code = 1
    i = start
    while i < end:
        b = src[i]
        if b == 0:
            dst[code_pos] = code
            code_pos = dpos
            dpos += 1
            code = 1
        else:
            dst[dpos] = b
            dpos += 1
            code += 1
            if code == 0xFF:
                dst[code_pos] = code
                code_pos = dpos
                dpos += 1
                code = 1
        i += 1
    dst[code_pos] = code
    return dpos


def cobs_decode(src: bytes | bytearray | memoryview, start: int, end: int, dst: bytearray) -> int:
    """COBS-decode src[start:end] (delimiter excluded) into dst; returns the decoded length or ERR_COBS.

    A group that runs past the end, a zero inside the data, or output longer than dst is malformed: the caller
    drops the frame rather than trusting any of it.
    """
    cap = len(dst)
    o = 0
    i = start
    while i < end:
        code = src[i]
        if code == 0:
            return ERR_COBS
        i += 1
        stop = i + code - 1
        if stop > end or o + code - 1 > cap:
            return ERR_COBS
        while i < stop:
            b = src[i]
            if b == 0:
                return ERR_COBS
            dst[o] = b
            o += 1
            i += 1
        if code != 0xFF and i < end:
            if o >= cap:
                return ERR_COBS
            dst[o] = 0
            o += 1
    return o


def decode_frame(src: bytes | bytearray | memoryview, start: int, end: int, dst: bytearray) -> int:
    """Decode one delimiter-free wire frame into dst: returns the length of type + seq + payload, or an ERR_*.

    On success dst[0] is the type, dst[1] the sequence number and dst[2:result] the payload.
    """
    n = cobs_decode(src, start, end, dst)
    if n < 0:
        return n
    if n < 4:
        return ERR_SHORT
    n -= 2
    if crc16(dst, 0, n) != ((dst[n] << 8) | dst[n + 1]):
        return ERR_CRC
    return n


def wire_size(payload_len: int) -> int:
    """Bytes on the wire (delimiter included) of a frame with this payload length (payload_len <= MAX_PAYLOAD)."""
    return payload_len + 6


def finish_frame(raw: bytearray, payload_len: int, dst: bytearray) -> int:
    """Seal a frame built in place and frame it into dst; returns the number of wire bytes written.

    raw[0] must hold the type, raw[1] the sequence number and raw[2:2 + payload_len] the payload; raw needs two
    spare bytes after the payload for the CRC. Nothing is allocated, which is why the firmware builds frames
    this way.
    """
    n = 2 + payload_len
    crc = crc16(raw, 0, n)
    raw[n] = crc >> 8
    raw[n + 1] = crc & 0xFF
    end = cobs_encode(raw, 0, n + 2, dst, 0)
    dst[end] = 0
    return end + 1


def encode_frame(ftype: int, seq: int, payload: bytes | bytearray) -> bytes:
    """The wire bytes of one frame (allocates: for the host and for tests, not for the firmware's loop)."""
    plen = len(payload)
    if plen > MAX_PAYLOAD:
        raise ValueError("payload of " + str(plen) + " bytes exceeds the limit of " + str(MAX_PAYLOAD))
    raw = bytearray(plen + 4)
    raw[0] = ftype & 0xFF
    raw[1] = seq & 0xFF
    raw[2 : 2 + plen] = payload
    out = bytearray(wire_size(plen))
    n = finish_frame(raw, plen, out)
    return bytes(out[:n])


class Deframer:
    """Byte-at-a-time decoder with preallocated buffers, for the firmware's receive path.

    feed() returns NEED_MORE until a delimiter closes a frame, then the length of type + seq + payload now in
    `frame` (>= 2), or an ERR_* when the frame was dropped. Bytes between frames that are not a valid frame are
    dropped at the next delimiter, so the decoder resynchronises on its own after any garbage.
    """

    def __init__(self, max_payload: int = MAX_PAYLOAD) -> None:
        self.wire = bytearray(max_payload + 6)
        self.frame = bytearray(max_payload + 4)
        self.n = 0
        self.overflow = False

    def feed(self, b: int) -> int:
        if b != 0:
            if self.n < len(self.wire):
                self.wire[self.n] = b
                self.n += 1
            else:
                self.overflow = True
            return NEED_MORE
        n = self.n
        self.n = 0
        if self.overflow:
            self.overflow = False
            return ERR_OVERFLOW
        if n == 0:
            # Back-to-back delimiters are idle filler (a sender may flush with one), not an error.
            return NEED_MORE
        return decode_frame(self.wire, 0, n, self.frame)

    def reset(self) -> None:
        self.n = 0
        self.overflow = False
