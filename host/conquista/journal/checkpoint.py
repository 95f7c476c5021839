"""Snapshots of a journaled game, so that a resume need not replay the whole log (issue 22 §3).

Every `SNAPSHOT_EVERY` actions the journal keeps the game's state (`Game.snapshot()`, as JSON) in the `snapshots`
table, in the same transaction as the row it follows. A snapshot is checksummed like the rows: its checksum covers
the row chain's checksum at its place (conquista.journal.integrity) and the state's text, so it can only be used
with the very rows it was taken after, and a damaged one is seen. A resume builds the game from the last snapshot
that checks out and replays only the actions after it; when that snapshot is damaged it says so and replays the
whole log, as before snapshots. The game's log still holds every action (the dice's stream position, exports and
the journal itself count them); only the undo history starts at the snapshot, and a resumed game's table starts
its own undo history afresh anyway.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from conquista.errors import ConquistaError
from conquista.rules.actions import Action
from conquista.rules.engine import Game
from conquista.rules.gamelog import LogHeader
from conquista.rules.serialize import decode_action

SNAPSHOT_EVERY = 1000  # actions between snapshots: a resume replays at most this many (plus the turn in play)


# Created by the first snapshot written: a journal without one keeps the pages it had (and its schema version: a
# conquista that predates snapshots reads the journal as before, ignoring the table).
CREATE_TABLE = ("CREATE TABLE IF NOT EXISTS snapshots (game INTEGER NOT NULL, seq INTEGER NOT NULL, "
                "state TEXT NOT NULL, chain TEXT NOT NULL, PRIMARY KEY (game, seq)) WITHOUT ROWID")


def write_snapshot(conn: sqlite3.Connection, game_id: int, seq: int, state: str, chain: str) -> None:
    """Keep a snapshot (inside the caller's transaction)."""
    conn.execute(CREATE_TABLE)
    conn.execute("INSERT OR REPLACE INTO snapshots (game, seq, state, chain) VALUES (?, ?, ?, ?)",
                 (game_id, seq, state, chain))


def drop_snapshots_after(conn: sqlite3.Connection, game_id: int, seq: int) -> None:
    """Forget the snapshots past row `seq` (their rows were taken back); nothing if there never was one."""
    if conn.execute("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'snapshots'").fetchone():
        conn.execute("DELETE FROM snapshots WHERE game = ? AND seq > ?", (game_id, seq))


def snapshot_sum(chain: str, state: str) -> str:
    """The checksum of a snapshot taken after the row whose chained checksum is `chain`."""
    return hashlib.sha256(f"{chain}\nsnapshot\n{state}".encode()).hexdigest()[:32]


def snapshot_text(game: Game) -> str:
    return json.dumps(game.snapshot(), ensure_ascii=False, separators=(",", ":"))


def due(length: int, last: int) -> bool:
    """A snapshot is due after `length` rows when a multiple of SNAPSHOT_EVERY was passed since the one at `last`."""
    return length // SNAPSHOT_EVERY > last // SNAPSHOT_EVERY


@dataclass(frozen=True)
class Snapshot:
    seq: int        # the rows it follows: the state after actions 0 .. seq-1
    state: str
    chain: str


def read_snapshots(conn: sqlite3.Connection, game_id: int) -> list[Snapshot]:
    """The game's snapshots, latest first (none from a journal or backup written before snapshots)."""
    try:
        found = conn.execute("SELECT seq, state, chain FROM snapshots WHERE game = ? ORDER BY seq DESC",
                             (game_id,)).fetchall()
    except sqlite3.DatabaseError:
        return []
    return [Snapshot(seq, state, chain) for seq, state, chain in found
            if isinstance(seq, int) and isinstance(state, str) and isinstance(chain, str)]


class SnapshotDamaged(Exception):
    """The latest snapshot did not check out: the message names it and says the whole log is replayed instead."""

    def __init__(self, where: str, seq: int, problem: str) -> None:
        super().__init__(f"{where}: the snapshot after action {seq} is damaged ({problem}); "
                         f"the whole log is replayed instead")


def restore(header: LogHeader, actions: Sequence[str], chains: Sequence[str], snapshots: Sequence[Snapshot],
            where: str) -> Game | None:
    """The game from its latest snapshot that the verified rows (`actions`, with their `chains`) reach, with the
    actions after it replayed; None when there is none (a game saved before snapshots, or a short one). Raises
    SnapshotDamaged when that snapshot does not check out, for the caller to say so and replay the whole log."""
    usable = [s for s in snapshots if 1 < s.seq <= len(actions)]
    if not usable:
        return None
    latest = usable[0]
    if latest.chain != snapshot_sum(chains[latest.seq - 1], latest.state):
        raise SnapshotDamaged(where, latest.seq, "it does not match its checksum")
    try:
        game = Game.from_snapshot(json.loads(latest.state), header.rules, header.game_map)
        # Every row is what the journal wrote (their chain was verified): decoded for the log, replayed after it.
        # Actions are immutable and a long game repeats the same rows (its ends of phase, its rolls): each text is
        # decoded once.
        game_map = header.game_map
        decoded: dict[str, Action] = {}
        log = []
        for text in actions:
            action = decoded.get(text)
            if action is None:
                action = decoded[text] = decode_action(json.loads(text), game_map)
            log.append(action)
        for action in log[latest.seq:]:
            game.apply(action)
    except (ValueError, TypeError, KeyError, AttributeError, ConquistaError) as exc:
        raise SnapshotDamaged(where, latest.seq, f"it does not load: {str(exc)[:80]}") from None
    game.log = log
    return game
