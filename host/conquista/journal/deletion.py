"""`conquista games delete ID`: one saved game removed from the journal, its backup copy (else the next backup would
refuse to lose it, and a restore would bring it back), and its private dice-seed file (issue 39 §9)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from conquista.journal.dice_secret import remove_secret, secret_path
from conquista.journal.store import GameInfo, JournalError, JournalStore, describe_os_error

# Every table that holds rows of a game, by the column naming it; those created on first use may be missing.
GAME_TABLES = (("actions", "game"), ("snapshots", "game"), ("hints", "game"), ("revealed_seeds", "game"),
               ("table_settings", "game"), ("games", "id"))


def _delete_rows(conn: sqlite3.Connection, game_id: int) -> None:
    present = {name for (name,) in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    for table, column in GAME_TABLES:
        if table in present:
            conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (game_id,))   # names from GAME_TABLES only


def delete_game(store: JournalStore, game_id: int) -> GameInfo:
    """Remove game `game_id` (JournalError: no such game, or the file refuses); what it was."""
    info = store.info(game_id)
    row = store.conn.execute("SELECT key FROM games WHERE id = ?", (game_id,)).fetchone()
    key = row[0] if row else None
    try:
        with store.transaction() as conn:
            _delete_rows(conn, game_id)
        if key is not None and store.backup_path.exists():
            backup = sqlite3.connect(store.backup_path, isolation_level=None)
            try:
                found = backup.execute("SELECT id FROM games WHERE key = ?", (key,)).fetchone()
                if found is not None:
                    backup.execute("BEGIN IMMEDIATE")
                    _delete_rows(backup, found[0])
                    backup.execute("COMMIT")
            finally:
                backup.close()
        if key is not None:
            remove_secret(secret_path(Path(store.path), key))
    except (sqlite3.Error, OSError) as exc:
        raise JournalError(f"{store.path}: game {game_id} was not deleted ({describe_os_error(exc)})") from None
    return info
