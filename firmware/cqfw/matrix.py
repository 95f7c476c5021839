"""Row/column scan of the diode matrix.

Rows are outputs idling high; columns are inputs with pull-ups. Driving one row low pulls low every column
whose switch on that row is closed; the diodes stop current flowing back through other rows, so any number of
keys can be down at once without ghost keys. No settling delay: a Pin call on the RP2040 takes microseconds,
far longer than the RC time of a board-sized matrix line.
"""

from cqfw.compat import TYPE_CHECKING

if TYPE_CHECKING:
    from cqfw.collaborators import Pins


class MatrixScanner:
    def __init__(self, rows: "Pins", cols: "Pins") -> None:
        self.rows = rows
        self.cols = cols
        self.nrows = len(rows)
        self.ncols = len(cols)
        self.keys = self.nrows * self.ncols

    def idle(self) -> None:
        for r in range(self.nrows):
            self.rows[r].value(1)

    def scan(self, raw: bytearray) -> None:
        """raw[row * ncols + col] = 1 for every closed switch."""
        rows = self.rows
        cols = self.cols
        ncols = self.ncols
        k = 0
        for r in range(self.nrows):
            pin = rows[r]
            pin.value(0)
            for c in range(ncols):
                raw[k] = 1 - cols[c].value()
                k += 1
            pin.value(1)
