"""The typed getters of a board profile's parser: each value is checked for its type and range, and every error
is one line naming the file, the key and the fix (`fail(key, problem, fix)`)."""

from __future__ import annotations

import math
import shlex
from typing import Any

from conquista.errors import ProfileError
from conquista.rules.textdata import shown


def join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


class FieldReader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, problem: str, fix: str) -> ProfileError:
        return ProfileError(f"{self.source}: {key}: {problem}; {fix}")

    # -- typed getters -------------------------------------------------------------------------------------------

    def table(self, data: dict[str, Any], key: str, where: str, allowed: set[str] | None) -> dict[str, Any]:
        if key not in data:
            raise self.fail(join(where, key), "missing section", f"add a [{join(where, key)}] table")
        value = data[key]
        if not isinstance(value, dict):
            raise self.fail(join(where, key), f"must be a table, got {shown(value)}",
                            f"write it as [{join(where, key)}]")
        if allowed is not None:
            self.no_unknown(value, join(where, key), allowed)
        return value

    def no_unknown(self, value: dict[str, Any], where: str, allowed: set[str]) -> None:
        for k in value:
            if k not in allowed:
                raise self.fail(join(where, shown(k)[1:-1] if len(k) > 40 else k), "unknown key",
                                f"remove it or use one of: {', '.join(sorted(allowed))}")

    def integer(self, data: dict[str, Any], key: str, where: str, lo: int, hi: int,
                default: int | None = None) -> int:
        full = join(where, key)
        if key not in data:
            if default is not None:
                return default
            raise self.fail(full, "missing", f"add `{key} = <integer {lo}..{hi}>`")
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(full, f"must be an integer, got {shown(value)}", f"write a whole number {lo}..{hi}")
        if not lo <= value <= hi:
            raise self.fail(full, f"{shown(value)} is out of range", f"use a value from {lo} to {hi}")
        return value

    def number(self, data: dict[str, Any], key: str, where: str, lo: float, hi: float,
               default: float | None = None) -> float:
        """A finite number from `lo` to `hi` (inf would turn a limit off, NaN compares false with everything)."""
        full = join(where, key)
        if key not in data:
            if default is not None:
                return default
            raise self.fail(full, "missing", f"add `{key} = <number {lo:g}..{hi:g}>`")
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(full, f"must be a number, got {shown(value)}", "write a number such as 20 or 12.5")
        if isinstance(value, float) and not math.isfinite(value):
            raise self.fail(full, f"{value} is not a finite number", f"use a value from {lo:g} to {hi:g}")
        if not lo <= value <= hi:
            raise self.fail(full, f"{shown(value)} is out of range", f"use a value from {lo:g} to {hi:g}")
        return float(value)

    def word(self, data: dict[str, Any], key: str, where: str, choices: tuple[str, ...], default: str | None = None,
             upper: bool = False) -> str:
        full = join(where, key)
        if key not in data:
            if default is not None:
                return default
            raise self.fail(full, "missing", f"add `{key} = \"{choices[0]}\"` (one of {', '.join(choices)})")
        value = data[key]
        if isinstance(value, str) and upper:
            value = value.upper()
        if value not in choices:
            raise self.fail(full, f"{shown(value)} is not a known value", f"use one of {', '.join(choices)}")
        assert isinstance(value, str)
        return value

    def boolean(self, data: dict[str, Any], key: str, where: str, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(join(where, key), f"must be true or false, got {shown(value)}", "write true or false")
        return value

    def shutdown(self, t: dict[str, Any]) -> tuple[str, ...] | None:
        if "shutdown_command" not in t:
            return None
        key, value = "power.shutdown_command", t["shutdown_command"]
        fix = 'write it as one string, e.g. shutdown_command = "sudo systemctl poweroff"'
        if not isinstance(value, str):
            raise self.fail(key, f"must be a string, got {value!r}", fix)
        try:
            words = tuple(shlex.split(value))
        except ValueError as exc:
            raise self.fail(key, f"cannot be split into words ({exc})", "close its quotes") from None
        if not words:
            raise self.fail(key, "is empty", f"{fix}, or remove the key (the board then only goes dark)")
        return words
