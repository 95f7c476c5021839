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

from tests.referee_scan import Scan, targets
from tests.test_code_shape import ROOT, sources

ITS_OWN = {Path("host/conquista/table/referee.py"), Path("host/conquista/table/modes.py")}
# The referee's helpers that still fill its containers through `Desk` (table/desk.py) rather than returning what
# they decide: the log's recorder (the log's lines, the losses' blinks) and the turn clock's update. They go when
# the state becomes one value with one step (issue 36, "The table's state is one value"); nothing else may join.
THROUGH_THE_DESK = {"host/conquista/table/referee_log.py": {"referee.log.append", "referee.effects.append",
                                                            "log[-1]"},
                    "host/conquista/table/turn_clock.py": {"referee.turn_clock.update"}}


def referee_writes(source: str) -> list[tuple[int, str]]:
    """(line, target) of every change made to a referee's fields: an assignment (plain, augmented, annotated,
    unpacked, by subscript) to a referee's attribute or to anything inside one, and a method that changes what it
    is called on called on a referee's member (`referee.log.append(...)`, `claims.forget(...)` with `claims =
    referee.claims`), through every alias of the referee (tests/referee_scan.py)."""
    return Scan(source).writes()


def version_moves(source: str) -> list[int]:
    """Lines that assign or add to a `version` attribute."""
    return sorted(target.lineno for node in ast.walk(ast.parse(source)) for target in targets(node)
                  if isinstance(target, ast.Attribute) and target.attr == "version")


def test_no_module_but_the_referee_and_its_modes_writes_a_referee_field() -> None:
    found = [f"{path.relative_to(ROOT)}:{line} {target}"
             for path in sources() if path.relative_to(ROOT) not in ITS_OWN
             for line, target in referee_writes(path.read_text(encoding="utf-8"))
             if target not in THROUGH_THE_DESK.get(str(path.relative_to(ROOT)), ())]
    assert found == [], "hand the referee an input (table/inputs.py) through `step` instead: " + "; ".join(found)


def test_the_referee_moves_its_version_in_one_place() -> None:
    referee = (ROOT / "host/conquista/table/referee.py").read_text(encoding="utf-8")
    assert len(version_moves(referee)) == 2, "the version starts at 0 and moves only in `_end` (the change path's)"
    others = [f"{path.relative_to(ROOT)}:{line}" for path in sources() if path.name != "referee.py"
              for line in version_moves(path.read_text(encoding="utf-8"))
              if "table" in path.parts]
    assert others == [], "only the referee moves its version: " + "; ".join(others)


def test_the_write_scan_catches_each_form_of_write_through_every_alias_and_passes_reads() -> None:
    source = ("def f(referee, table, desk, other, mine: Referee):\n"
              "    referee.palette = 1\n"
              "    table.referee.hints_allowed, table.referee.hint_leds = True, False\n"
              "    desk.version += 1\n"
              "    self.referee.count: int = 2\n"
              "    other.palette = referee.palette\n"
              "    referee.step(x, 1.0)\n"
              "    referee.log.append('line')\n"
              "    r = table.referee\n"
              "    r.tournament.saved = 3\n"
              "    claims = r.claims\n"
              "    claims.forget(1)\n"
              "    mine.faults['x'] = 'y'\n"
              "    referee.view().game.owner\n"
              "    referee.menu.view()\n")
    assert referee_writes(source) == [(2, "referee.palette"), (3, "table.referee.hint_leds"),
                                      (3, "table.referee.hints_allowed"), (4, "desk.version"),
                                      (5, "self.referee.count"), (8, "referee.log.append"),
                                      (10, "r.tournament.saved"), (12, "claims.forget"), (13, "mine.faults['x']")]
    assert version_moves(source) == [4]
