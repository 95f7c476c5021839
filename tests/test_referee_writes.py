"""The referee changes one way (issue 32), read from the code's syntax trees.

- No module of host/ or simulator/ but the referee (table/referee.py) and its modes (table/modes.py) assigns a field
  of the referee: a change arrives as an input to `Referee.step` (table/inputs.py), with the time; the referee's
  helpers return what they decide, or call its methods.
- The referee moves its version in one place (`_end`, the close of the change path `_change` that every input and
  entry point takes).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_code_shape import ROOT, sources

OWNERS = {"referee", "_referee", "desk", "ref"}   # the names the referee goes by: `referee`, `table.referee`, ...
ITS_OWN = {Path("host/conquista/table/referee.py"), Path("host/conquista/table/modes.py")}


def _owner(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        found = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        found = [node.target]
    else:
        return []
    out: list[ast.expr] = []
    while found:
        target = found.pop()
        if isinstance(target, ast.Tuple | ast.List):
            found.extend(target.elts)
        elif isinstance(target, ast.Starred):
            found.append(target.value)
        else:
            out.append(target)
    return out


def referee_writes(source: str) -> list[tuple[int, str]]:
    """(line, target) of every assignment (plain, augmented, annotated, unpacked) to an attribute of a referee:
    `referee.x = `, `desk.x += `, `self.referee.x = `, `table.referee.x, y = `."""
    out = []
    for node in ast.walk(ast.parse(source)):
        for target in _targets(node):
            if isinstance(target, ast.Attribute) and _owner(target.value) in OWNERS:
                out.append((target.lineno, ast.unparse(target)))
    return sorted(out)


def version_moves(source: str) -> list[int]:
    """Lines that assign or add to a `version` attribute."""
    return sorted(target.lineno for node in ast.walk(ast.parse(source)) for target in _targets(node)
                  if isinstance(target, ast.Attribute) and target.attr == "version")


def test_no_module_but_the_referee_and_its_modes_writes_a_referee_field() -> None:
    found = [f"{path.relative_to(ROOT)}:{line} {target}"
             for path in sources() if path.relative_to(ROOT) not in ITS_OWN
             for line, target in referee_writes(path.read_text(encoding="utf-8"))]
    assert found == [], "hand the referee an input (table/inputs.py) through `step` instead: " + "; ".join(found)


def test_the_referee_moves_its_version_in_one_place() -> None:
    referee = (ROOT / "host/conquista/table/referee.py").read_text(encoding="utf-8")
    assert len(version_moves(referee)) == 2, "the version starts at 0 and moves only in `_end` (the change path's)"
    others = [f"{path.relative_to(ROOT)}:{line}" for path in sources() if path.name != "referee.py"
              for line in version_moves(path.read_text(encoding="utf-8"))
              if "table" in path.parts]
    assert others == [], "only the referee moves its version: " + "; ".join(others)


def test_the_write_scan_catches_each_form_of_write_and_passes_reads() -> None:
    source = ("def f(referee, table, desk, other):\n"
              "    referee.palette = 1\n"
              "    table.referee.hints_allowed, table.referee.hint_leds = True, False\n"
              "    desk.version += 1\n"
              "    self.referee.count: int = 2\n"
              "    other.palette = referee.palette\n"
              "    referee.step(x, 1.0)\n"
              "    referee.log.append('line')\n")
    assert referee_writes(source) == [(2, "referee.palette"), (3, "table.referee.hint_leds"),
                                      (3, "table.referee.hints_allowed"), (4, "desk.version"),
                                      (5, "self.referee.count")]
    assert version_moves(source) == [4]
