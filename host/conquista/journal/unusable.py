"""A journal file that cannot be used at all, and the backup that stands in for it.

A power cut while the file is created, a damaged card or another program can leave `games.sqlite3` missing, empty,
not an SQLite database, or an SQLite database that is not ours, while the verified backup beside it still holds
every saved game up to its last turn boundary. Starting a fresh journal there would be the worst answer: its first
backup would replace the old one and every saved game would be gone. So:

- opened to write, such a file is moved aside (kept, under a name that says why) and the backup is copied in its
  place with SQLite's backup API; the game goes on from there;
- opened to read, the backup is read instead and nothing is moved;
- a backup that cannot stand in either is never replaced: it too is moved aside before a new journal starts, or the
  journal is refused, naming both files.

Functions here take paths and return values: the store decides what to do with them.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from conquista.journal.integrity import DAMAGED, connect, quick_check, why_unreadable
from conquista.journal.paths import make_private_file, side_files
from conquista.journal.schema import APPLICATION_ID, SQLITE_MAGIC

UNUSABLE_SUFFIX = ".unusable"
MISSING = "it is missing"
EMPTY = "it is empty"
HOLDS_NOTHING = (MISSING, EMPTY)       # problems of a file that held no game: nothing in it to keep


@contextmanager
def read_only(path: Path) -> Iterator[sqlite3.Connection]:
    conn = connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        yield conn
    finally:
        conn.close()


def journal_file_problem(path: Path) -> str | None:
    """Why `path` cannot be used as a conquista journal at all, read without writing; None when it can be opened
    as one (a damaged journal of ours is handled game by game elsewhere, see conquista.journal.repair)."""
    if not path.exists():
        return MISSING
    if path.is_dir():
        return None                     # refused by the store as a directory, with its own message
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError:
        return None                     # unreadable: the store names the OS error
    wal = path.with_name(path.name + "-wal")
    if not head:
        # SQLite may hold a new database's first pages in the WAL only: then it is not empty.
        return None if wal.exists() and wal.stat().st_size > 0 else EMPTY
    if head != SQLITE_MAGIC:
        return "it is not an SQLite database"
    try:
        with read_only(path) as conn:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    except sqlite3.Error:
        return None                     # damaged: the store's repair takes it from here
    if app_id == APPLICATION_ID:
        return None
    if tables:
        return "it is an SQLite database of another program"
    return "it holds no journal (its creation was cut short)"


def backup_problem(backup: Path) -> str | None:
    """Why the backup cannot stand in for the journal file, or None when it is a sound journal of ours."""
    if not backup.exists():
        return f"there is no backup {backup.name}"
    try:
        with read_only(backup) as conn:
            if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                return f"the backup {backup.name} is not a conquista journal either"
            damage = quick_check(conn)
    except sqlite3.Error as exc:
        return f"the backup {backup.name} is unreadable too ({why_unreadable(exc)})"
    return f"the backup {backup.name} is damaged too ({damage})" if damage else None


def set_aside(path: Path, suffix: str = UNUSABLE_SUFFIX) -> Path:
    """Move `path` and its side files to the first free name `path + suffix` (then `-2`, `-3`, …), never over
    another file; returns the new name."""
    target = path.with_name(path.name + suffix)
    n = 1
    while target.exists() or any(s.exists() for s in side_files(target)):
        n += 1
        target = path.with_name(f"{path.name}{suffix}-{n}")
    for source, moved in [(path, target), *zip(side_files(path), side_files(target), strict=True)]:
        if source.exists():
            os.replace(source, moved)
    return target


def copy_backup_into(backup: Path, path: Path) -> int:
    """Write the backup's whole database into `path` (which must not exist) with SQLite's backup API, in WAL mode
    as the journal is kept; returns how many games it holds."""
    make_private_file(path)
    target = connect(path)
    try:
        with read_only(backup) as source:
            source.backup(target)
        target.execute("PRAGMA journal_mode = WAL")
        return int(target.execute("SELECT count(*) FROM games").fetchone()[0])
    finally:
        target.close()


def game_keys(conn: sqlite3.Connection) -> set[str]:
    """The keys of the games a journal (or a copy of it) holds, damaged ones included: a damaged game is still
    worth keeping in the backup."""
    return {key for (key,) in conn.execute("SELECT key FROM games")}


def games_it_would_lose(copy: sqlite3.Connection, backup: Path) -> str | None:
    """Why `copy` must not replace `backup`: it lacks games the backup holds (None when it lacks none, or when
    the old backup cannot be read, which a fresh copy may then replace)."""
    try:
        with read_only(backup) as conn:
            old = game_keys(conn)
            ids = {key: gid for gid, key in conn.execute("SELECT id, key FROM games WHERE status != ?", (DAMAGED,))}
    except sqlite3.Error:
        return None
    lost = old - game_keys(copy)
    if not lost:
        return None
    named = sorted(ids[key] for key in lost if key in ids)
    which = f" (game {', '.join(map(str, named))})" if named else ""
    return f"the journal lacks {len(lost)} of the {len(old)} games the backup holds{which}"
