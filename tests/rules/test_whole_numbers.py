"""is_whole: the one check every loader makes of a count read from a file or a message."""

from __future__ import annotations

import pytest

from conquista.rules.textdata import is_whole


@pytest.mark.parametrize("value", [0, 1, 5])
def test_whole_numbers_in_range_pass(value: int) -> None:
    assert is_whole(value, 0, 5)


@pytest.mark.parametrize("value", [-1, 6, True, False, 1.0, "1", None, [1]])
def test_anything_else_fails(value: object) -> None:
    # true and false are ints to Python, but a file that says `armies = true` has made a mistake
    assert not is_whole(value, 0, 5)
