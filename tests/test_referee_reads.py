"""Every screen reads the table's one view (issue 36), read from the code's syntax trees: no module of host/ or
simulator/ outside `conquista.table` reads a member of the referee but the three it offers the shell, its `step`
(every input, with the time), its `view` (the table at one version: table/table_view.py) and its `start` (a game
refereed from now on), and its outbox `take_effects`, which the router (app/routing.py) empties. Aliases are
followed: `r = table.referee`, a parameter annotated `Referee`, `claims = referee.claims`."""

from __future__ import annotations

from tests.referee_scan import Scan
from tests.test_code_shape import ROOT, sources

OFFERED = {"step", "view", "start", "take_effects"}
TABLE = ("host", "conquista", "table")


def test_no_module_outside_the_table_reads_a_referee_member_but_its_step_view_and_start() -> None:
    found = [f"{path.relative_to(ROOT)}:{line} {read}"
             for path in sources() if path.relative_to(ROOT).parts[:3] != TABLE
             for line, read in Scan(path.read_text(encoding="utf-8")).reads(OFFERED)]
    assert found == [], ("read the table's view (`referee.view()`, table/table_view.py) or hand the referee an "
                         "input (`step`): " + "; ".join(found))


def test_the_read_scan_finds_reads_through_every_alias() -> None:
    source = ("def f(referee, table, board: Referee, maybe: 'Referee | None', other):\n"
              "    a = referee.game\n"                 # 2: a plain read
              "    r = table.referee\n"
              "    b = r.version\n"                    # 4: through an alias
              "    c = board.mode\n"                   # 5: an annotated parameter
              "    d = maybe.status()\n"               # 6: an annotated union
              "    s = r\n"
              "    e = s.claims.open\n"                # 8: an alias of an alias
              "    referee.view().game\n"              # the view: allowed
              "    referee.step(x, 1.0)\n"             # the step: allowed
              "    other.game, table.game\n"           # not a referee
              "    self._referee.log\n")               # 12: a private attribute holding one
    assert [line for line, _read in Scan(source).reads(OFFERED)] == [2, 4, 5, 6, 8, 12]
