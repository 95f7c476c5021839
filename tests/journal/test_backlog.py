"""The journal's backlog is a value (what the disk holds), and its fault leaves as the referee's input
`Fault(STORAGE, why)`, handed on by the app's router: the journal writes no field of the referee."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from conquista.app.routing import EffectRouter
from conquista.journal import GameJournal, JournalStore
from conquista.journal.backlog import Backlog
from conquista.table.inputs import Fault, FaultSource
from tests.journal.helpers import attach, bot_referee, play


def test_the_backlog_says_what_is_written_and_what_is_pending() -> None:
    disk = Backlog.written(5, "playing", None)
    assert disk.up_to_date(5, "playing") and disk.pending(5, "playing") == 0
    assert disk.pending(7, "finished") == 3 and not disk.up_to_date(7, "playing")
    unsure = disk.unsure(7)                       # a commit failed: the disk may hold all 7 rows
    assert (unsure.synced, unsure.may_hold) == (5, 7) and not unsure.up_to_date(5, "playing")
    assert disk.taken_back(4).synced == 4          # an undo in memory: 4 rows known on disk
    damaged = disk.damaged(5)
    assert (damaged.synced, damaged.may_hold, damaged.header_damaged) == (0, 5, True)


def test_the_storage_fault_leaves_the_journal_as_an_input_the_router_hands_to_the_referee(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = GameJournal(tmp_path)
    referee = bot_referee(6)
    router = EffectRouter(journal)
    router.storage = journal
    attach(journal, referee)
    assert journal.take_fault() == Fault(FaultSource.STORAGE, None) and journal.take_fault() is None
    now = play(referee, 20)
    real = JournalStore.transaction

    @contextmanager
    def full(self: JournalStore) -> Iterator[sqlite3.Connection]:
        raise sqlite3.OperationalError("database or disk is full")
        yield self.conn  # pragma: no cover

    monkeypatch.setattr(JournalStore, "transaction", full)
    now = play(referee, 30, now)        # routed as the router does: the fault reached the referee as an input
    rows = len(referee.game.log)
    assert referee.storage_fault == journal.fault and "disk is full" in journal.fault
    assert journal.take_fault() is None and journal.pending == journal.backlog.pending(rows, "playing") > 0
    monkeypatch.setattr(JournalStore, "transaction", real)
    assert journal.flush() and journal.backlog.up_to_date(rows, "playing")
    assert referee.storage_fault                                  # not yet told: the router tells it
    router.route(referee, now)
    assert referee.storage_fault == "" and journal.take_fault() is None
