"""What MicroPython has and CPython lacks, so the firmware modules import unchanged on both."""

__all__ = ["TYPE_CHECKING", "const"]

# MicroPython has no `typing` module; mypy takes any name TYPE_CHECKING as true, so `if TYPE_CHECKING:` blocks
# (the Protocols of cqfw/collaborators.pyi) are seen by the type checker and skipped on the Pico.
TYPE_CHECKING = False

try:
    from micropython import const
except ImportError:  # CPython: const() is only a compile-time hint on MicroPython, identity is exact.

    def const(x: int) -> int:  # type: ignore[misc]  # the stub's const is generic; ours only sees ints
        return x
