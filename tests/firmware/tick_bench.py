"""Cost of one firmware scan tick, relative to a bare method call, under whichever runtime runs this file.

Prints TICK_US, CALL_US and RATIO lines; benchmarks/bench_link.py runs it under MicroPython (WebAssembly).
"""

import time

from conquista_sim.fake_machine import ColPin, FakeClock, KeyMatrix, RecordingPort, RowPin
from cqfw.device import Firmware
from cqfw.matrix import MatrixScanner

N = 2000


class Nothing:
    def call(self, now: int) -> None:
        pass


def now_us() -> int:
    try:
        return time.ticks_us()  # type: ignore[attr-defined,no-any-return]
    except AttributeError:
        return int(time.perf_counter() * 1_000_000)


def main() -> None:
    matrix = KeyMatrix(6, 7)
    scanner = MatrixScanner([RowPin(matrix, r) for r in range(6)], [ColPin(matrix, c) for c in range(7)])
    port = RecordingPort(8192, 16)
    fw = Firmware(scanner, port, FakeClock(), 6, 7, 10, 1)
    fw.start(0)
    matrix.closed[9] = 1
    t0 = now_us()
    for i in range(N):
        fw.tick(i)
    tick = now_us() - t0
    nothing = Nothing()
    t0 = now_us()
    for i in range(N):
        nothing.call(i)
    call = now_us() - t0
    print("TICK_US " + str(tick / N))
    print("CALL_US " + str(call / N))
    print("RATIO " + str(tick / max(call, 1)))


main()
