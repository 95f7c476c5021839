"""The journal file: one SQLite database (WAL mode) holding every saved game of a data directory.

Why SQLite: an append must survive a power cut at any instant, and SQLite's write-ahead log gives exactly that
(atomic commits, checksummed frames, recovery on open, fsync on commit with synchronous=FULL) with decades of
power-loss testing behind it; it ships with Python, and it answers `conquista games` with a query instead of a
directory scan. Rows hold the actions as the game log's own JSON (conquista.rules.serialize), so a saved game is
the same JSON Lines log `conquista replay FILE` reads.

Schema (user_version 4, application_id "Conq"):
    games(id, key, created, header, ruleset, players, status, winner, length, seats, seed, header_sum)
        -- status: playing | finished | abandoned | damaged; length: the rows the game has; seats: JSON list of
        -- "human" or a bot's name; seed: the seed a simulated game was dealt and rolled from (secret until the end);
        -- header_sum: the checksum of key, header, ruleset, players, seats and seed (see integrity)
    actions(game, seq, action, turn, at, chain)   -- seq 0 is the deal; PRIMARY KEY (game, seq); chain: see integrity
    snapshots(game, seq, state, chain)   -- created with the first snapshot: the state after actions 0..seq-1,
                                         -- checksummed (see conquista.journal.checkpoint)
Version 1 journals (no length, seats, seed or chain), version 2 ones (no header_sum) and version 3 ones (checksums
that do not cover the turn and time) are upgraded when opened.

Damage SQLite cannot see is caught by conquista.journal.integrity; conquista.journal.repair keeps the backup copy
and restores damaged games from it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from conquista.errors import GameRefusedError as GameRefusedError
from conquista.errors import JournalError as JournalError
from conquista.errors import JournalUnavailableError as JournalUnavailableError
from conquista.errors import LogError
from conquista.errors import NotAJournalError as NotAJournalError
from conquista.journal.integrity import (
    DAMAGED,
    FINISHED,
    PLAYING,
    GameDamaged,
    SavedGame,
    connect,
    game_ids,
    quick_check,
    read_game,
    set_status,
    transaction,
    why_unreadable,
)
from conquista.journal.paths import data_dir_option, journal_path, make_private_dir, make_private_file, side_files
from conquista.journal.repair import (
    backup_game_ids,
    from_backup,
    make_backup,
    playing_ids,
    repair_on_open,
    restore_salvage,
    set_damaged_file_aside,
)
from conquista.journal.schema import (
    APPLICATION_ID,
    PAGE_SIZE,
    SCHEMA,
    SCHEMA_VERSION,
    SQLITE_MAGIC,
    upgrade,
)
from conquista.journal.unusable import HOLDS_NOTHING, backup_problem, copy_backup_into, journal_file_problem, set_aside
from conquista.journal.wal import torn_tail
from conquista.rules.engine import Game
from conquista.rules.gamelog import LogHeader, parse_header, parse_log_lines
from conquista.rules.mapdata import GameMap
from conquista.rules.textdata import BadText, load_json

BACKUP_SUFFIX = ".backup"


@dataclass(frozen=True)
class GameInfo:
    id: int
    ruleset: str
    players: int
    status: str
    winner: int
    turn: int
    actions: int
    created: float
    last_played: float
    seats: tuple[str, ...] | None = None     # None: saved before seats were recorded

    @classmethod
    def of(cls, game: SavedGame) -> GameInfo:
        return cls(game.id, game.ruleset, game.players, game.status, game.winner, game.turn, len(game.rows),
                   game.created, game.last_played, game.seats)

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "ruleset": self.ruleset, "players": self.players, "turn": self.turn,
                "actions": self.actions, "last_played": iso_time(self.last_played), "created": iso_time(self.created),
                "finished": self.finished, "status": self.status, "winner": self.winner,
                "seats": list(self.seats) if self.seats is not None else None}


def iso_time(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def describe_os_error(exc: BaseException) -> str:
    """A short reason for a failed write: what a person at the table can act on."""
    text = str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc)
    low = text.lower()
    if "full" in low or "no space" in low or "too large" in low:
        return f"disk full: {text}"
    if "readonly" in low or "read-only" in low or "permission" in low:
        return f"read-only: {text}"
    return text


class JournalStore:
    """An open journal file. `warnings` says what recovery had to do (a torn last write, a game restored from the
    backup or refused), each once. Opened to write (`create`), the file is repaired on opening (see
    conquista.journal.repair); opened only to read, it is left as it is and damaged games are read from the backup.
    """

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        self.backup_path = self.path.with_name(self.path.name + BACKUP_SUFFIX)
        self.warnings: list[str] = []
        self.damage: str | None = None            # what PRAGMA quick_check found when the file was opened
        self._restored: dict[int, SavedGame] = {}  # games read from the backup instead (read-only opening)
        # Unfinished games read and verified when the journal was opened (to write): finding the one to resume and
        # resuming it use these rather than reading and verifying every row twice more. Forgotten at any write.
        self._opened: dict[int, SavedGame] = {}
        if self._stand_in_backup(create):
            return
        self._check_magic()
        if not create and not self.path.exists():
            raise JournalError(f"{self.path}: no saved games here (the journal does not exist); "
                               f"pass the --data-dir the games were played with")
        try:
            if create:
                make_private_dir(self.path.parent)
            make_private_file(self.path)
            for side in side_files(self.path):
                if side.exists():
                    make_private_file(side)
            self.conn = connect(self.path, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise JournalUnavailableError(f"{self.path}: cannot open the journal ({describe_os_error(exc)})") \
                from None
        try:
            self._setup(create)
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            if "not a database" in str(exc):
                raise NotAJournalError(f"{self.path}: not a conquista game journal (not an SQLite database)") \
                    from None
            if self.backup_path.exists():
                self._open_damaged(create, why_unreadable(exc))
                return
            raise JournalUnavailableError(f"{self.path}: cannot open the journal ({describe_os_error(exc)})") \
                from None
        except JournalError:
            self.conn.close()
            raise

    def _stand_in_backup(self, create: bool) -> bool:
        """The journal file cannot be used at all (missing, empty, not ours) while a backup exists: to write, set
        the file aside and put the backup in its place, then open as usual (False); to read, read the backup
        instead (True: opened). A backup that cannot stand in is never overwritten: moved aside before a new
        journal starts, or the journal is refused naming both. See conquista.journal.unusable."""
        problem = journal_file_problem(self.path)
        if problem is None or not self.backup_path.exists():
            return False
        backup_bad = backup_problem(self.backup_path)
        if backup_bad is None and not create:
            self.conn = connect(f"{self.backup_path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
            self.warn(f"{self.path}: the journal file cannot be used ({problem}); showing its backup "
                      f"{self.backup_path.name} instead, which may lack the last actions; the next `conquista play` "
                      f"or `conquista sim` restores the journal from it")
            return True
        if backup_bad is None:
            try:
                aside = set_aside(self.path) if self.path.exists() else None
                games = copy_backup_into(self.backup_path, self.path)
            except (OSError, sqlite3.Error) as exc:
                raise JournalUnavailableError(f"{self.path}: cannot restore the journal from its backup "
                                              f"{self.backup_path.name} ({describe_os_error(exc)})") from None
            kept = f"; the unusable file is kept as {aside.name}" if aside is not None else ""
            self.warn(f"{self.path}: the journal file could not be used ({problem}); restored from its backup "
                      f"{self.backup_path.name} ({games} saved games, as of the last backup){kept}")
            return False
        if problem in HOLDS_NOTHING and create:
            # Nothing to restore from and nothing in the file: start afresh, but keep the old backup's bytes.
            try:
                aside = set_aside(self.backup_path)
            except OSError as exc:
                raise JournalUnavailableError(f"{self.backup_path}: cannot move the unusable backup aside "
                                              f"({describe_os_error(exc)})") from None
            self.warn(f"{self.path}: the journal file could not be used ({problem}) and {backup_bad}; the backup is "
                      f"kept as {aside.name} and a new journal starts")
            return False
        raise NotAJournalError(f"{self.path}: the journal file cannot be used ({problem}) and {backup_bad}; "
                               f"both are left as they are: move them elsewhere to start anew, or pass another "
                               f"--data-dir")

    def _open_damaged(self, create: bool, reason: str) -> None:
        """SQLite cannot even read the journal's schema. To write: rebuild it from the backup. To read: read the
        backup instead, saying so."""
        self.damage = reason
        if create:
            self.conn = connect(self.path, isolation_level=None, check_same_thread=False)
            self._rebuild(reason)
            return
        self.conn = connect(f"{self.backup_path.resolve().as_uri()}?mode=ro", uri=True,
                                    check_same_thread=False)
        self.warn(f"{self.path}: the journal file is damaged ({reason}); showing its backup "
                  f"{self.backup_path.name} instead, which may lack the last actions")

    def _check_magic(self) -> None:
        try:
            with self.path.open("rb") as f:
                head = f.read(len(SQLITE_MAGIC))
        except (FileNotFoundError, NotADirectoryError):
            return
        except IsADirectoryError:
            raise NotAJournalError(f"{self.path}: not a conquista game journal (a directory)") from None
        except OSError as exc:
            raise JournalUnavailableError(f"{self.path}: cannot read the journal ({describe_os_error(exc)})") \
                from None
        # An empty file is a journal whose creation was cut short before its first page: SQLite starts it afresh.
        if head and head != SQLITE_MAGIC:
            raise NotAJournalError(f"{self.path}: not a conquista game journal (not an SQLite database)")

    def _setup(self, create: bool) -> None:
        conn = self.conn
        conn.execute("PRAGMA busy_timeout = 5000")
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
        if app_id != APPLICATION_ID and (tables or not create):
            raise NotAJournalError(f"{self.path}: not a conquista game journal "
                                   f"(an SQLite database of another program)")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise NotAJournalError(f"{self.path}: journal version {version} was written by a newer conquista "
                                   f"(this one reads version {SCHEMA_VERSION}); upgrade conquista")
        if app_id != APPLICATION_ID:
            conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        # FULL: in WAL mode, NORMAL only syncs at checkpoints, so a power cut could lose actions the board had shown.
        conn.execute("PRAGMA synchronous = FULL")
        if app_id != APPLICATION_ID:
            if mode != "wal":
                raise JournalUnavailableError(f"{self.path}: cannot create the journal (WAL mode refused)")
            with self.transaction():
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            return
        if create:
            self._recover()
        self.damage = quick_check(conn)
        if self.damage and not create:
            self.warn(f"{self.path}: the journal is damaged ({self.damage}); " + (
                f"its games are read from the backup {self.backup_path.name} where they are not whole"
                if self.backup_path.exists() else f"there is no backup {self.backup_path.name} to restore from"))
        if version < SCHEMA_VERSION:
            self._upgrade(version)
        if create and self.damage:
            self._rebuild(self.damage)
        elif create:
            self._opened = repair_on_open(self.conn, self.path, self.backup_path, self.warn)

    def _rebuild(self, damage: str) -> None:
        """The file itself is damaged: it is set aside, a new journal is set up in its place, and every game that is
        whole in the old file or in the backup is written into it (conquista.journal.repair)."""
        salvage = set_damaged_file_aside(self.conn, self.path, self.backup_path, damage, self.warn)
        self.conn = connect(self.path, isolation_level=None, check_same_thread=False)
        self.damage = None
        self._setup(create=True)                   # a new, empty journal
        restore_salvage(self.conn, self.path, self.backup_path, salvage, self.warn)

    def _upgrade(self, version: int) -> None:
        if self.damage:
            raise JournalError(f"{self.path}: the journal is damaged ({self.damage}) and too old to tell its whole "
                               f"games from the damaged ones; keep a copy and start a new one with --data-dir")
        try:
            with self.transaction() as conn:
                upgrade(conn, version)
        except sqlite3.Error as exc:
            raise JournalUnavailableError(f"{self.path}: cannot upgrade the journal to version {SCHEMA_VERSION} "
                                          f"({describe_os_error(exc)}); open it once where it is writable") \
                from None

    def _recover(self) -> None:
        """Warn about a write cut short by a power cut (SQLite has already dropped it), then fold the WAL into the
        database so the torn bytes cannot be mistaken for a new tear next time."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")   # the write lock: no other writer can be mid-write now
        except sqlite3.Error:
            return                                  # read-only or busy: recovery still happens, just unannounced
        try:
            torn = torn_tail(Path(f"{self.path}-wal"))
        finally:
            self.conn.execute("ROLLBACK")
        if torn:
            self.warnings.append(f"{self.path}: the last write was torn (a power cut mid-write?); "
                                 f"recovered up to the last complete action")
            try:
                self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT, rolled back on any failure (the commit itself included)."""
        self._opened.clear()   # what was read on opening may be about to change
        return transaction(self.conn)

    # -------------------------------------------------------------------------------------------- reading

    def warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)

    def _ids(self) -> list[int]:
        try:
            ids = set(game_ids(self.conn))
        except sqlite3.DatabaseError:
            ids = set()
        if self.damage:
            ids.update(backup_game_ids(self.backup_path))   # the damaged file may have lost games it still had
        return sorted(ids)

    def saved_game(self, game_id: int) -> SavedGame:
        """Game `game_id` with its rows, whole: from the journal, else restored from the backup (with a warning),
        else refused (GameRefusedError names it)."""
        if game_id in self._restored:
            return self._restored[game_id]
        if game_id in self._opened:
            return self._opened[game_id]
        try:
            game = read_game(self.conn, game_id)
        except (GameDamaged, sqlite3.DatabaseError) as exc:
            reason = why_unreadable(exc)
        else:
            if game is not None and game.status != DAMAGED:
                return game
            if game is None and not self.damage:
                raise JournalError(f"{self.path}: no saved game {game_id}; `conquista games"
                                   f"{data_dir_option(self.path)}` lists them")
            reason = "it was found damaged before" if game is not None else "its row is unreadable"
        restored, refused = from_backup(self.path, self.backup_path, game_id, reason, self.warn)
        if restored is None:
            raise GameRefusedError(refused)
        self._restored[game_id] = restored
        return restored

    def games(self) -> list[GameInfo]:
        """Every saved game, most recently played first; a damaged game that cannot be restored is listed with
        status "damaged" (and named in `warnings`)."""
        infos = []
        for gid in self._ids():
            try:
                infos.append(GameInfo.of(self.saved_game(gid)))
            except GameRefusedError as exc:
                self.warn(str(exc))
                infos.append(self._damaged_info(gid))
            except JournalError:
                continue                        # listed by the backup only, and not there either
        return sorted(infos, key=lambda g: (g.last_played, g.id), reverse=True)

    def _damaged_info(self, game_id: int) -> GameInfo:
        try:
            game = read_game(self.conn, game_id, verify=False)
        except (GameDamaged, sqlite3.DatabaseError):
            game = None
        if game is None:
            return GameInfo(game_id, "?", 0, DAMAGED, -1, 0, 0, 0.0, 0.0)
        return GameInfo(game.id, game.ruleset, game.players, DAMAGED, -1, game.turn, len(game.rows), game.created,
                        game.last_played, game.seats)

    def info(self, game_id: int) -> GameInfo:
        return GameInfo.of(self.saved_game(game_id))

    def latest_unfinished(self, wanted: Callable[[GameInfo], bool] | None = None) -> GameInfo | None:
        """The unfinished game played last (of those `wanted` accepts). More than the deal: a game nobody moved in
        is not worth offering (older journals hold some). A damaged one is named in `warnings` and not offered."""
        try:
            ids = playing_ids(self.conn)
        except sqlite3.DatabaseError:
            return next((g for g in self.games() if g.status == PLAYING and g.actions > 1
                         and (wanted is None or wanted(g))), None)
        found = []
        for gid in ids:
            try:
                found.append(self.info(gid))
            except GameRefusedError as exc:
                self.warn(str(exc))
        return max((g for g in found if g.status == PLAYING and g.actions > 1 and (wanted is None or wanted(g))),
                   key=lambda g: (g.last_played, g.id), default=None)

    def header(self, game_id: int, game_map: GameMap | None = None) -> LogHeader:
        text = self.saved_game(game_id).header
        try:
            return parse_header(load_json(text), f"{self.path}, game {game_id}", game_map)
        except BadText as exc:
            raise LogError(f"{self.path}, game {game_id}: the header is {exc}") from None

    def log_lines(self, game_id: int) -> list[str]:
        """The game as a JSON Lines log: the header line, then one line per action (what `replay FILE` reads)."""
        game = self.saved_game(game_id)
        return [game.header, *game.actions]

    def load(self, game_id: int, game_map: GameMap | None = None,
             saved: SavedGame | None = None) -> tuple[LogHeader, Game]:
        """Rebuild a saved game: from its latest snapshot and the actions after it, or by replaying all its actions
        (a game saved before snapshots, or one whose latest snapshot is damaged: `warnings` says so)."""
        from conquista.journal.checkpoint import SnapshotDamaged, read_snapshots, restore

        where = f"{self.path}, game {game_id}"
        if saved is None:  # `saved`: the caller's copy, just read and verified (a long game takes time to read)
            saved = self.saved_game(game_id)
        try:
            header = parse_header(load_json(saved.header), where, game_map)
        except BadText as exc:
            raise LogError(f"{where}: the header is {exc}") from None
        try:
            game = restore(header, saved.actions, [row[3] for row in saved.rows],
                           read_snapshots(self.conn, game_id), where)
        except SnapshotDamaged as exc:
            self.warn(str(exc))
            game = None
        if game is not None:
            return header, game
        return parse_log_lines([saved.header, *saved.actions], where, game_map)

    # -------------------------------------------------------------------------------------------- writing

    def set_status(self, game_id: int, status: str, winner: int = -1) -> None:
        self._opened.clear()
        set_status(self.conn, game_id, status, winner)

    def backup(self, rewrite: Callable[[int], bool] | None = None) -> str | None:
        """Copy the journal to its backup file and verify the copy; None when done, else why it was not kept.
        `rewrite(game_id)` writes a damaged game again from memory if it can (see repair.make_backup)."""
        self._opened.clear()
        return make_backup(self.conn, self.path, self.backup_path, self.warn, rewrite)

    def close(self) -> None:
        self.conn.close()


def open_store(data_dir: str | Path | None = None, *, create: bool = True) -> JournalStore:
    return JournalStore(journal_path(data_dir), create=create)
