"""Seeded mutations of the files the commands read, a TOML writer for structured mutations, and a per-case time
limit. Used by test_damaged_files.py."""

from __future__ import annotations

import json
import math
import random
import re
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

DEEP = 100_000
HUGE_DIGITS = "9" * 5000
# Values no numeric parameter of any file accepts (ranges start at 0 or above and end far below 10^12).
BAD_NUMBERS: tuple[object, ...] = (-1, 10 ** 12, 10 ** 4000, math.inf, -math.inf, math.nan, True, "x", [1], {"a": 1})
_NUMBER = re.compile(rb"-?\b[0-9]+(?:\.[0-9]+)?\b")


@dataclass
class Case:
    name: str            # what was done, to name a failing case
    data: bytes
    must_refuse: bool    # a known-bad mutation: a value out of range, a wrong type, an unknown key


class Hang(BaseException):
    """A case ran past its time limit (BaseException: no loader's `except Exception` can swallow it)."""


@contextmanager
def time_limit(seconds: float, name: str) -> Iterator[None]:
    def expire(_signum: int, _frame: object) -> None:
        raise Hang(f"{name}: still running after {seconds:g} s")

    # An outer alarm (pytest-timeout's signal method) is put back as it was, less the time this case took.
    previous = signal.signal(signal.SIGALRM, expire)
    started = time.monotonic()
    outer, _interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - started), 0.001))


# ------------------------------------------------------------------------------------------ text mutations

def _numbers(data: bytes) -> list[re.Match[bytes]]:
    return list(_NUMBER.finditer(data))


def _replace_number(rng: random.Random, data: bytes, by: bytes) -> bytes:
    found = _numbers(data)
    if not found:
        return data + by
    m = rng.choice(found)
    return data[:m.start()] + by + data[m.end():]


def _flip(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        if out:
            out[rng.randrange(len(out))] ^= rng.randint(1, 255)
    return bytes(out)


def _line_edit(rng: random.Random, data: bytes) -> bytes:
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    if rng.random() < 0.5:
        del lines[i]
    else:
        lines.insert(i, lines[rng.randrange(len(lines))])
    return b"\n".join(lines)


def byte_mutations(rng: random.Random, data: bytes, deep: tuple[bytes, bytes], inf: tuple[bytes, ...],
                   wrong: tuple[bytes, ...]) -> Callable[[], tuple[str, bytes]]:
    """A generator of random text-level mutations of `data` (the file format gives its own nesting, infinities
    and wrongly typed values)."""
    kinds: list[tuple[str, Callable[[], bytes]]] = [
        ("byte flip", lambda: _flip(rng, data)),
        ("truncation", lambda: data[:rng.randrange(len(data))]),
        ("deep nesting", lambda: _replace_number(rng, data, deep[0] * DEEP + deep[1] * DEEP)),
        ("huge integer", lambda: _replace_number(rng, data, HUGE_DIGITS.encode())),
        ("huge float", lambda: _replace_number(rng, data, rng.choice([b"1e308", b"1e999", b"-1e308"]))),
        ("inf/nan", lambda: _replace_number(rng, data, rng.choice(inf))),
        ("wrong type", lambda: _replace_number(rng, data, rng.choice(wrong))),
        ("negative", lambda: _replace_number(rng, data, b"-" + str(rng.randint(1, 10 ** 6)).encode())),
        ("non-UTF-8", lambda: _insert(rng, data, rng.choice([b"\xff", b"\xc3\x28", b"\xe9t\xe9", b"\x80\x81"]))),
        ("line dropped or doubled", lambda: _line_edit(rng, data)),
    ]

    def one() -> tuple[str, bytes]:
        name, make = rng.choice(kinds)
        return name, make()

    return one


def _insert(rng: random.Random, data: bytes, what: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + what + data[at:]


# ------------------------------------------------------------------------------------- structured mutations

def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, leaf) of nested dicts and lists."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield from leaves(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from leaves(child, (*path, index))
    else:
        yield path, value


def numeric_paths(value: Any) -> list[tuple[Any, ...]]:
    return [p for p, leaf in leaves(value) if isinstance(leaf, int | float) and not isinstance(leaf, bool)]


def dict_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of every dict (where an unknown key can go)."""
    found = [path] if isinstance(value, dict) else []
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for key, child in children:
        found.extend(dict_paths(child, (*path, key)))
    return found


def set_at(value: Any, path: tuple[Any, ...], new: object) -> None:
    for key in path[:-1]:
        value = value[key]
    value[path[-1]] = new


def get_at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


# ------------------------------------------------------------------------------------------------ TOML

def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, int | str):
        return json.dumps(value) if isinstance(value, str) else str(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {value!r}")


def toml_text(data: dict[str, Any]) -> str:
    """`data` as TOML: scalars and lists first, then one [section] per table (its tables inline)."""
    lines = [f"{json.dumps(k)} = {toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for key, table in data.items():
        if isinstance(table, dict):
            lines.append(f"[{json.dumps(key)}]")
            lines.extend(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in table.items())
    return "\n".join(lines) + "\n"
