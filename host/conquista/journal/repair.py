"""The journal's backup copy, and what happens to a damaged game.

The backup (`games.sqlite3.backup` next to the journal, 0600) is made with SQLite's online backup API at turn
boundaries and kept only once the copy passes `PRAGMA quick_check` and every game in it is whole: a damaged journal
never overwrites a good backup. When a game in the journal is not whole, the backup's copy of it is used instead,
with one warning line saying so and how far it goes; when the backup has no whole copy either, the game is refused
by name (status "damaged") and never resumed from a shorter history. Other games are not affected.

Opened to write, a journal is repaired at once: a damaged game's rows are replaced by the backup's, and a file that
fails `quick_check` (a damaged page) is set aside as `games.sqlite3.damaged` and rebuilt from every game that is
still whole in it or in the backup.

The functions here take what they work on (a connection, the journal's and the backup's paths, a sink for the
warning lines) and return what they found; the store (conquista.journal.store) holds the connection and re-opens
it itself.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from conquista.journal.integrity import (
    DAMAGED,
    PLAYING,
    GameDamaged,
    SavedGame,
    connect,
    game_ids,
    quick_check,
    read_game,
    read_game_row,
    set_status,
    transaction,
    why_unreadable,
    write_game,
)
from conquista.journal.paths import data_dir_option, make_private_file, side_files
from conquista.journal.unusable import games_it_would_lose

Warn = Callable[[str], object]

DAMAGED_SUFFIX = ".damaged"


@contextmanager
def _read_only(path: Path) -> Iterator[sqlite3.Connection]:
    conn = connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        yield conn
    finally:
        conn.close()


def _restored_text(path: Path, backup: Path, game: SavedGame, reason: str) -> str:
    return (f"{path}: game {game.id} is damaged ({reason}); restored from the backup "
            f"{backup.name}: {len(game.rows)} actions, to turn {game.turn} (any later actions are lost)")


def _refused_text(path: Path, game_id: int, reason: str, why: str) -> str:
    return (f"{path}: game {game_id} is damaged ({reason}) and {why}; it is refused, never resumed "
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


def backup_copy(backup: Path, game_id: int) -> tuple[SavedGame | None, str]:
    """The backup's whole copy of a game, or None and why there is none."""
    if not backup.exists():
        return None, "there is no backup to restore it from"
    try:
        with _read_only(backup) as conn:
            damage = quick_check(conn)
            if damage:
                return None, f"the backup is damaged too ({damage})"
            game = read_game(conn, game_id)
    except (GameDamaged, sqlite3.Error) as exc:
        return None, f"the backup's copy is damaged too ({why_unreadable(exc)})"
    if game is None:
        return None, "the backup does not hold it"
    return game, ""


def from_backup(path: Path, backup: Path, game_id: int, reason: str, warn: Warn) -> tuple[SavedGame | None, str]:
    """Read-only restore: the backup's copy of a damaged game (warning once), else None and the words that refuse
    it by name."""
    game, why = backup_copy(backup, game_id)
    if game is None:
        return None, _refused_text(path, game_id, reason, why)
    warn(_restored_text(path, backup, game, reason))
    return game, ""


def repair_on_open(conn: sqlite3.Connection, path: Path, backup: Path, warn: Warn) -> dict[int, SavedGame]:
    """Make the unfinished games whole before anything is written to the journal (it is opened to write): they are
    what a restart resumes. Others are checked whenever they are read. Returns the games found whole, as read and
    verified, so that finding and resuming one need not read and verify it again (a long game takes time)."""
    whole: dict[int, SavedGame] = {}
    for gid in playing_ids(conn):
        try:
            game = read_game(conn, gid)
        except (GameDamaged, sqlite3.DatabaseError) as exc:
            _restore_in_place(conn, path, backup, gid, why_unreadable(exc), warn)
            continue
        if game is not None:
            whole[gid] = game
    return whole


def _restore_in_place(conn: sqlite3.Connection, path: Path, backup: Path, game_id: int, reason: str,
                      warn: Warn) -> None:
    game, why = backup_copy(backup, game_id)
    if game is not None:
        with transaction(conn):
            write_game(conn, game)
        warn(_restored_text(path, backup, game, reason))
        return
    status = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
    if status is not None and status[0] != DAMAGED:   # named once, when found; listed as damaged after that
        set_status(conn, game_id, DAMAGED)
        warn(_refused_text(path, game_id, reason, why))


@dataclass
class Salvage:
    """What a damaged journal file still holds: its whole games, and the others with why they are not whole (and
    what of them could be read, kept to be listed as damaged)."""

    whole: dict[int, SavedGame] = field(default_factory=dict)
    broken: dict[int, tuple[str, SavedGame | None]] = field(default_factory=dict)


def set_damaged_file_aside(conn: sqlite3.Connection, path: Path, backup: Path, damage: str, warn: Warn) -> Salvage:
    """The file itself is damaged: read what it still holds, close `conn` and keep the file (with its side files)
    as `games.sqlite3.damaged`, leaving an empty private file at `path` for the store to set up anew. Then
    `restore_salvage` writes the games back."""
    salvage = Salvage()
    try:
        ids = game_ids(conn)
    except sqlite3.DatabaseError:
        ids = []
    for gid in ids:
        try:
            game = read_game(conn, gid)
        except (GameDamaged, sqlite3.DatabaseError) as exc:
            try:
                partial = read_game(conn, gid, verify=False)
            except (GameDamaged, sqlite3.DatabaseError):
                # Its rows are gone (a dropped table): its row in `games` still names it, so that it is listed
                # and refused as damaged rather than reported as a game that never existed.
                try:
                    partial = read_game_row(conn, gid, verify=False)
                except (GameDamaged, sqlite3.DatabaseError):
                    partial = None
            salvage.broken[gid] = (why_unreadable(exc), partial)
        else:
            if game is not None:
                salvage.whole[gid] = game
    for gid in backup_game_ids(backup):
        if gid not in salvage.whole and gid not in salvage.broken:
            salvage.broken[gid] = ("the damaged file lost it", None)
    aside = path.with_name(path.name + DAMAGED_SUFFIX)
    conn.close()
    for moved, suffix in [(path, ""), *((s, s.name[len(path.name):]) for s in side_files(path))]:
        if moved.exists():
            os.replace(moved, aside.with_name(aside.name + suffix))
    warn(f"{path}: the journal file is damaged ({damage}); it is kept as {aside.name} and "
         f"a new journal holds every game that is whole in it or in the backup")
    make_private_file(path)
    return salvage


def restore_salvage(conn: sqlite3.Connection, path: Path, backup: Path, salvage: Salvage, warn: Warn) -> None:
    """Into the new journal: every whole game, then each broken one from the backup's copy, else what could be read
    of it marked damaged (listed, never played), else only named."""
    with transaction(conn):
        for game in salvage.whole.values():
            write_game(conn, game)
    for gid, (reason, partial) in sorted(salvage.broken.items()):
        copy, why = backup_copy(backup, gid)
        if copy is not None:
            with transaction(conn):
                write_game(conn, copy)
            warn(_restored_text(path, backup, copy, reason))
        elif partial is not None:
            partial.status = DAMAGED            # kept to be named and listed, never to be played
            with transaction(conn):
                write_game(conn, partial)
            warn(_refused_text(path, gid, reason, why))
        else:
            warn(_refused_text(path, gid, reason, why))


def make_backup(conn: sqlite3.Connection, path: Path, backup: Path, warn: Warn,
                rewrite: Callable[[int], bool] | None = None) -> str | None:
    """Copy the journal with the online backup API into a new file, verify the copy, then put it in place of
    the old backup (a crash mid-copy leaves the old backup as it was). None when done, else why not.

    A game found damaged in the copy is damaged in the journal: it is written again by `rewrite(game_id)` if
    that holds it in memory (the game being played), else restored from the old backup (or marked damaged), so
    one bad game cannot stop every later backup."""
    repaired: set[int] = set()
    while True:
        try:
            found = _copy_and_check(conn, backup)
        except _WouldLoseGames as exc:
            return (f"{path}: backup not updated: {exc}; the backup {backup.name} is kept as it is "
                    f"(`conquista games{data_dir_option(path)}` lists what each holds)")
        if found is None:
            return None
        gid, problem = found
        if gid is None or gid in repaired:
            where = f"game {gid}: " if gid is not None else ""
            return f"{path}: backup not updated, the copy is not whole ({where}{problem}); the previous one " \
                   f"is kept"
        repaired.add(gid)
        if rewrite is None or not rewrite(gid):
            _restore_in_place(conn, path, backup, gid, problem, warn)


def _copy_and_check(conn: sqlite3.Connection, backup: Path) -> tuple[int | None, str] | None:
    temporary = backup.with_name(backup.name + ".tmp")
    for stale in (temporary, *side_files(temporary)):
        stale.unlink(missing_ok=True)
    make_private_file(temporary)
    found: tuple[int | None, str] | None = None
    lost: str | None = None
    copy = connect(temporary)
    try:
        conn.backup(copy)
        copy.execute("PRAGMA journal_mode = DELETE")     # one self-contained file, no -wal beside it
        found = _not_whole(copy)
        lost = games_it_would_lose(copy, backup) if found is None and backup.exists() else None
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
    os.replace(temporary, backup)
    return None


class _WouldLoseGames(Exception):
    """The fresh copy lacks games the old backup holds: replacing it would lose them."""
