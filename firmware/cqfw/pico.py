"""The firmware on a real Pico: builds the pins, the USB port, the watchdog and the LEDs, then runs the loop.

This is the only module that touches `machine`; it is called by main.py and never imported by the tests.
"""

from cqfw.compat import const

MAINTENANCE_FLAG = "maintenance"
CONFIG_FILE = "config.json"
_IDLE_US = const(200)


class UsbPort:
    """The USB CDC serial link, read without blocking so the scan never waits for the host."""

    def __init__(self) -> None:
        import select
        import sys

        self.tx = sys.stdout.buffer
        self.rx = sys.stdin.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.one = bytearray(1)

    def write(self, buf: bytearray) -> None:
        self.tx.write(buf)

    def readinto(self, buf: bytearray) -> int:
        n = 0
        cap = len(buf)
        # ipoll() is the allocation-free form of poll(); one byte at a time because stdin has no non-blocking
        # bulk read, and the host sends little (commands, LED frames).
        while n < cap:
            ready = False
            for _ in self.poller.ipoll(0):
                ready = True
            if not ready:
                break
            self.rx.readinto(self.one)  # type: ignore[union-attr]  # MicroPython's stdin.buffer has it
            buf[n] = self.one[0]
            n += 1
        return n


def load_config(path: str = CONFIG_FILE) -> dict:  # type: ignore[type-arg]
    """config.json, with the timings checked: a bad value stops the boot with its name rather than scanning wrong."""
    import json

    from cqfw.debounce import check_ms

    with open(path) as f:
        cfg = json.load(f)
    for key in ("debounce_ms", "scan_period_ms"):
        if key in cfg:
            check_ms(path + ": " + key, cfg[key])
    return cfg  # type: ignore[no-any-return]


def enter_maintenance() -> None:
    """Reboot into the plain REPL: the watchdog cannot be stopped once started, so only a reset frees the board."""
    import machine

    with open(MAINTENANCE_FLAG, "w") as f:
        f.write("1")
    machine.reset()


def build_scanner(machine: object, cfg: dict) -> tuple:  # type: ignore[type-arg]
    """The sensors of config.json: "sensor": "mpr121" (touch boards on I2C) or the diode matrix (the default)."""
    Pin = machine.Pin  # type: ignore[attr-defined]
    if cfg.get("sensor", "matrix") == "mpr121":
        from cqfw.touch import ELECTRODES, TouchScanner

        i2c = machine.I2C(cfg.get("i2c_id", 0), sda=Pin(cfg.get("i2c_sda", 4)),  # type: ignore[attr-defined]
                          scl=Pin(cfg.get("i2c_scl", 5)), freq=cfg.get("i2c_hz", 400000))
        touch = TouchScanner(i2c, cfg.get("mpr121_boards", 4))
        touch.start()
        return touch, touch.boards, ELECTRODES
    from cqfw.matrix import MatrixScanner

    rows = [Pin(p, Pin.OUT, value=1) for p in cfg["row_pins"]]
    cols = [Pin(p, Pin.IN, Pin.PULL_UP) for p in cfg["col_pins"]]
    return MatrixScanner(rows, cols), len(rows), len(cols)


def run() -> None:
    import time

    import machine
    import micropython

    from cqfw.device import Firmware

    cfg = load_config()
    scanner, nrows, ncols = build_scanner(machine, cfg)
    leds = None
    if cfg.get("led_count", 0) > 0:
        from cqfw.leds import LedOutput

        leds = LedOutput(machine.Pin(cfg["led_pin"], machine.Pin.OUT), cfg["led_count"])
    port = UsbPort()
    fw = Firmware(
        scanner,
        port,
        time,
        nrows,
        ncols,
        cfg.get("debounce_ms", 10),
        cfg.get("scan_period_ms", 1),
        leds,
    )
    # The link is binary: a 0x03 inside a frame must not raise KeyboardInterrupt. T_STOP is the way out.
    micropython.kbd_intr(-1)
    wdt = machine.WDT(timeout=cfg.get("watchdog_ms", 2000))
    fw.start(time.ticks_ms())
    try:
        while not fw.stop_requested:
            fw.step(time.ticks_ms())
            wdt.feed()
            time.sleep_us(_IDLE_US)
    finally:
        micropython.kbd_intr(3)
    enter_maintenance()
