"""The simulated Pico: the firmware's own modules (firmware/cqfw) running under CPython on a fake `machine`.

The fake wiring is a virtual key matrix behind fake Pins with MicroPython's constructor signature; the USB port
is a TCP server on loopback, so the host reaches it as socket://127.0.0.1:PORT through the very same link code
as a real board. Nothing of the firmware is reimplemented here: scan, debounce, framing and replay are its own.
"""

from __future__ import annotations

import importlib
import ipaddress
import os
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

from conquista.errors import SimulatedPicoError as SimulatedPicoError
from conquista_sim.fake_machine import TICKS_MASK, ColPin, FakeClock, FakeI2C, FakeLeds, KeyMatrix, RowPin


def firmware_dir() -> Path:
    """The Pico's sources: the package data `conquista_firmware` (firmware/ of a checkout, installed with the
    package), or $CONQUISTA_FIRMWARE_DIR to run other sources."""
    env = os.environ.get("CONQUISTA_FIRMWARE_DIR")
    if env:
        path = Path(env)
    else:
        try:
            path = Path(str(resources.files("conquista_firmware")))
        except ModuleNotFoundError:
            path = Path("conquista_firmware (not installed)")
    if not (path / "cqfw" / "device.py").is_file():
        raise SimulatedPicoError(
            f"firmware sources not found in {path}: reinstall conquista (pip install conquista) or set "
            "CONQUISTA_FIRMWARE_DIR to a directory holding main.py and cqfw/"
        )
    return path


def import_firmware(module: str) -> ModuleType:
    """Import a firmware module (e.g. "cqfw.device") from firmware_dir()."""
    path = str(firmware_dir())
    if path not in sys.path:
        sys.path.insert(0, path)
    return importlib.import_module(module)


class FakeMachine:
    """Stands in for MicroPython's `machine` module: Pin (MicroPython's constructor signature) and WDT.

    A pin numbered as a matrix row or column is wired to the key matrix through the same RowPin/ColPin fakes the
    firmware tests run under MicroPython; any other pin reads high (pulled up, nothing pressed).
    """

    def __init__(self, matrix: KeyMatrix, row_pins: list[int], col_pins: list[int]) -> None:
        self.matrix = matrix
        self.row_of = {p: i for i, p in enumerate(row_pins)}
        self.col_of = {p: i for i, p in enumerate(col_pins)}
        machine = self

        class Pin:
            IN = 0
            OUT = 1
            PULL_UP = 1

            def __init__(self, pin_id: int, mode: int = -1, pull: int = -1, *, value: int | None = None) -> None:
                self.id = pin_id
                self.mode = mode
                row = machine.row_of.get(pin_id)
                col = machine.col_of.get(pin_id)
                self.wire: RowPin | ColPin | None = (RowPin(machine.matrix, row) if row is not None
                                                     else ColPin(machine.matrix, col) if col is not None else None)
                if value is not None:
                    self.value(value)

            def value(self, v: int | None = None) -> int:
                if self.wire is None:
                    return 1
                return self.wire.value(-1 if v is None else v)

        class WDT:
            def __init__(self, timeout: int = 5000) -> None:
                self.timeout = timeout
                self.fed_at = time.monotonic()

            def feed(self) -> None:
                self.fed_at = time.monotonic()

            def expired(self) -> bool:
                return (time.monotonic() - self.fed_at) * 1000 > self.timeout

        self.Pin = Pin
        self.WDT = WDT


class SimClock(FakeClock):
    """time.ticks_* of MicroPython over the host's monotonic clock, wrapping at 2**30 as the Pico's do (so wrap
    bugs show here too)."""

    def __init__(self) -> None:
        self._t0 = time.monotonic()

    def ticks_ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000) & TICKS_MASK


class LoopbackPort:
    """The USB CDC port as a TCP server on loopback: one host at a time, a new connection replaces the old one
    (like reopening the tty), and bytes written with no host connected are lost, as USB CDC does."""

    def __init__(self, host: str, port: int) -> None:
        try:
            loopback = ipaddress.ip_address("127.0.0.1" if host == "localhost" else host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            raise SimulatedPicoError(f"{host} is not a loopback address: the simulated Pico serves loopback only")
        self.server = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.server.bind(("127.0.0.1" if host == "localhost" else host, port))
        except OSError as exc:
            self.server.close()
            raise SimulatedPicoError(f"cannot listen on {host}:{port}: {exc}") from exc
        self.server.listen(2)
        self.server.setblocking(False)
        self.client: socket.socket | None = None
        self.lock = threading.Lock()

    @property
    def address(self) -> tuple[str, int]:
        host, port = self.server.getsockname()[:2]
        return str(host), int(port)

    def _accept(self) -> None:
        try:
            conn, _ = self.server.accept()
        except (BlockingIOError, OSError):
            return
        conn.setblocking(False)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        old, self.client = self.client, conn
        if old is not None:
            old.close()

    def write(self, buf: bytearray) -> None:
        with self.lock:
            client = self.client
            if client is None:
                return
            try:
                client.sendall(bytes(buf))
            except (BlockingIOError, OSError):
                self.client = None
                client.close()

    def readinto(self, buf: bytearray) -> int:
        with self.lock:
            self._accept()
            client = self.client
            if client is None:
                return 0
            try:
                data = client.recv(len(buf))
            except BlockingIOError:
                return 0
            except OSError:
                data = b""
            if not data:
                self.client = None
                client.close()
                return 0
            buf[: len(data)] = data
            return len(data)

    def close(self) -> None:
        with self.lock:
            if self.client is not None:
                self.client.close()
                self.client = None
            self.server.close()


@dataclass(frozen=True, slots=True)
class FiredKey:
    """A KEY event as the firmware produced it (the truth the host is checked against)."""

    key: int
    down: bool
    ms16: int
    seq: int
    host_time: float


class SimulatedPico:
    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        rows: int = 6,
        cols: int = 7,
        debounce_ms: int = 10,
        period_ms: int = 1,
        on_key: Callable[[FiredKey], None] | None = None,
        led_count: int = 0,
        sensor: str = "matrix",
    ) -> None:
        self.device = import_firmware("cqfw.device")
        self.matrix_mod = import_firmware("cqfw.matrix")
        self.rows = rows
        self.cols = cols
        self.debounce_ms = debounce_ms
        self.period_ms = period_ms
        # The LEDs the firmware drives (config.json's led_count), reported in HELLO; 0 when the Pi drives them.
        self.leds = FakeLeds(led_count) if led_count > 0 else None
        self.matrix = KeyMatrix(rows, cols)
        # "mpr121": the firmware's TouchScanner on a bus of fake MPR121s (rows boards of 12 pads), pressed by key.
        self.sensor = sensor
        self.bus = FakeI2C(rows) if sensor == "mpr121" else None
        self.row_pins = list(range(2, 2 + rows))
        self.col_pins = list(range(2 + rows, 2 + rows + cols))
        self.machine = FakeMachine(self.matrix, self.row_pins, self.col_pins)
        self.clock = SimClock()
        self.port = LoopbackPort(host, port)
        self.fired: list[FiredKey] = []
        self.boots = 0
        self._on_key = on_key
        self._pending: list[tuple[int, int, int]] = []  # (due ticks, key, closed), applied by the scan thread
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.firmware: Any = None

    @property
    def address(self) -> tuple[str, int]:
        return self.port.address

    @property
    def url(self) -> str:
        host, port = self.address
        return f"socket://{host}:{port}"

    @property
    def keys(self) -> int:
        return self.rows * self.cols

    def _boot(self) -> None:
        m = self.machine
        scanner: Any
        if self.bus is not None:
            scanner = import_firmware("cqfw.touch").TouchScanner(self.bus, self.rows)
            scanner.start()
        else:
            rows = [m.Pin(p, m.Pin.OUT, value=1) for p in self.row_pins]
            cols = [m.Pin(p, m.Pin.IN, m.Pin.PULL_UP) for p in self.col_pins]
            scanner = self.matrix_mod.MatrixScanner(rows, cols)
        fw = self.device.Firmware(
            scanner,
            self.port,
            self.clock,
            self.rows,
            self.cols,
            self.debounce_ms,
            self.period_ms,
            self.leds,
        )
        original = fw.key_event

        def recording_key_event(key: int, down: int, now: int) -> None:
            original(key, down, now)
            fired = FiredKey(key, bool(down), now & 0xFFFF, fw.key_seq, time.monotonic())
            self.fired.append(fired)
            if self._on_key is not None:
                self._on_key(fired)

        fw.key_event = recording_key_event
        self.firmware = fw
        self.boots += 1
        self.wdt = m.WDT(timeout=2000)
        fw.start(self.clock.ticks_ms())

    def start(self) -> SimulatedPico:
        self._boot()
        self._thread = threading.Thread(target=self._run, name="simulated-pico", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
        self.port.close()

    def __enter__(self) -> SimulatedPico:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        while not self._stop.is_set():
            now = self.clock.ticks_ms()
            with self._lock:
                due = [p for p in self._pending if self.clock.ticks_diff(now, p[0]) >= 0]
                if due:
                    self._pending = [p for p in self._pending if p not in due]
            for _, key, closed in due:
                self.matrix.closed[key] = closed
                if self.bus is not None:
                    self.bus.touch(key, closed)
            self.firmware.step(now)
            if self.wdt.expired():
                self._boot()  # what machine.WDT does to a stuck Pico: a reset, HELLO again
            self.wdt.feed()
            time.sleep(0.0005)

    # -- the player's hand ---------------------------------------------------------------------------------
    def _check(self, key: int) -> None:
        if not 0 <= key < self.keys:
            raise SimulatedPicoError(f"key {key} is outside the {self.rows} x {self.cols} matrix (0..{self.keys - 1})")

    def _schedule(self, changes: list[tuple[int, int, int]]) -> None:
        now = self.clock.ticks_ms()
        with self._lock:
            self._pending.extend((self.clock.ticks_add(now, d), k, c) for d, k, c in changes)

    def press(self, key: int) -> None:
        self._check(key)
        self._schedule([(0, key, 1)])

    def release(self, key: int) -> None:
        self._check(key)
        self._schedule([(0, key, 0)])

    def bounce(self, key: int, ms: int = 4) -> None:
        """Contact chatter for `ms` ms that ends where it started: the debounce must report nothing."""
        self._check(key)
        start = self.matrix.closed[key]
        changes = [(d, key, (1 - start) if d % 2 == 0 else start) for d in range(ms)]
        changes.append((ms, key, start))
        self._schedule(changes)
