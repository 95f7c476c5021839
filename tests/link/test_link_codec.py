"""The wire codec (conquista.link.codec, also the firmware's): properties over generated payloads and streams."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conquista.link import codec
from conquista.link.frames import Frame, StreamDecoder

payloads = st.binary(min_size=0, max_size=codec.MAX_PAYLOAD)
frames_st = st.tuples(st.integers(0, 255), st.integers(0, 255), payloads)


def crc16_by_definition(data: bytes) -> int:
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def test_crc16_check_value() -> None:
    assert codec.crc16(b"123456789", 0, 9) == 0x29B1


@given(st.binary(max_size=300))
def test_crc16_matches_the_bitwise_definition(data: bytes) -> None:
    assert codec.crc16(data, 0, len(data)) == crc16_by_definition(data)


@given(st.binary(max_size=1000))
def test_cobs_round_trips_any_bytes(data: bytes) -> None:
    out = bytearray(len(data) + 2 + len(data) // 254)
    n = codec.cobs_encode(data, 0, len(data), out, 0)
    assert 0 not in out[:n]
    back = bytearray(len(data) + 1)
    assert codec.cobs_decode(out, 0, n, back) == len(data)
    assert bytes(back[: len(data)]) == data


@given(frames_st)
def test_every_payload_round_trips(frame: tuple[int, int, bytes]) -> None:
    ftype, seq, payload = frame
    wire = codec.encode_frame(ftype, seq, payload)
    assert len(wire) == codec.wire_size(len(payload))
    assert wire[-1] == 0 and 0 not in wire[:-1]
    dst = bytearray(codec.MAX_RAW)
    n = codec.decode_frame(wire, 0, len(wire) - 1, dst)
    assert n == 2 + len(payload)
    assert (dst[0], dst[1], bytes(dst[2:n])) == (ftype, seq, payload)


def test_a_key_event_costs_at_most_12_bytes_on_the_wire() -> None:
    wire = codec.encode_frame(codec.T_KEY, 200, bytes([41 | codec.KEY_DOWN, 0xFF, 0xFF]))
    assert len(wire) == codec.wire_size(codec.KEY_LEN) == 9 <= 12


def expected(frames: list[tuple[int, int, bytes]]) -> list[Frame]:
    return [Frame(t, s, p) for t, s, p in frames]


@settings(max_examples=60)
@given(st.lists(frames_st, min_size=1, max_size=6))
def test_a_stream_split_at_every_offset_decodes_the_same(frames: list[tuple[int, int, bytes]]) -> None:
    stream = b"".join(codec.encode_frame(*f) for f in frames)
    for cut in range(len(stream) + 1):
        dec = StreamDecoder()
        got = dec.feed(stream[:cut]) + dec.feed(stream[cut:])
        assert got == expected(frames)
    # The firmware's byte-at-a-time decoder, fed the same stream, agrees.
    de = codec.Deframer()
    shared: list[Frame] = []
    for b in stream:
        n = de.feed(b)
        if n > 0:
            shared.append(Frame(de.frame[0], de.frame[1], bytes(de.frame[2:n])))
    assert shared == expected(frames)


@given(st.lists(st.tuples(frames_st, st.binary(max_size=40)), min_size=1, max_size=6))
def test_garbage_between_frames_is_skipped(items: list[tuple[tuple[int, int, bytes], bytes]]) -> None:
    # Garbage may contain 0x00 or not; a delimiter before each frame is what a real sender guarantees after
    # noise (the previous frame's delimiter), so frames that follow garbage are recovered whole.
    stream = b"".join(garbage + b"\x00" + codec.encode_frame(*f) for f, garbage in items)
    dec = StreamDecoder()
    got = dec.feed(stream)
    want = expected([f for f, _ in items])
    # Garbage that happens to be a valid frame would be accepted; with a 16-bit CRC it must be rare, so the
    # wanted frames are required in order and anything else must be counted as dropped.
    it = iter(got)
    assert all(any(g == w for g in it) for w in want)


@given(frames_st, st.data())
def test_a_flipped_bit_is_rejected(frame: tuple[int, int, bytes], data: st.DataObject) -> None:
    wire = bytearray(codec.encode_frame(*frame))
    bit = data.draw(st.integers(0, 8 * (len(wire) - 1) - 1))
    wire[bit // 8] ^= 1 << (bit % 8)
    dec = StreamDecoder()
    assert dec.feed(bytes(wire)) == []
    c = dec.counters
    assert c.frames == 0 and c.crc_errors + c.malformed >= 1


def test_overlong_noise_is_dropped_and_counted_once() -> None:
    dec = StreamDecoder()
    assert dec.feed(b"\x01" * 500) == []
    good = codec.encode_frame(codec.T_PING, 1, b"")
    assert dec.feed(b"\x55" * 10 + b"\x00" + good) == [Frame(codec.T_PING, 1, b"")]
    assert dec.counters.overflows == 1


def test_deframer_reports_errors_and_recovers() -> None:
    de = codec.Deframer()
    results = [de.feed(b) for b in b"\x05\x01\x02\x00" + codec.encode_frame(codec.T_PING, 9, b"")]
    assert codec.ERR_COBS in results or codec.ERR_SHORT in results or codec.ERR_CRC in results
    assert results[-1] == 2 and de.frame[0] == codec.T_PING and de.frame[1] == 9
    over = [de.feed(1) for _ in range(codec.MAX_WIRE + 10)] + [de.feed(0)]
    assert over[-1] == codec.ERR_OVERFLOW
