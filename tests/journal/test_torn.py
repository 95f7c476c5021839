"""A power cut mid-write: the journal's last write cut at every byte offset (and torn into zeros) is recovered up
to the last complete action, with a warning."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conquista.journal import JOURNAL_NAME, GameJournal, JournalStore
from conquista.journal.wal import FRAME_HEADER_SIZE
from conquista.rules.gamelog import parse_log_lines
from tests.journal.helpers import attach, bot_referee, play


def _last_write(tmp_path: Path) -> tuple[bytes, bytes, bytes, list[str]]:
    """(database file, WAL before the last action, WAL after it, digests by action count) of a short game."""
    source = tmp_path / "source"
    journal = GameJournal(source)
    referee = bot_referee(2)
    attach(journal, referee)
    play(referee, 12)
    db, wal = source / JOURNAL_NAME, source / f"{JOURNAL_NAME}-wal"
    before_db, before = db.read_bytes(), wal.read_bytes()
    play(referee, 1)
    after = wal.read_bytes()
    assert db.read_bytes() == before_db and after.startswith(before) and len(after) > len(before)
    store = journal.store
    assert store is not None
    states = []
    for count in range(1, len(referee.game.log) + 1):
        lines = store.log_lines(1)[:count + 1]
        states.append(parse_log_lines(lines, "x")[1].digest())
    return before_db, before, after, states


def _recover(where: Path, db: bytes, wal: bytes) -> tuple[int, str, list[str]]:
    if where.exists():
        shutil.rmtree(where)
    where.mkdir()
    (where / JOURNAL_NAME).write_bytes(db)
    (where / f"{JOURNAL_NAME}-wal").write_bytes(wal)
    store = JournalStore(where / JOURNAL_NAME)
    try:
        game = store.load(1)[1]
        return len(game.log), game.digest(), store.warnings
    finally:
        store.close()


def test_cut_at_every_byte_of_the_last_write(tmp_path: Path) -> None:
    db, before, after, states = _last_write(tmp_path)
    complete = len(states)
    for cut in range(len(before), len(after) + 1):
        actions, digest, warnings = _recover(tmp_path / "cut", db, after[:cut])
        if cut == len(after):
            assert (actions, digest, warnings) == (complete, states[-1], []), cut
        else:
            assert (actions, digest) == (complete - 1, states[-2]), cut
            # Cut before its first byte, the write never began: nothing was torn.
            assert bool(warnings) == (cut > len(before)), (cut, warnings)
            if warnings:
                assert "torn" in warnings[0] and "recovered up to the last complete action" in warnings[0]


def test_torn_into_garbage_at_every_offset(tmp_path: Path) -> None:
    """The same length on disk, but the sectors from `cut` on never got the new bytes (zeros instead)."""
    db, before, after, states = _last_write(tmp_path)
    for cut in range(len(before), len(after), 3):
        torn = after[:cut] + bytes(len(after) - cut)
        actions, digest, warnings = _recover(tmp_path / "zero", db, torn)
        assert (actions, digest) == (len(states) - 1, states[-2]), cut
        # With its salts intact the frame is recognisably this write's, so the tear is reported; zeros over the
        # salts make it look like a frame of an older generation, which SQLite ignores just the same.
        if cut >= len(before) + FRAME_HEADER_SIZE - 8:
            assert warnings, cut


def test_the_warning_is_given_once(tmp_path: Path) -> None:
    db, _before, after, states = _last_write(tmp_path)
    where = tmp_path / "once"
    assert _recover(where, db, after[:-100])[2]
    store = JournalStore(where / JOURNAL_NAME)     # recovery folded the WAL into the database
    assert store.warnings == [] and len(store.load(1)[1].log) == len(states) - 1
    store.close()


@pytest.mark.parametrize("cut", [1, 20, 31])
def test_a_torn_wal_header_loses_only_that_write(tmp_path: Path, cut: int) -> None:
    """The first write after the log was reset carries the WAL header: cut inside it, nothing of it counts."""
    db, before, after, states = _last_write(tmp_path)
    where = tmp_path / "header"
    # Fold everything but the last write into the database, then tear a fresh WAL's header.
    _recover(where, db, after[:len(before)])
    store = JournalStore(where / JOURNAL_NAME)
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    folded = (where / JOURNAL_NAME).read_bytes()
    actions, digest, warnings = _recover(tmp_path / "header2", folded, after[:cut])
    assert (actions, digest) == (len(states) - 1, states[-2]) and warnings
