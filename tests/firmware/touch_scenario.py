"""The firmware with its MPR121 touch scanner, run unchanged under CPython and under MicroPython (WebAssembly).

Four fake MPR121s on a fake I2C bus (conquista_sim.fake_machine, the registers the firmware writes and reads);
fingers touch pads on several boards, one for less than the debounce, two at once. Under MicroPython the scan
loop runs inside micropython.heap_lock(). It prints:
    ALLOC <ok|fail: reason|unchecked>
    WIRE <hex of every byte the firmware sent>
    ECR <each board's electrode configuration after start(), hex>
    ERRORS <boards that failed to answer in the scan>
"""

import sys

from conquista_sim.fake_machine import FakeClock, FakeI2C, RecordingPort
from cqfw.device import Firmware
from cqfw.touch import ELECTRODES, TouchScanner

BOARDS = 4
STEPS = 2000
DEBOUNCE_MS = 5


def touch_script() -> bytes:
    """(ms hi, ms lo, key, on) rows, sorted by time; key = board * 12 + electrode."""
    rows = [(100, 0, 1), (300, 0, 0),            # board 0, electrode 0: a tap
            (400, 23, 1), (401, 23, 0),          # board 1, electrode 11: 1 ms, shorter than the debounce
            (500, 47, 1), (500, 24, 1),          # boards 3 and 2 at once
            (700, 47, 0), (800, 24, 0),
            (900, 13, 1), (1500, 13, 0)]         # board 1, electrode 1: held across a HELLO request
    for i in range(10):
        rows.append((1600 + 30 * i, 36 + i, 1))
        rows.append((1615 + 30 * i, 36 + i, 0))
    rows.sort()
    out = bytearray()
    for ms, key, on in rows:
        out.append(ms >> 8)
        out.append(ms & 0xFF)
        out.append(key)
        out.append(on)
    return bytes(out)


def run() -> None:
    from conquista.link import codec

    bus = FakeI2C(BOARDS)
    scanner = TouchScanner(bus, BOARDS)
    scanner.start()
    port = RecordingPort(16384, 256)
    clock = FakeClock()
    fw = Firmware(scanner, port, clock, BOARDS, ELECTRODES, DEBOUNCE_MS, 1)
    script = touch_script()
    hello = codec.encode_frame(codec.T_HELLO_REQUEST, 1, b"")
    nscript = len(script)
    fw.start(0)
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
    si = 0
    steps = 0
    if lock is not None:
        lock()
    try:
        for ms in range(1, STEPS + 1):
            while si < nscript and ((script[si] << 8) | script[si + 1]) == ms:
                bus.touch(script[si + 2], script[si + 3])
                si += 4
            if ms == 1000:
                port.queue_rx(hello)
            fw.step(ms)
            steps += 1
        if lock is not None:
            status = "ok"
    except MemoryError:
        status = "fail"
    finally:
        if unlock is not None:
            unlock()
    if status == "fail":
        status = "fail: MemoryError at step " + str(steps)
    print("ALLOC " + status)
    print("WIRE " + "".join(f"{port.out[i]:02x}" for i in range(port.n)))
    print("ECR " + " ".join(f"{b.regs[0x5E]:02x}" for b in bus.boards))
    print("ERRORS " + str(scanner.errors))


if __name__ == "__main__" or sys.implementation.name == "micropython":
    run()
