"""Capacitive pads read by MPR121 touch controllers on the Pico's I2C bus (the weekend build's sensors).

Each MPR121 senses 12 electrodes (pads of copper tape under the print, one per territory) and keeps its own
baseline, so a finger through 0.3 mm of paper and film is seen with no mechanical tolerance at all. Board b sits
at I2C address 0x5A + b (its ADDR pin: GND, 3V3, SDA, SCL); key = b * 12 + electrode, so the host sees the same
keys as from a matrix of `boards` rows and 12 columns, and the debounce, the link and the calibration are the
matrix's.

start() configures the boards (not in the scan loop: it allocates); scan() reads each board's two touch-status
bytes into a buffer made in __init__ and allocates nothing. A board that stops answering reads as untouched and
is counted in `errors`, rather than stopping the scan of the other boards.
"""

from cqfw.compat import TYPE_CHECKING, const

if TYPE_CHECKING:
    from cqfw.collaborators import I2C

ELECTRODES = const(12)
FIRST_ADDRESS = const(0x5A)
# Registers (MPR121 datasheet, NXP, rev. 4).
REG_TOUCH_STATUS = const(0x00)  # 2 bytes: electrodes 0-7, then 8-11 (bits 0-3)
REG_THRESHOLDS = const(0x41)  # touch, release threshold per electrode, 24 bytes
REG_FILTER = const(0x2B)  # baseline filter: MHDR .. FDLT, 11 bytes
REG_DEBOUNCE = const(0x5B)
REG_CONFIG1 = const(0x5C)
REG_CONFIG2 = const(0x5D)
REG_ECR = const(0x5E)  # electrode configuration: 0 stops the board (needed to write the others)
REG_SOFT_RESET = const(0x80)
SOFT_RESET = const(0x63)
CONFIG2_AFTER_RESET = const(0x24)  # what a present, freshly reset MPR121 reads back
TOUCH_THRESHOLD = const(12)
RELEASE_THRESHOLD = const(6)
# Rising: MHD 1, NHD 1, NCL 14, FDL 0; falling: MHD 1, NHD 5, NCL 1, FDL 0; touched: NHD, NCL, FDL 0.
FILTER = b"\x01\x01\x0e\x00\x01\x05\x01\x00\x00\x00\x00"
CONFIG1 = const(0x10)  # 6 samples for the first filter, 16 uA charge current
CONFIG2 = const(0x20)  # 0.5 us charge time, 4 samples, 1 ms between samples
ECR_RUN = const(0x8C)  # baseline tracking from the first reading, electrodes 0-11 enabled


class MPR121Error(Exception):
    pass


class TouchScanner:
    def __init__(self, i2c: "I2C", boards: int) -> None:
        self.i2c = i2c
        self.boards = boards
        self.keys = boards * ELECTRODES
        self.status = bytearray(2)
        self.errors = 0

    def start(self) -> None:
        """Reset and configure every board; MPR121Error names the address of one that does not answer."""
        thresholds = bytearray(2 * ELECTRODES)
        for e in range(ELECTRODES):
            thresholds[2 * e] = TOUCH_THRESHOLD
            thresholds[2 * e + 1] = RELEASE_THRESHOLD
        one = bytearray(1)
        for b in range(self.boards):
            address = FIRST_ADDRESS + b
            try:
                self.i2c.writeto_mem(address, REG_SOFT_RESET, bytes([SOFT_RESET]))
                self.i2c.readfrom_mem_into(address, REG_CONFIG2, one)
            except OSError:
                raise MPR121Error("MPR121 board " + str(b) + " at " + hex(address) + " does not answer: check "
                                  "its ADDR wire and the I2C cable") from None
            if one[0] != CONFIG2_AFTER_RESET:
                raise MPR121Error("the device at " + hex(address) + " is not an MPR121 (CONFIG2 reads " +
                                  hex(one[0]) + ")")
            self.i2c.writeto_mem(address, REG_ECR, bytes([0]))
            self.i2c.writeto_mem(address, REG_THRESHOLDS, thresholds)
            self.i2c.writeto_mem(address, REG_FILTER, FILTER)
            self.i2c.writeto_mem(address, REG_DEBOUNCE, bytes([0]))  # the firmware's Debouncer does it
            self.i2c.writeto_mem(address, REG_CONFIG1, bytes([CONFIG1]))
            self.i2c.writeto_mem(address, REG_CONFIG2, bytes([CONFIG2]))
            self.i2c.writeto_mem(address, REG_ECR, bytes([ECR_RUN]))

    def scan(self, raw: bytearray) -> None:
        """raw[board * 12 + electrode] = 1 for every touched pad."""
        status = self.status
        k = 0
        for b in range(self.boards):
            try:
                self.i2c.readfrom_mem_into(FIRST_ADDRESS + b, REG_TOUCH_STATUS, status)
                bits = status[0] | ((status[1] & 0x0F) << 8)
            except OSError:
                self.errors += 1
                bits = 0
            for e in range(ELECTRODES):
                raw[k] = (bits >> e) & 1
                k += 1
