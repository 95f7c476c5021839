"""What MicroPython has and CPython lacks, so the firmware modules import unchanged on both."""

__all__ = ["const"]

try:
    from micropython import const
except ImportError:  # CPython: const() is only a compile-time hint on MicroPython, identity is exact.

    def const(x: int) -> int:  # type: ignore[misc]  # the stub's const is generic; ours only sees ints
        return x
