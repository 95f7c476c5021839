"""Issue 22 §3: the journal keeps a checksummed snapshot every SNAPSHOT_EVERY actions; a resume starts from the last
good one and replays only what follows; a damaged snapshot is named and the whole log replayed instead."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from conquista.journal import JOURNAL_NAME, GameJournal, checkpoint, open_store
from conquista.rules.gamelog import parse_header
from conquista.rules.textdata import load_json
from tests.journal.helpers import attach, bot_referee, play, raw_rows, replay_rows

EVERY = 40


@pytest.fixture(autouse=True)
def _often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checkpoint, "SNAPSHOT_EVERY", EVERY)


def _played(data_dir: Path, actions: int) -> tuple[int, str]:
    """A journaled bot game stopped after `actions` actions without closing (a crash): its id and digest."""
    journal = GameJournal(data_dir)
    referee = bot_referee(3)
    attach(journal, referee)
    play(referee, actions)
    assert not referee.game.over and journal.game_id is not None
    return journal.game_id, referee.game.digest()


def _snapshots(data_dir: Path, game_id: int) -> list[tuple[int, str, str]]:
    conn = sqlite3.connect(data_dir / JOURNAL_NAME)
    try:
        return conn.execute("SELECT seq, state, chain FROM snapshots WHERE game = ? ORDER BY seq",
                            (game_id,)).fetchall()
    finally:
        conn.close()


def test_snapshots_are_kept_every_n_actions_and_checksummed_like_the_rows(tmp_path: Path) -> None:
    game_id, _ = _played(tmp_path, 5 * EVERY + 7)
    snapshots = _snapshots(tmp_path, game_id)
    assert len(snapshots) >= 4
    store = open_store(tmp_path, create=False)
    chains = [row[3] for row in store.saved_game(game_id).rows]
    store.close()
    for seq, state, chain in snapshots:
        assert chain == checkpoint.snapshot_sum(chains[seq - 1], state)
    # Each is the state the log reaches at its place, replayed independently.
    header, rows, _status = raw_rows(tmp_path, game_id)
    for seq, state, _chain in snapshots:
        assert load_json(state) == json.loads(json.dumps(replay_rows(header, rows[:seq]).snapshot()))


def test_a_resume_starts_from_the_last_snapshot_and_is_the_game_played(tmp_path: Path) -> None:
    game_id, digest = _played(tmp_path, 5 * EVERY + 7)
    header, rows, _status = raw_rows(tmp_path, game_id)
    store = open_store(tmp_path, create=False)
    saved = store.saved_game(game_id)
    found = checkpoint.read_snapshots(store.conn, game_id)
    restored = checkpoint.restore(parse_header(load_json(saved.header), "t"), saved.actions,
                                  [row[3] for row in saved.rows], found, "t")
    store.close()
    assert restored is not None and restored.digest() == digest
    assert restored.log == replay_rows(header, rows).log   # the whole log, not only what was replayed
    journal = GameJournal(tmp_path)
    game = journal.resume(game_id)
    assert game.digest() == digest and len(game.log) == len(rows) and not journal.warnings
    referee = bot_referee(3)
    referee.reset(game, 1000.0)
    attach(journal, referee)
    play(referee, 30, 1000.0)                                # and it plays on, journaled
    assert replay_rows(*raw_rows(tmp_path, game_id)[:2]).digest() == referee.game.digest()


def test_a_damaged_snapshot_is_named_and_the_whole_log_replayed(tmp_path: Path) -> None:
    game_id, digest = _played(tmp_path, 3 * EVERY + 5)
    seq, state, _chain = _snapshots(tmp_path, game_id)[-1]
    damaged = state.replace('"armies":[', '"armies":[9', 1)
    assert damaged != state
    conn = sqlite3.connect(tmp_path / JOURNAL_NAME)
    conn.execute("UPDATE snapshots SET state = ? WHERE game = ? AND seq = ?", (damaged, game_id, seq))
    conn.commit()
    conn.close()
    journal = GameJournal(tmp_path)
    game = journal.resume(game_id)
    assert game.digest() == digest
    said = [w for w in journal.warnings if f"snapshot after action {seq} is damaged" in w]
    assert len(said) == 1 and "the whole log is replayed instead" in said[0]
    journal.close()


def test_a_snapshot_whose_rows_were_taken_back_is_dropped(tmp_path: Path) -> None:
    journal = GameJournal(tmp_path)
    referee = bot_referee(5)
    attach(journal, referee)
    play(referee, EVERY + 5)
    assert journal.game_id is not None
    first = _snapshots(tmp_path, journal.game_id)[0][0]
    # Take back the rows the snapshot follows (to a move of a player: the bots then play on from there).
    while len(referee.game.log) >= first or referee.game.is_chance():
        journal.undo(referee.game.undo())
    assert all(seq <= len(referee.game.log) for seq, _s, _c in _snapshots(tmp_path, journal.game_id))
    referee.reset(referee.game, 1000.0)
    play(referee, EVERY + 3, 1000.0)
    journal.close()
    resumed = GameJournal(tmp_path).resume(journal.game_id)
    assert resumed.digest() == referee.game.digest()


def test_opening_finding_and_resuming_read_and_verify_the_game_once(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening the journal to write verifies the unfinished games; finding the one to resume and resuming it use
    what was verified then, and any write forgets it (the next read verifies again)."""
    from conquista.journal import integrity, repair, store

    game_id, digest = _played(tmp_path, 150)
    reads: list[int] = []
    real = integrity.read_game

    def counted(conn: sqlite3.Connection, gid: int, *, verify: bool = True) -> integrity.SavedGame | None:
        reads.append(gid)
        return real(conn, gid, verify=verify)

    monkeypatch.setattr(repair, "read_game", counted)
    monkeypatch.setattr(store, "read_game", counted)
    journal = GameJournal(tmp_path)
    saved = journal.latest_unfinished()
    assert saved is not None and saved.id == game_id
    game = journal.resume(game_id)
    assert game.digest() == digest and reads == [game_id]
    journal.store.set_status(game_id, "abandoned")  # type: ignore[union-attr]
    journal.store.info(game_id)                     # type: ignore[union-attr]
    assert reads == [game_id, game_id]
    journal.close()


def test_a_row_damaged_before_opening_is_still_refused_when_resuming(tmp_path: Path) -> None:
    """The verification done on opening is the one the resume relies on: a row changed on disk is found there."""
    game_id, _digest = _played(tmp_path, 150)
    conn = sqlite3.connect(tmp_path / JOURNAL_NAME)
    with conn:
        conn.execute("UPDATE actions SET action = replace(action, '\"', ' \"') WHERE game = ? AND seq = 7", (game_id,))
    conn.close()
    journal = GameJournal(tmp_path)
    assert any(f"game {game_id}" in w for w in journal.warnings)   # restored from the backup, or refused
    journal.close()
