"""The buzzer's cues: which change of the table plays which tune, and each tune as a function of time."""

from __future__ import annotations

import math

import pytest

from conquista.table.buzzer_cues import TUNES, Cue, TableSnapshot, Tune, cues_between

CALM = TableSnapshot(current=0, owner=(0, 1, 2, 1), alive=frozenset({0, 1, 2}), last_refusal=-math.inf,
                     fault=False, over=False)


def changed(**fields: object) -> TableSnapshot:
    return TableSnapshot(**{**CALM.__dict__, **fields})  # type: ignore[arg-type]


@pytest.mark.parametrize(("after", "expected"), [
    (CALM, []),
    (changed(current=1), [Cue.TURN_START]),
    (changed(owner=(0, 0, 2, 1)), [Cue.CONQUEST]),
    (changed(owner=(0, 1, 0, 1), alive=frozenset({0, 1})), [Cue.ELIMINATION, Cue.CONQUEST]),
    (changed(last_refusal=3.0), [Cue.REFUSED]),
    (changed(fault=True), [Cue.FAULT]),
    (changed(current=1, over=True), []),
])
def test_each_change_of_the_table_has_its_cue(after: TableSnapshot, expected: list[Cue]) -> None:
    assert cues_between(CALM, after) == expected


def test_a_fault_that_stays_plays_once() -> None:
    faulty = changed(fault=True)
    assert cues_between(faulty, faulty) == []


def test_a_tune_plays_its_notes_in_order_then_falls_silent() -> None:
    tune = Tune(Cue.REFUSED, start=10.0)
    assert [tune.frequency_at(10.0 + t) for t in (-0.01, 0.0, 0.1, 0.14, 0.2, 0.3)] == [
        None, 196.0, 196.0, None, 196.0, None]
    assert tune.over(10.3) and not tune.over(10.2)


def test_every_tune_is_short_and_distinct() -> None:
    assert all(sum(d for _, d in notes) <= 1.5 for notes in TUNES.values())
    assert len({notes for notes in TUNES.values()}) == len(Cue)
