"""The journal's SQL schema (see conquista.journal.store) and its upgrades."""

from __future__ import annotations

import sqlite3

from conquista.journal.integrity import (
    TIMED_CHAINS_SINCE,
    GameDamaged,
    chain_of,
    chain_step,
    read_game_row,
    timed_chain_of,
)

APPLICATION_ID = 0x436F6E71      # "Conq": tells our journal from any other SQLite file
SCHEMA_VERSION = TIMED_CHAINS_SINCE
# Small pages: a commit writes whole pages to the WAL, and an action row is ~100 bytes, so 1 KiB pages keep the
# bytes written (and fsynced) per tap low; the deal row is the only one that spills to an overflow page.
PAGE_SIZE = 1024
SQLITE_MAGIC = b"SQLite format 3\x00"

SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    header TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    players INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    winner INTEGER NOT NULL DEFAULT -1,
    length INTEGER NOT NULL DEFAULT 0,
    seats TEXT,
    seed TEXT,
    header_sum TEXT NOT NULL DEFAULT ''
);
CREATE TABLE actions (
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    turn INTEGER NOT NULL,
    at REAL NOT NULL,
    chain TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
"""

UPGRADE_1_TO_2 = """
ALTER TABLE games ADD COLUMN length INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN seats TEXT;
ALTER TABLE games ADD COLUMN seed TEXT;
ALTER TABLE actions ADD COLUMN chain TEXT NOT NULL DEFAULT ''
"""
UPGRADE_2_TO_3 = "ALTER TABLE games ADD COLUMN header_sum TEXT NOT NULL DEFAULT ''"


def upgrade(conn: sqlite3.Connection, version: int) -> None:
    """Bring a journal of `version` up to SCHEMA_VERSION (inside the caller's transaction)."""
    if version < 2:
        upgrade_1_to_2(conn)
    if version < 3:
        upgrade_2_to_3(conn)
    if version < 4:
        upgrade_3_to_4(conn)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def upgrade_1_to_2(conn: sqlite3.Connection) -> None:
    """Add the columns, and compute each game's length and checksums from its rows as they are."""
    for statement in UPGRADE_1_TO_2.split(";"):
        conn.execute(statement)
    for gid, key in conn.execute("SELECT id, key FROM games").fetchall():
        seqs, actions = [], []
        for seq, action in conn.execute("SELECT seq, action FROM actions WHERE game = ? ORDER BY seq", (gid,)):
            seqs.append(seq)
            actions.append(action)
        chains = chain_of(key, actions)
        conn.executemany("UPDATE actions SET chain = ? WHERE game = ? AND seq = ?",
                         [(chain, gid, seq) for seq, chain in zip(seqs, chains, strict=True)])
        conn.execute("UPDATE games SET length = ? WHERE id = ?", (len(actions), gid))


def upgrade_2_to_3(conn: sqlite3.Connection) -> None:
    """Add `header_sum`, computed from each game's header as it is (as version 2 computed the rows' checksums from
    the rows). A game whose header the journal cannot read keeps an empty one: it reads as damaged, as before."""
    conn.execute(UPGRADE_2_TO_3)
    sums = []
    for gid in [gid for (gid,) in conn.execute("SELECT id FROM games")]:
        try:
            game = read_game_row(conn, gid, verify=False)
        except GameDamaged:
            continue
        if game is not None:
            sums.append((game.game_header.checksum(), gid))
    conn.executemany("UPDATE games SET header_sum = ? WHERE id = ?", sums)


def upgrade_3_to_4(conn: sqlite3.Connection) -> None:
    """Checksums that cover each row's turn and time too, computed again for every game whose rows hold under the
    old checksums; a game that does not hold keeps them, and so still reads as damaged."""
    for gid, key in conn.execute("SELECT id, key FROM games").fetchall():
        rows = conn.execute("SELECT seq, action, turn, at, chain FROM actions WHERE game = ? ORDER BY seq",
                            (gid,)).fetchall()
        previous = key
        for expected, (seq, action, _turn, _at, chain) in enumerate(rows):
            previous = chain_step(previous, seq, action)
            if seq != expected or chain != previous:
                break
        else:
            chains = timed_chain_of(key, [(action, turn, at) for _seq, action, turn, at, _chain in rows])
            conn.executemany("UPDATE actions SET chain = ? WHERE game = ? AND seq = ?",
                             [(chain, gid, seq) for (seq, *_row), chain in zip(rows, chains, strict=True)])
