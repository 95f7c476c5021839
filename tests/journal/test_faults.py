"""Disk full and read-only: a clear fault on the ring and in the log, play goes on in memory, and the journal
catches up as soon as it can write again."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from conquista.journal import GameJournal, JournalStore
from conquista.table.colours import FAULT
from tests.journal.helpers import ROOT, attach, bot_referee, handle, play, raw_rows, replay_rows


def _journal_matches(data_dir: Path, referee) -> bool:  # type: ignore[no-untyped-def]
    header, rows, _ = raw_rows(data_dir, 1)
    return replay_rows(header, rows).digest() == referee.game.digest()


def test_disk_full_is_a_fault_and_the_journal_catches_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    journal = GameJournal(tmp_path)
    referee = bot_referee(6)
    attach(journal, referee)
    now = play(referee, 20)
    real = JournalStore.transaction

    @contextmanager
    def full(self: JournalStore) -> Iterator[sqlite3.Connection]:
        raise sqlite3.OperationalError("database or disk is full")
        yield self.conn  # pragma: no cover

    monkeypatch.setattr(JournalStore, "transaction", full)
    with caplog.at_level(logging.WARNING, logger="conquista.journal"):
        now = play(referee, 30, now)
    assert "disk full" in journal.fault and "play goes on" in journal.fault
    assert referee.storage_fault == journal.fault and journal.pending >= 30
    assert referee.scene(now - now % 1.0 + 0.1).ring[0] == FAULT and "disk full" in referee.status().message
    assert sum("disk full" in r.getMessage() for r in caplog.records) == 1       # logged once, not per action
    assert not _journal_matches(tmp_path, referee)
    monkeypatch.setattr(JournalStore, "transaction", real)
    play(referee, 1, now)                                 # the next action writes the whole backlog
    assert journal.fault == "" and referee.storage_fault == "" and journal.pending == 0
    assert _journal_matches(tmp_path, referee)


def test_a_read_only_database_is_a_fault_until_it_is_writable(tmp_path: Path) -> None:
    """SQLite's own read-only error (query_only makes any write fail as a read-only database would)."""
    journal = GameJournal(tmp_path)
    referee = bot_referee(7)
    attach(journal, referee)
    now = play(referee, 10)
    store = journal.store
    assert store is not None
    store.conn.execute("PRAGMA query_only = 1")
    now = play(referee, 10, now)
    assert "read-only" in journal.fault and not _journal_matches(tmp_path, referee)
    store.conn.execute("PRAGMA query_only = 0")
    assert journal.flush() and not journal.fault and _journal_matches(tmp_path, referee)


def test_undo_while_the_disk_refuses_is_caught_up_too(tmp_path: Path) -> None:

    from conquista.dice.sources import SeededDice
    from conquista.rules.events import Phase
    from conquista.rules.serialize import encode_action
    from conquista.table.gestures import Button, Press, Tap
    from conquista.table.referee import Referee
    from tests.rules.helpers import position, tid

    game = position("italian", owners={"alaska": 0, "alberta": 0}, phase=Phase.REINFORCE, state={"pool": 5})
    referee = Referee(game, SeededDice(1))
    journal = GameJournal(tmp_path)
    attach(journal, referee)
    store = journal.store
    assert store is not None
    handle(referee, Tap(tid("alaska")), 1.0)               # on disk
    store.conn.execute("PRAGMA query_only = 1")
    handle(referee, Tap(tid("alberta")), 2.0)              # in memory only
    handle(referee, Press(Button.CANCEL), 3.0)             # undone in memory
    handle(referee, Press(Button.CANCEL), 4.0)             # undoes one that is on disk
    handle(referee, Tap(tid("alberta")), 5.0)
    assert journal.fault and referee.game.pool == 4
    store.conn.execute("PRAGMA query_only = 0")
    assert journal.flush()
    expected = [json.dumps(encode_action(a, game.map), ensure_ascii=False) for a in referee.game.log]
    assert raw_rows(tmp_path, 1)[1] == expected


def test_a_data_dir_under_a_file_plays_in_memory_then_catches_up(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the data directory's parent should be")
    data_dir = blocker / "conquista"
    journal = GameJournal(data_dir)
    assert "cannot open the journal" in journal.fault and journal.store is None
    referee = bot_referee(6)
    attach(journal, referee)
    now = play(referee, 25)
    assert journal.fault and referee.storage_fault and journal.game_id is None
    blocker.unlink()
    play(referee, 1, now)
    assert not journal.fault and journal.game_id == 1 and _journal_matches(data_dir, referee)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes through chmod")
def test_a_read_only_directory(tmp_path: Path) -> None:
    journal = GameJournal(tmp_path / "data")
    referee = bot_referee(6)
    attach(journal, referee)
    now = play(referee, 5)
    journal.close()
    (tmp_path / "data").chmod(0o500)
    (tmp_path / "data" / "games.sqlite3").chmod(0o400)
    try:
        again = GameJournal(tmp_path / "data")
        referee.reset(referee.game, now)
        attach(again, referee)
        play(referee, 5, now)
        assert again.fault
    finally:
        (tmp_path / "data").chmod(0o700)
        (tmp_path / "data" / "games.sqlite3").chmod(0o600)


FSIZE_SCRIPT = """
import json, resource, signal, sys
from pathlib import Path
from conquista.journal import GameJournal, JOURNAL_NAME
from tests.journal.helpers import attach, bot_referee, play
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a write past the limit fails with EFBIG instead of killing us
data_dir = Path(sys.argv[1])
journal = GameJournal(data_dir)
referee = bot_referee(6)
attach(journal, referee)
now = play(referee, 20)
wal = data_dir / (JOURNAL_NAME + "-wal")
limit = max(wal.stat().st_size, (data_dir / JOURNAL_NAME).stat().st_size)
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))   # the disk is full from here
now = play(referee, 40, now)
full = {"fault": journal.fault, "pending": journal.pending, "actions": len(referee.game.log)}
resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
play(referee, 1, now)
print(json.dumps({"full": full, "fault": journal.fault, "pending": journal.pending,
                  "digest": referee.game.digest(), "actions": len(referee.game.log)}))
"""


def test_a_real_file_size_limit_in_a_subprocess(tmp_path: Path) -> None:
    """RLIMIT_FSIZE makes the kernel refuse to grow the files, as a full disk does."""
    proc = subprocess.run([sys.executable, "-c", FSIZE_SCRIPT, str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["full"]["fault"].startswith("journal not saved") and result["full"]["pending"] > 0
    assert result["fault"] == "" and result["pending"] == 0
    header, rows, _ = raw_rows(tmp_path, 1)
    assert len(rows) == result["actions"] and replay_rows(header, rows).digest() == result["digest"]
