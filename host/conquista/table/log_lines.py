"""The table's log as a value: its lines, each new one added without copying the ones before (a persistent list:
a game of thousands of actions adds a line at the cost of one record), read as a tail or whole. Pure."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from conquista.rules.records import frozen_record


@frozen_record(slots=True, eq=False)
class LogLines:
    """The lines, newest last: `last` and the lines before it (None: the empty log's)."""

    size: int = 0
    last: str = ""
    before: LogLines | None = None

    @staticmethod
    def of(lines: Iterable[str]) -> LogLines:
        log = NO_LINES
        for line in lines:
            log = log.added(line)
        return log

    def added(self, line: str) -> LogLines:
        return LogLines(self.size + 1, line, self)

    def replaced_last(self, line: str) -> LogLines:
        """The last line said again (placements on one territory read as one line)."""
        return LogLines(self.size, line, self.before)

    def tail(self, count: int) -> tuple[str, ...]:
        """The last `count` lines, oldest first."""
        out: list[str] = []
        node: LogLines | None = self
        while node is not None and node.size and len(out) < count:
            out.append(node.last)
            node = node.before
        out.reverse()
        return tuple(out)

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[str]:
        return iter(self.tail(self.size))

    def __getitem__(self, index: int) -> str:
        return self.tail(self.size)[index]

    def __contains__(self, line: object) -> bool:
        return line in self.tail(self.size)


NO_LINES = LogLines()
