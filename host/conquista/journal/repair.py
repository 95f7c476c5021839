"""The journal's backup copy, and what happens to a damaged game.

The backup (`games.sqlite3.backup` next to the journal, 0600) is made with SQLite's online backup API at turn
boundaries and kept only once the copy passes `PRAGMA quick_check` and every game in it is whole: a damaged journal
never overwrites a good backup. When a game in the journal is not whole, the backup's copy of it is used instead,
with one warning line saying so and how far it goes; when the backup has no whole copy either, the game is refused
by name (status "damaged") and never resumed from a shorter history. Other games are not affected.

Opened to write, a journal is repaired at once: a damaged game's rows are replaced by the backup's, and a file that
fails `quick_check` (a damaged page) is set aside as `games.sqlite3.damaged` and rebuilt from every game that is
still whole in it or in the backup.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from conquista.journal.integrity import (
    DAMAGED,
    PLAYING,
    GameDamaged,
    SavedGame,
    connect,
    game_ids,
    quick_check,
    read_game,
    why_unreadable,
    write_game,
)
from conquista.journal.paths import make_private_file, side_files
from conquista.journal.unusable import games_it_would_lose

if TYPE_CHECKING:
    from conquista.journal.store import JournalStore

DAMAGED_SUFFIX = ".damaged"


@contextmanager
def _read_only(path: Path) -> Iterator[sqlite3.Connection]:
    conn = connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        yield conn
    finally:
        conn.close()


def _restored_text(store: JournalStore, game: SavedGame, reason: str) -> str:
    return (f"{store.path}: game {game.id} is damaged ({reason}); restored from the backup "
            f"{store.backup_path.name}: {len(game.rows)} actions, to turn {game.turn} (any later actions are lost)")


def _refused_text(store: JournalStore, game_id: int, reason: str, why: str) -> str:
    return (f"{store.path}: game {game_id} is damaged ({reason}) and {why}; it is refused, never resumed "
            f"from a shorter history (other games are not affected)")


def playing_ids(conn: sqlite3.Connection) -> list[int]:
    return [gid for (gid,) in conn.execute("SELECT id FROM games WHERE status = ? ORDER BY id", (PLAYING,))]


def _not_whole(conn: sqlite3.Connection) -> tuple[int | None, str] | None:
    """Why a fresh copy is not whole: the file's structure, any game's row count against its recorded length,
    then every game's checksums (a finished game's rows can be damaged long after they were written)."""
    problem = quick_check(conn)
    if problem is not None:
        return None, problem
    short = conn.execute("SELECT g.id, g.length, count(a.seq) FROM games g LEFT JOIN actions a ON a.game = g.id "
                         "WHERE g.status != ? GROUP BY g.id HAVING count(a.seq) != g.length", (DAMAGED,)).fetchone()
    if short is not None:
        return short[0], f"{short[2]} of its {short[1]} actions are readable"
    for (gid,) in conn.execute("SELECT id FROM games WHERE status != ? ORDER BY id", (DAMAGED,)).fetchall():
        try:
            read_game(conn, gid)
        except (GameDamaged, sqlite3.DatabaseError) as exc:
            return gid, why_unreadable(exc)
    return None


def backup_game_ids(backup: Path) -> list[int]:
    try:
        with _read_only(backup) as conn:
            return game_ids(conn)
    except sqlite3.Error:
        return []


def backup_copy(store: JournalStore, game_id: int) -> tuple[SavedGame | None, str]:
    """The backup's whole copy of a game, or None and why there is none."""
    if not store.backup_path.exists():
        return None, "there is no backup to restore it from"
    try:
        with _read_only(store.backup_path) as conn:
            damage = quick_check(conn)
            if damage:
                return None, f"the backup is damaged too ({damage})"
            game = read_game(conn, game_id)
    except (GameDamaged, sqlite3.Error) as exc:
        return None, f"the backup's copy is damaged too ({why_unreadable(exc)})"
    if game is None:
        return None, "the backup does not hold it"
    return game, ""


def from_backup(store: JournalStore, game_id: int, reason: str) -> SavedGame:
    """Read-only restore: the backup's copy of a damaged game (warning once), else GameRefusedError."""
    from conquista.journal.store import GameRefusedError

    game, why = backup_copy(store, game_id)
    if game is None:
        raise GameRefusedError(_refused_text(store, game_id, reason, why))
    store.warn(_restored_text(store, game, reason))
    return game


def repair_on_open(store: JournalStore) -> None:
    """Make the journal whole before anything is written to it (it is opened to write)."""
    if store.damage:
        rebuild(store)
        return
    # The unfinished games only: they are what a restart resumes. Others are checked whenever they are read.
    for gid in playing_ids(store.conn):
        try:
            read_game(store.conn, gid)
        except (GameDamaged, sqlite3.DatabaseError) as exc:
            _restore_in_place(store, gid, why_unreadable(exc))


def _restore_in_place(store: JournalStore, game_id: int, reason: str) -> None:
    game, why = backup_copy(store, game_id)
    if game is not None:
        with store.transaction() as conn:
            write_game(conn, game)
        store.warn(_restored_text(store, game, reason))
        return
    status = store.conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
    if status is not None and status[0] != DAMAGED:   # named once, when found; listed as damaged after that
        store.set_status(game_id, DAMAGED)
        store.warn(_refused_text(store, game_id, reason, why))


def rebuild(store: JournalStore) -> None:
    """The file itself is damaged: keep it aside and start a new file with every game that is whole somewhere."""
    whole: dict[int, SavedGame] = {}
    broken: dict[int, tuple[str, SavedGame | None]] = {}
    try:
        ids = game_ids(store.conn)
    except sqlite3.DatabaseError:
        ids = []
    for gid in ids:
        try:
            game = read_game(store.conn, gid)
        except (GameDamaged, sqlite3.DatabaseError) as exc:
            try:
                partial = read_game(store.conn, gid, verify=False)
            except (GameDamaged, sqlite3.DatabaseError):
                partial = None
            broken[gid] = (why_unreadable(exc), partial)
        else:
            if game is not None:
                whole[gid] = game
    for gid in backup_game_ids(store.backup_path):
        if gid not in whole and gid not in broken:
            broken[gid] = ("the damaged file lost it", None)
    aside = store.path.with_name(store.path.name + DAMAGED_SUFFIX)
    store.conn.close()
    for path, suffix in [(store.path, ""), *((s, s.name[len(store.path.name):]) for s in side_files(store.path))]:
        if path.exists():
            os.replace(path, aside.with_name(aside.name + suffix))
    store.warn(f"{store.path}: the journal file is damaged ({store.damage}); it is kept as {aside.name} and "
               f"a new journal holds every game that is whole in it or in the backup")
    make_private_file(store.path)
    store.conn = connect(store.path, isolation_level=None, check_same_thread=False)
    store.damage = None
    store._setup(create=True)                   # a new, empty journal
    with store.transaction() as conn:
        for game in whole.values():
            write_game(conn, game)
    for gid, (reason, partial) in sorted(broken.items()):
        copy, why = backup_copy(store, gid)
        if copy is not None:
            with store.transaction() as conn:
                write_game(conn, copy)
            store.warn(_restored_text(store, copy, reason))
        elif partial is not None:
            partial.status = DAMAGED            # kept to be named and listed, never to be played
            with store.transaction() as conn:
                write_game(conn, partial)
            store.warn(_refused_text(store, gid, reason, why))
        else:
            store.warn(_refused_text(store, gid, reason, why))


def make_backup(store: JournalStore, rewrite: Callable[[int], bool] | None = None) -> str | None:
    """Copy the journal with the online backup API into a new file, verify the copy, then put it in place of
    the old backup (a crash mid-copy leaves the old backup as it was). None when done, else why not.

    A game found damaged in the copy is damaged in the journal: it is written again by `rewrite(game_id)` if
    that holds it in memory (the game being played), else restored from the old backup (or marked damaged), so
    one bad game cannot stop every later backup."""
    repaired: set[int] = set()
    while True:
        try:
            found = _copy_and_check(store)
        except _WouldLoseGames as exc:
            return (f"{store.path}: backup not updated: {exc}; the backup {store.backup_path.name} is kept as it is "
                    f"(`conquista games` lists what each holds)")
        if found is None:
            return None
        gid, problem = found
        if gid is None or gid in repaired:
            where = f"game {gid}: " if gid is not None else ""
            return f"{store.path}: backup not updated, the copy is not whole ({where}{problem}); the previous one " \
                   f"is kept"
        repaired.add(gid)
        if rewrite is None or not rewrite(gid):
            _restore_in_place(store, gid, problem)


def _copy_and_check(store: JournalStore) -> tuple[int | None, str] | None:
    temporary = store.backup_path.with_name(store.backup_path.name + ".tmp")
    for stale in (temporary, *side_files(temporary)):
        stale.unlink(missing_ok=True)
    make_private_file(temporary)
    found: tuple[int | None, str] | None = None
    lost: str | None = None
    copy = connect(temporary)
    try:
        store.conn.backup(copy)
        copy.execute("PRAGMA journal_mode = DELETE")     # one self-contained file, no -wal beside it
        found = _not_whole(copy)
        lost = games_it_would_lose(copy, store.backup_path) if found is None and store.backup_path.exists() else None
    except sqlite3.Error as exc:
        found = None, why_unreadable(exc)
    finally:
        copy.close()
    if lost is not None:
        temporary.unlink(missing_ok=True)
        raise _WouldLoseGames(lost)
    if found is not None:
        temporary.unlink(missing_ok=True)
        return found
    os.replace(temporary, store.backup_path)
    return None


class _WouldLoseGames(Exception):
    """The fresh copy lacks games the old backup holds: replacing it would lose them."""
