"""The table's log as a value: its lines, each new one added without copying the ones before (a persistent list
of chunks: a game of thousands of actions adds a line at the cost of a chunk of at most `CHUNK` lines), read as a
tail or whole. Pure.

Chunks rather than one record a line: a view reads the last 200 lines at every version, which is then a walk of
four records, not two hundred; and a long game holds a few dozen records for the garbage collector to look at,
not thousands."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain

from conquista.rules.records import frozen_record

CHUNK = 64   # lines a chunk holds before a new one begins


@frozen_record(slots=True, eq=False)
class LogLines:
    """The lines, newest last: the newest `chunk` (at most `CHUNK` lines) and the full chunks before it."""

    size: int = 0
    chunk: tuple[str, ...] = ()
    before: LogLines | None = None

    @staticmethod
    def of(lines: Iterable[str]) -> LogLines:
        log = NO_LINES
        for line in lines:
            log = log.added(line)
        return log

    @property
    def last(self) -> str:
        chunk = self.chunk
        return chunk[-1] if chunk else ""

    def added(self, line: str) -> LogLines:
        chunk = self.chunk
        if len(chunk) < CHUNK:
            return LogLines(self.size + 1, (*chunk, line), self.before)
        return LogLines(self.size + 1, (line,), self)

    def replaced_last(self, line: str) -> LogLines:
        """The last line said again (placements on one territory read as one line); the empty log's first."""
        chunk = self.chunk
        if not chunk:
            return self.added(line)
        return LogLines(self.size, (*chunk[:-1], line), self.before)

    def tail(self, count: int) -> tuple[str, ...]:
        """The last `count` lines, oldest first."""
        if count <= 0:
            return ()
        chunk = self.chunk
        if len(chunk) >= count:
            return chunk[len(chunk) - count:]
        chunks = [chunk]
        held = len(chunk)
        node = self.before
        while node is not None and held < count:
            chunks.append(node.chunk)
            held += len(node.chunk)
            node = node.before
        lines = tuple(chain.from_iterable(reversed(chunks)))   # in C: a line at a time in Python costs 10×
        return lines[max(0, len(lines) - count):]

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[str]:
        return iter(self.tail(self.size))

    def __getitem__(self, index: int) -> str:
        chunk = self.chunk
        if -len(chunk) <= index < 0:   # the newest lines, the usual read
            return chunk[index]
        return self.tail(self.size)[index]

    def __contains__(self, line: object) -> bool:
        return line in self.tail(self.size)


NO_LINES = LogLines()
