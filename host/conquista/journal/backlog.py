"""`Backlog`: what of the followed game the journal's disk holds, as one value.

The journal keeps the whole game in memory (its rows, its status); a write that fails leaves some of it on no disk.
What the disk holds is this record, replaced whole at each change, so the journal never keeps a pair of counters or
flags that must be kept in step by hand: what memory holds beyond it (`pending`) is what the next write catches up.
"""

from __future__ import annotations

from conquista.journal.hint_counts import Counts
from conquista.journal.integrity import PLAYING, GameHeader
from conquista.rules.records import frozen_record


@frozen_record(slots=True)
class Backlog:
    synced: int = 0                     # rows [0, synced) are known to be on disk
    may_hold: int = 0                   # rows the disk may hold: more than `synced` after an undo or an unsure commit
    status: str = PLAYING               # the game's status on disk
    header: GameHeader | None = None    # the game's row in `games` as written (None: not written yet)
    header_damaged: bool = False        # that row was found damaged: it is written again from memory
    hints: Counts = ()                  # the hints each seat asked for, as the `hints` table holds them

    @staticmethod
    def written(rows: int, status: str, header: GameHeader | None, hints: Counts = ()) -> Backlog:
        """The disk has everything: `rows` rows, the status, the header, the hint counts."""
        return Backlog(rows, rows, status, header, False, hints)

    def pending(self, rows: int, status: str, hints: Counts = ()) -> int:
        """The changes memory holds beyond the disk (0 when the disk has everything)."""
        return rows - self.synced + (status != self.status) + (hints != self.hints)

    def up_to_date(self, rows: int, status: str, hints: Counts = ()) -> bool:
        """Nothing to write: the rows, none beyond them, the status and the hint counts are on disk (the header
        aside)."""
        return self.synced == rows == self.may_hold and status == self.status and hints == self.hints

    def taken_back(self, rows: int) -> Backlog:
        """The last row was undone in memory: at most `rows` rows are known to be on disk now."""
        return Backlog(min(self.synced, rows), self.may_hold, self.status, self.header, self.header_damaged,
                       self.hints)

    def unsure(self, rows: int) -> Backlog:
        """A commit failed: whether it landed is unknown, so the disk may hold every row memory has."""
        return Backlog(self.synced, max(self.may_hold, rows), self.status, self.header, self.header_damaged,
                       self.hints)

    def damaged(self, rows: int) -> Backlog:
        """The game was found damaged on disk: all of it is written again, its row in `games` too."""
        return Backlog(0, max(self.may_hold, rows), self.status, self.header, True, self.hints)
