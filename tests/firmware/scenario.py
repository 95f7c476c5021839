"""A scripted session of the firmware, run unchanged under CPython and under MicroPython (WebAssembly).

It scans a 6 x 7 matrix for STEPS milliseconds while the script closes and opens contacts (with bounce, a
one-scan glitch, two keys at once) and the host sends commands (RESYNC with replay, CONFIG, PING, HELLO request,
garbage, a corrupted frame). Under MicroPython the whole loop runs inside micropython.heap_lock(), where any
allocation raises MemoryError. It prints:
    ALLOC <ok|fail: reason|unchecked>
    WIRE <hex of every byte the firmware sent>
    STEPS <n>
    RXERR <frames dropped>
    LEDS <LED_SHOWs obeyed> <hex of the first 3 LEDs shown>
The tests compare the WIRE line of both runtimes and decode it to check the events.
"""

import sys

from conquista.link import codec
from conquista_sim.fake_machine import ColPin, FakeClock, FakeLeds, KeyMatrix, RecordingPort, RowPin
from cqfw.device import Firmware
from cqfw.matrix import MatrixScanner

ROWS = 6
COLS = 7
STEPS = 5000
LEDS = 150
DEBOUNCE_MS = 5
# Starts 300 ms before the tick counter wraps, so the wrap happens mid-run.
T0 = 0x3FFFFFFF - 300


def contact_script() -> bytes:
    """(ms hi, ms lo, key, closed) rows, sorted by time."""
    rows = []
    # Key 9: a press that bounces for 5 ms, held, then a release that bounces for 4 ms.
    for ms, closed in ((100, 1), (101, 0), (102, 1), (103, 0), (104, 1), (300, 0), (301, 1), (302, 0), (303, 1)):
        rows.append((ms, 9, closed))
    rows.append((304, 9, 0))
    # Key 41 (the last cell): a clean press and release.
    rows.append((500, 41, 1))
    rows.append((700, 41, 0))
    # Key 0: a 1 ms glitch, shorter than the debounce: must never be reported.
    rows.append((800, 0, 1))
    rows.append((801, 0, 0))
    # Keys 5 and 6 on the same row, down together (diode matrix: no ghosting, both reported).
    rows.append((900, 5, 1))
    rows.append((900, 6, 1))
    rows.append((1000, 5, 0))
    rows.append((1010, 6, 0))
    # Key 20 held across the host's commands, so SNAPSHOTs show it down.
    rows.append((1100, 20, 1))
    rows.append((2500, 20, 0))
    # A burst of quick taps late in the run (exercises the sequence numbers and the ring).
    for i in range(40):
        rows.append((3000 + 20 * i, 30 + (i % 5), 1))
        rows.append((3010 + 20 * i, 30 + (i % 5), 0))
    rows.sort()
    out = bytearray()
    for ms, key, closed in rows:
        out.append(ms >> 8)
        out.append(ms & 0xFF)
        out.append(key)
        out.append(closed)
    return bytes(out)


def host_script() -> list:  # type: ignore[type-arg]
    """(ms, bytes) the host sends; built before the heap is locked."""
    bad = bytearray(codec.encode_frame(codec.T_PING, 7, b""))
    bad[1] ^= 0x10  # one flipped bit: the firmware must drop it and count it
    return [
        (1200, codec.encode_frame(codec.T_RESYNC, 1, bytes([4, codec.RESYNC_HAVE_SEQ]))),
        (1300, codec.encode_frame(codec.T_CONFIG, 2, bytes([8]))),
        (1400, codec.encode_frame(codec.T_PING, 3, b"")),
        (1500, codec.encode_frame(codec.T_HELLO_REQUEST, 4, b"")),
        (1600, b"\x13\x37garbage\x00" + bytes(bad)),
        (1700, codec.encode_frame(codec.T_RESYNC, 5, bytes([0, 0]))),
        (4500, codec.encode_frame(codec.T_RESYNC, 6, bytes([60, codec.RESYNC_HAVE_SEQ]))),
        # Red, green, blue on LEDs 0-2 (board check's colour steps), latched by LED_SHOW.
        (4600, codec.encode_frame(codec.T_LED, 7, bytes([0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]))),
        (4601, codec.encode_frame(codec.T_LED_SHOW, 8, b"")),
    ]


def run() -> None:
    matrix = KeyMatrix(ROWS, COLS)
    rows = [RowPin(matrix, r) for r in range(ROWS)]
    cols = [ColPin(matrix, c) for c in range(COLS)]
    port = RecordingPort(32768, 1024)
    clock = FakeClock()
    leds = FakeLeds(LEDS)
    fw = Firmware(MatrixScanner(rows, cols), port, clock, ROWS, COLS, DEBOUNCE_MS, 1, leds)
    script = contact_script()
    host = host_script()
    nscript = len(script)
    nhost = len(host)
    closed = matrix.closed
    fw.start(T0)

    try:
        import gc

        import micropython  # type: ignore[import-not-found]

        lock = micropython.heap_lock
        unlock = micropython.heap_unlock
        gc.collect()
    except ImportError:
        lock = None
        unlock = None

    status = "unchecked"
    failed_at = -1
    si = 0
    hi = 0
    steps = 0
    if lock is not None:
        lock()
    try:
        for ms in range(1, STEPS + 1):
            while si < nscript and ((script[si] << 8) | script[si + 1]) == ms:
                closed[script[si + 2]] = script[si + 3]
                si += 4
            while hi < nhost and host[hi][0] == ms:
                port.queue_rx(host[hi][1])
                hi += 1
            fw.step(clock.ticks_add(T0, ms))
            steps += 1
        if lock is not None:
            status = "ok"
    except MemoryError:
        # Nothing may be built here while the heap is locked: note the step, report after unlocking.
        status = "fail"
        failed_at = steps
    finally:
        if unlock is not None:
            unlock()
    if status == "fail":
        status = "fail: MemoryError at step " + str(failed_at)
    print("ALLOC " + status)
    print("WIRE " + "".join(f"{port.out[i]:02x}" for i in range(port.n)))
    print("STEPS " + str(steps))
    print("RXERR " + str(fw.rx_errors))
    print("LEDS " + str(leds.shows) + " " + "".join(f"{leds.shown[i]:02x}" for i in range(9)))


if __name__ == "__main__" or sys.implementation.name == "micropython":
    run()
