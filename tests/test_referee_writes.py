"""The table changes one way (issues 32 and 36), read from the code's syntax trees and from a state.

- No module of host/ or simulator/ but the table's step (table/table_step.py) and the referee's shell
  (table/referee.py, which holds the state of the moment) assigns a field of the referee or of a table's state: a
  change arrives as an input to `step` (table/inputs.py), with the time; the helpers, handed a `TableState`,
  return what they decide (table/decisions.py).
- The version moves in one place (`_Step.finish`, the end of every step).
- A table's state is a frozen value: its fields hold values, but for the engine's handle, the dice stream and the
  menu state machine (stepped as copies).
"""

from __future__ import annotations

import ast
import dataclasses
import enum
from pathlib import Path

import pytest

from conquista.rules.engine import Game
from conquista.table.colours import Palette
from tests.referee_scan import Scan, targets
from tests.test_code_shape import ROOT, sources

ITS_OWN = {Path("host/conquista/table/table_step.py"), Path("host/conquista/table/referee.py")}


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
             for line, target in referee_writes(path.read_text(encoding="utf-8"))]
    assert found == [], "hand the referee an input (table/inputs.py) through `step` instead: " + "; ".join(found)


def test_the_table_moves_its_version_in_one_place() -> None:
    stepper = (ROOT / "host/conquista/table/table_step.py").read_text(encoding="utf-8")
    assert len(version_moves(stepper)) == 1, "the version moves only at the end of a step (`_Step.finish`)"
    others = [f"{path.relative_to(ROOT)}:{line}" for path in sources() if path.name != "table_step.py"
              for line in version_moves(path.read_text(encoding="utf-8"))
              if "table" in path.parts]
    assert others == [], "only the table's step moves its version: " + "; ".join(others)


HANDLES = ("game", "dice")   # the engine's handle and the dice stream: their own mutators, their own history


def _is_value(value: object) -> bool:
    """Immutable through and through: a frozen record of values, a tuple of values, or a scalar."""
    if value is None or isinstance(value, str | int | float | bool | enum.Enum):
        return True
    if isinstance(value, tuple):
        return all(_is_value(v) for v in value)
    params = getattr(type(value), "__dataclass_params__", None)
    if params is not None:
        return bool(params.frozen) and all(_is_value(getattr(value, f.name)) for f in dataclasses.fields(value)
                                           if not isinstance(getattr(value, f.name), Game))
    from conquista.table.modes import Mode
    from conquista.table.setup_menu import SetupMenu

    if isinstance(value, SetupMenu):
        return True   # the menu's state machine: the table steps it as a copy (`SetupMenu.stepped`)
    if isinstance(value, Mode):   # the modes' own fields: the question, the dice typed in, the menu
        return all(_is_value(v) for v in vars(value).values())
    return False


def test_a_table_state_is_a_frozen_value_of_values() -> None:
    from conquista.dice.sources import SeededDice
    from conquista.table.gestures import Tap
    from conquista.table.inputs import Fault, FaultSource, SeatClaim
    from conquista.table.referee import Referee
    from tests.rules.helpers import dealt

    referee = Referee(dealt("classic", 3, seed=2), SeededDice(2))
    game = referee.view().game
    referee.step(SeatClaim(7, 1), 0.5)
    referee.step(Fault(FaultSource.STORAGE, "disk full"), 0.6)
    referee.step(Tap(next(t for t in range(game.map.size) if game.owner[t] != game.current)), 0.7)  # a flash
    referee.note("a line of the table's own")
    state = referee.state
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.message = "changed"   # type: ignore[misc]
    with pytest.raises(AttributeError):
        referee.no_such_field = 1   # the shell holds only the state of the moment
    referee.palette = Palette.COLOUR_BLIND   # a test's position: a new state, the one before left as it was
    assert referee.state is not state and state.palette is Palette.STANDARD
    mutable = [f.name for f in dataclasses.fields(state)
               if f.name not in HANDLES and not _is_value(getattr(state, f.name))]
    assert mutable == []
    assert len(state.log) > 0 and state.effects and state.claims.open is not None and state.faults


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
              "    claims.game.apply(1)\n"
              "    mine.faults['x'] = 'y'\n"
              "    referee.view().game.owner\n"
              "    referee.menu.view()\n")
    assert referee_writes(source) == [(2, "referee.palette"), (3, "table.referee.hint_leds"),
                                      (3, "table.referee.hints_allowed"), (4, "desk.version"),
                                      (5, "self.referee.count"), (8, "referee.log.append"),
                                      (10, "r.tournament.saved"), (12, "claims.game.apply"), (13, "mine.faults['x']")]
    assert version_moves(source) == [4]
