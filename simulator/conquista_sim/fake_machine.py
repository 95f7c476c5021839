"""The fake `machine` side of the Pico, in the Python subset MicroPython runs: the same file drives the firmware under
CPython and under the MicroPython WebAssembly build (tests/firmware), so both runs can be compared byte for byte.

Nothing here allocates once built (preallocated bytearrays, small ints), so these fakes can sit inside the
heap-locked scan loop without hiding an allocation of the firmware's own behind one of theirs.
"""

# MicroPython's ticks wrap at 2**30 on every port, and the fake clock wraps the same way. 2**30 itself is not a
# small int on a 32-bit MicroPython (it would allocate), so the arithmetic below never forms it.
TICKS_MASK = 0x3FFFFFFF
TICKS_HALF = 0x20000000


class FakeClock:
    def ticks_add(self, t: int, delta: int) -> int:
        """t + delta on the wrapping tick scale, for 0 <= delta < TICKS_HALF."""
        room = TICKS_MASK - t
        if delta <= room:
            return t + delta
        return delta - room - 1

    def ticks_diff(self, a: int, b: int) -> int:
        d = a - b
        if d >= TICKS_HALF:
            return d - TICKS_MASK - 1
        if d < -TICKS_HALF:
            return d + TICKS_MASK + 1
        return d


class KeyMatrix:
    """The switches: closed[k] = 1 while key k's contact is closed. Pins read it through the driven row."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        self.closed = bytearray(rows * cols)
        self.driven = -1


class RowPin:
    def __init__(self, matrix: KeyMatrix, row: int) -> None:
        self.matrix = matrix
        self.row = row

    def value(self, v: int = -1) -> int:
        if v == 0:
            self.matrix.driven = self.row
        elif v == 1 and self.matrix.driven == self.row:
            self.matrix.driven = -1
        return 0


class ColPin:
    def __init__(self, matrix: KeyMatrix, col: int) -> None:
        self.matrix = matrix
        self.col = col

    def value(self, v: int = -1) -> int:
        m = self.matrix
        if m.driven >= 0 and m.closed[m.driven * m.cols + self.col]:
            return 0
        return 1


class FakeMPR121:
    """An MPR121 touch controller by its registers, as the firmware's TouchScanner talks to it: a soft reset
    restores the datasheet's defaults (CONFIG2 reads 0x24), and a touched electrode shows in the touch status
    only while the electrode configuration register (ECR) enables it, as on the part."""

    def __init__(self) -> None:
        self.regs = bytearray(256)
        self.touched = bytearray(12)
        self.reset()

    def reset(self) -> None:
        regs = self.regs
        for i in range(256):
            regs[i] = 0
        regs[0x5C] = 0x10
        regs[0x5D] = 0x24

    def write(self, reg: int, buf: bytes) -> None:
        if reg == 0x80:
            if buf[0] == 0x63:
                self.reset()
            return
        for i in range(len(buf)):
            self.regs[reg + i] = buf[i]

    def read(self, reg: int, buf: bytearray) -> None:
        if reg == 0x00:
            enabled = self.regs[0x5E] & 0x0F
            bits = 0
            for e in range(12):
                if self.touched[e] and e < enabled:
                    bits |= 1 << e
            self.regs[0] = bits & 0xFF
            self.regs[1] = bits >> 8
        for i in range(len(buf)):
            buf[i] = self.regs[reg + i]


class FakeI2C:
    """An I2C bus of MPR121s at 0x5A, 0x5B, ...: readfrom_mem_into / writeto_mem as machine.I2C has them; an
    address with no board raises OSError(19), ENODEV, as on the Pico."""

    def __init__(self, boards: int) -> None:
        self.boards = [FakeMPR121() for _ in range(boards)]

    def _board(self, addr: int) -> FakeMPR121:
        b = addr - 0x5A
        if b < 0 or b >= len(self.boards):
            raise OSError(19)
        return self.boards[b]

    def readfrom_mem_into(self, addr: int, memaddr: int, buf: bytearray) -> None:
        self._board(addr).read(memaddr, buf)

    def writeto_mem(self, addr: int, memaddr: int, buf: bytes) -> None:
        self._board(addr).write(memaddr, buf)

    def touch(self, key: int, on: int) -> None:
        """A finger on (1) or off (0) the pad of key = board * 12 + electrode."""
        self.boards[key // 12].touched[key % 12] = on


class FakeLeds:
    """The Pico's LED output without neopixel: what the host loaded and latched, in received (r, g, b) order."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.buf = bytearray(3 * count)
        self.shown = bytearray(3 * count)
        self.shows = 0

    def load(self, start: int, src: bytearray, offset: int, count: int) -> None:
        buf = self.buf
        i = 0
        while i < count and start + i < self.count:
            j = 3 * (start + i)
            k = offset + 3 * i
            buf[j] = src[k]
            buf[j + 1] = src[k + 1]
            buf[j + 2] = src[k + 2]
            i += 1

    def show(self) -> None:
        shown = self.shown
        buf = self.buf
        for i in range(len(buf)):
            shown[i] = buf[i]
        self.shows += 1


class RecordingPort:
    """Collects what the firmware sends into a fixed buffer and serves scripted host bytes."""

    def __init__(self, capacity: int, rx_capacity: int) -> None:
        self.out = bytearray(capacity)
        self.n = 0
        self.rx = bytearray(rx_capacity)
        self.rx_len = 0
        self.rx_pos = 0

    def write(self, buf: bytearray) -> None:
        out = self.out
        n = self.n
        for i in range(len(buf)):
            out[n + i] = buf[i]
        self.n = n + len(buf)

    def queue_rx(self, data: bytes) -> None:
        for i in range(len(data)):
            self.rx[self.rx_len + i] = data[i]
        self.rx_len += len(data)

    def readinto(self, buf: bytearray) -> int:
        n = 0
        cap = len(buf)
        while n < cap and self.rx_pos < self.rx_len:
            buf[n] = self.rx[self.rx_pos]
            self.rx_pos += 1
            n += 1
        return n
