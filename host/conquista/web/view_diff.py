"""A view as the difference from the last one a screen was sent (issue 40): a television that watches bots play
took the whole public view (about 7.6 KiB) for every move, when one move changes a count, a line of the log and
the dice. The operations, applied in order to the last view, give the new one exactly (`apply`); the page does
the same in static/patch.js. A screen that connects (or reconnects) is sent the whole view first.

An operation is a JSON list:
- ``["=", path, value]``: the value at `path` (a list of keys and indices) becomes `value`;
- ``["-", path]``: the key at `path` goes;
- ``["<", path, drop, tail]``: the list at `path` loses its first `drop` items and gains `tail` at its end (the
  log, which scrolls: a new line is one short operation, not forty lines again).
"""

from __future__ import annotations

import functools
import json
from typing import Any

Path = list[str | int]
Op = list[Any]


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":")))


def diff(old: Any, new: Any, path: Path | None = None) -> list[Op]:
    """The operations that make `old` into `new` (none when they are equal)."""
    path = path or []
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        ops: list[Op] = []
        for key, value in new.items():
            if key not in old:
                ops.append(["=", [*path, key], value])
            else:
                ops += diff(old[key], value, [*path, key])
        ops += [["-", [*path, key]] for key in old if key not in new]
        return ops
    if isinstance(old, list) and isinstance(new, list):
        shifted = _scrolled(old, new, path)
        if shifted is not None:
            return [shifted]
        if len(old) == len(new) and all(isinstance(a, dict | list) for a in old):
            # Same length, items that are records (the territories, the seats): only the items that changed.
            out: list[Op] = []
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                out += diff(a, b, [*path, i])
            return out
    return [["=", path, new]]


def _scrolled(old: list[Any], new: list[Any], path: Path) -> Op | None:
    """The list as the old one's tail followed by new items, when it is one (and keeps at least half of it)."""
    if not old or not new:
        return None
    for drop in range(len(old) - (len(old) + 1) // 2 + 1):
        kept = len(old) - drop
        if kept <= len(new) and new[:kept] == old[drop:]:
            return ["<", path, drop, new[kept:]]
    return None


def apply(view: Any, ops: list[Op]) -> Any:
    """`view` with `ops` applied, as a new value (the old one is left as it was)."""
    out = json.loads(json.dumps(view))
    for op in ops:
        kind, path = op[0], op[1]
        if not path:
            if kind != "=":
                raise ValueError(f"view difference: {kind!r} needs a path")
            out = json.loads(json.dumps(op[2]))
            continue
        parent = out
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if kind == "=":
            parent[last] = op[2]
        elif kind == "-":
            del parent[last]
        elif kind == "<":
            parent[last] = parent[last][op[2]:] + op[3]
        else:
            raise ValueError(f"view difference: unknown operation {kind!r}")
    return out


def diff_text(old: str, new: str) -> str | None:
    """The operations from one serialised view to the next, serialised; None when the whole view is shorter."""
    ops = diff(json.loads(old), json.loads(new))
    text = json.dumps(ops, separators=(",", ":"))
    return text if len(text) < len(new) else None


@functools.lru_cache(maxsize=16)
def diff_between(old: str, new: str) -> str | None:
    """`diff_text`, computed once for every screen that was sent the same last view (the usual case)."""
    return diff_text(old, new)
