"""What MicroPython has and CPython lacks, so the firmware modules import unchanged on both."""

try:
    from micropython import const
except ImportError:  # CPython: const() is only a compile-time hint on MicroPython, identity is exact.

    def const(x: int) -> int:
        return x
