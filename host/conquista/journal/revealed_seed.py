"""The seed of a committed game once the game is over and the seed revealed, kept with the game so that
`conquista dice audit ID` checks every roll without --verify-seed (issue 39 §3): the line that showed it at the end
is easy to miss, and the private file that kept it secret during play (conquista.journal.dice_secret) is removed.

The seeds live in the `revealed_seeds` table, created with the first seed written, as the hints' table is: a journal
without it keeps its schema version, and a game without a row has no seed kept. A seed is read back checked (64 hex
digits); anything else reads as none, and the audit then says so as for a game without one.
"""

from __future__ import annotations

import re
import sqlite3

CREATE_TABLE = ("CREATE TABLE IF NOT EXISTS revealed_seeds (game INTEGER PRIMARY KEY, seed TEXT NOT NULL) "
                "WITHOUT ROWID")
SEED = re.compile(r"[0-9a-f]{16,128}")


def write_revealed_seed(conn: sqlite3.Connection, game_id: int, seed: str) -> None:
    """Keep game `game_id`'s revealed seed (hex; inside the caller's transaction)."""
    conn.execute(CREATE_TABLE)
    conn.execute("INSERT OR REPLACE INTO revealed_seeds (game, seed) VALUES (?, ?)", (game_id, seed))


def read_revealed_seed(conn: sqlite3.Connection, game_id: int) -> str | None:
    """The seed kept for game `game_id`, or None (none kept, a journal from before seeds were kept, or damage)."""
    try:
        if not conn.execute("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'revealed_seeds'").fetchone():
            return None
        row = conn.execute("SELECT seed FROM revealed_seeds WHERE game = ?", (game_id,)).fetchone()
    except sqlite3.DatabaseError:
        return None
    if row is None or not isinstance(row[0], str) or SEED.fullmatch(row[0]) is None:
        return None
    return str(row[0])
