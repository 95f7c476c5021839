"""What the firmware asks of the objects passed into it, for the type checker only.

A stub and not a module: the Pico never imports it (the modules import it under TYPE_CHECKING, which is false
there) and `conquista firmware deploy` copies only the .py files, so it costs neither RAM nor flash.
"""

from collections.abc import Sequence
from typing import Protocol, TypeAlias, overload

class Pin(Protocol):
    """A matrix line: machine.Pin on the Pico, the fake pin in the simulator."""

    @overload
    def value(self) -> int: ...
    @overload
    def value(self, x: int, /) -> None: ...

# The scanner only reads its lines, so a list of machine.Pin is a list of Pin to it.
Pins: TypeAlias = Sequence[Pin]

class Scanner(Protocol):
    def scan(self, raw: bytearray, /) -> None:
        """raw[key] = 1 for every closed switch, 0 for every open one."""

class I2C(Protocol):
    """machine.I2C on the Pico, the fake bus of MPR121s in the simulator."""

    def readfrom_mem_into(self, addr: int, memaddr: int, buf: bytearray, /) -> None: ...
    def writeto_mem(self, addr: int, memaddr: int, buf: bytes | bytearray, /) -> None: ...

class Port(Protocol):
    """The serial link to the host: it never blocks."""

    def write(self, buf: bytearray, /) -> object: ...
    def readinto(self, buf: bytearray, /) -> int:
        """The bytes received since the last call, up to len(buf); 0 when there are none."""

class Clock(Protocol):
    """Millisecond ticks that wrap: MicroPython's `time` module on the Pico, a fake clock in the tests."""

    def ticks_add(self, ticks: int, delta: int, /) -> int: ...
    def ticks_diff(self, ticks1: int, ticks2: int, /) -> int: ...

class Leds(Protocol):
    count: int  # the LEDs it drives, reported in HELLO
    def load(self, start: int, src: bytearray, offset: int, count: int, /) -> None:
        """Copy `count` RGB triples from src[offset:] into LEDs start..start+count-1, not shown yet."""
    def show(self) -> None: ...

class KeySink(Protocol):
    def key_event(self, key: int, down: int, now: int, /) -> None:
        """A debounced change: `down` is 1 for a press, 0 for a release, at `now` ms."""
