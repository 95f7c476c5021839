"""Two rules of the house's shape in host/ and simulator/, read from the code's syntax trees.

- No function is longer than 80 lines: one that is runs several steps together that want names of their own (a
  session's steps, one device after another), and its state ends up in cells its closures share.
- No module reaches another object's private lock (`other._lock`): the object that owns a lock keeps it, and gives
  the small methods others need (the link reads its session under its lock for the sensor source).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = (ROOT / "host", ROOT / "simulator")
MAX_FUNCTION_LINES = 80


def long_functions(source: str, limit: int = MAX_FUNCTION_LINES) -> list[tuple[str, int, int]]:
    """(name, first line, length) of every function or method longer than `limit` lines, decorators left out."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            length = node.end_lineno - node.lineno + 1
            if length > limit:
                out.append((node.name, node.lineno, length))
    return out


def foreign_locks(source: str) -> list[tuple[int, str]]:
    """(line, expression) of every private lock attribute read on anything but `self` or `cls`."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and "lock" in node.attr.lower()
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
            out.append((node.lineno, ast.unparse(node)))
    return out


def sources() -> list[Path]:
    files = sorted(path for root in SCANNED for path in root.rglob("*.py"))
    assert len(files) > 100, "the scan found too few files: is the layout still host/ and simulator/?"
    return files


def test_no_function_in_host_or_simulator_is_longer_than_80_lines() -> None:
    found = [f"{path.relative_to(ROOT)}:{line} {name} ({length} lines)"
             for path in sources() for name, line, length in long_functions(path.read_text(encoding="utf-8"))]
    assert found == [], "split these by meaning (named steps, one concern each): " + "; ".join(found)


def test_no_module_reaches_another_objects_private_lock() -> None:
    found = [f"{path.relative_to(ROOT)}:{line} {expression}"
             for path in sources() for line, expression in foreign_locks(path.read_text(encoding="utf-8"))]
    assert found == [], "give the lock's owner the method this needs: " + "; ".join(found)


def test_the_length_scan_finds_a_long_function_and_passes_a_short_one() -> None:
    body = "".join(f"    x{n} = {n}\n" for n in range(80))
    long_one = f"class A:\n    def step(self) -> None:\n    {body.replace(chr(10) + '    ', chr(10) + '        ')}"
    assert long_functions(f"def f() -> None:\n{body}") == [("f", 1, 81)]
    assert long_functions(long_one)[0][:2] == ("step", 2)
    assert long_functions(f"def f() -> None:\n{body}", limit=81) == []


def test_the_lock_scan_finds_a_reach_into_another_objects_lock() -> None:
    source = ("class Source:\n"
              "    def health(self):\n"
              "        with self._link._lock:\n"
              "            return self._link.session.health\n"
              "    def own(self):\n"
              "        with self._lock, self._write_lock:\n"
              "            return link._state_lock\n")
    assert foreign_locks(source) == [(3, "self._link._lock"), (7, "link._state_lock")]
