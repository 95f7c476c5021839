"""The shared codec under both runtimes: the same frames must encode to the same bytes, and a stream with
garbage, a flipped bit and frames split anywhere must decode to the same frames. Prints one line per result."""

from conquista.link import codec


def payload(i: int) -> bytes:
    # Deterministic and rich in zeros and 0xFF, the bytes COBS treats specially.
    return bytes([(i * 37 + j * 11) & 0xFF if (i + j) % 5 else 0 for j in range(i % (codec.MAX_PAYLOAD + 1))])


def main() -> None:
    stream = bytearray()
    for i in range(80):
        wire = codec.encode_frame(i & 0xFF, (i * 7) & 0xFF, payload(i))
        print("ENC " + wire.hex())
        stream += wire
        if i % 9 == 0:
            stream += b"\x11\x22\x00\x33\x00"  # garbage, then the delimiter a sender puts before a frame
        if i % 13 == 0:
            bad = bytearray(codec.encode_frame(1, 2, payload(i)))
            bad[len(bad) // 2] ^= 0x08  # one flipped bit
            stream += bad
    de = codec.Deframer()
    good = 0
    errors = 0
    for b in stream:
        n = de.feed(b)
        if n > 0:
            good += 1
            print("DEC " + bytes(de.frame[:n]).hex())
        elif n < 0:
            errors += 1
    print("GOOD " + str(good))
    print("ERRORS " + str(errors))


main()
