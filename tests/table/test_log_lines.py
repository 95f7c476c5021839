"""The table's log value (table/log_lines.py) against a plain list: every add, re-say and read agrees, across
chunk boundaries."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from conquista.table.log_lines import CHUNK, NO_LINES, LogLines

# Each step adds a line or says the last one again; long runs cross several chunks.
STEPS = st.lists(st.tuples(st.booleans(), st.text(max_size=3)), max_size=4 * CHUNK + 5)


@given(STEPS, st.integers(min_value=-3, max_value=5 * CHUNK))
def test_the_log_reads_as_the_list_it_was_made_from(steps: list[tuple[bool, str]], count: int) -> None:
    log, lines = NO_LINES, []
    for again, line in steps:
        if again:
            log = log.replaced_last(line)
            lines[-1:] = [line]
        else:
            log = log.added(line)
            lines.append(line)
    assert len(log) == len(lines)
    assert list(log) == lines
    assert log.last == (lines[-1] if lines else "")
    assert log.tail(count) == (tuple(lines[-count:]) if count > 0 else ())
    for index in (-1, -2, -CHUNK - 1, 0, len(lines) - 1):
        if -len(lines) <= index < len(lines):
            assert log[index] == lines[index]
    assert (steps[-1][1] in log) == (steps[-1][1] in lines) if steps else "x" not in log


def test_a_log_made_from_lines_keeps_the_one_it_was_added_to() -> None:
    first = LogLines.of(str(n) for n in range(CHUNK))
    second = first.added("next")
    assert list(first) == [str(n) for n in range(CHUNK)]   # the value before stays what it was
    assert second.tail(2) == (str(CHUNK - 1), "next")
