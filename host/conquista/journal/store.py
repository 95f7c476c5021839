"""The journal file: one SQLite database (WAL mode) holding every saved game of a data directory.

Why SQLite: an append must survive a power cut at any instant, and SQLite's write-ahead log gives exactly that
(atomic commits, checksummed frames, recovery on open, fsync on commit with synchronous=FULL) with decades of
power-loss testing behind it; it ships with Python, and it answers `conquista games` with a query instead of a
directory scan. Rows hold the actions as the game log's own JSON (conquista.rules.serialize), so a saved game is
the same JSON Lines log `conquista replay FILE` reads.

Schema (user_version 1, application_id "Conq"):
    games(id, key, created, header, ruleset, players, status, winner)   -- status: playing | finished | abandoned
    actions(game, seq, action, turn, at)                                -- seq 0 is the deal; PRIMARY KEY (game, seq)
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from conquista.errors import ConquistaError, LogError
from conquista.journal.paths import journal_path
from conquista.journal.wal import torn_tail
from conquista.rules.engine import Game
from conquista.rules.gamelog import LogHeader, parse_header, parse_log_lines
from conquista.rules.mapdata import GameMap

APPLICATION_ID = 0x436F6E71      # "Conq": tells our journal from any other SQLite file
SCHEMA_VERSION = 1
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
    winner INTEGER NOT NULL DEFAULT -1
);
CREATE TABLE actions (
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    turn INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
"""

PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"


class JournalError(ConquistaError):
    """The journal cannot be used; the message names the file and the fix."""


class NotAJournalError(JournalError):
    """The file is not a conquista game journal (refused: it is never overwritten)."""


class JournalUnavailableError(JournalError):
    """The operating system or SQLite refused to open or create the journal (read-only, not a directory, ...)."""


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

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "ruleset": self.ruleset, "players": self.players, "turn": self.turn,
                "actions": self.actions, "last_played": iso_time(self.last_played), "created": iso_time(self.created),
                "finished": self.finished, "status": self.status, "winner": self.winner}


def iso_time(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def describe_os_error(exc: BaseException) -> str:
    """A short reason for a failed write: what a person at the table can act on."""
    text = str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc)
    low = text.lower()
    if "full" in low or "no space" in low or "too large" in low:
        return f"disk full ({text})"
    if "readonly" in low or "read-only" in low or "permission" in low:
        return f"read-only ({text})"
    return text


class JournalStore:
    """An open journal file. `warnings` says what recovery had to do (e.g. a torn last write)."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        self.warnings: list[str] = []
        self._check_magic()
        if not create and not self.path.exists():
            raise JournalError(f"{self.path}: no saved games here (the journal does not exist); "
                               f"pass the --data-dir the games were played with")
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
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
            raise JournalUnavailableError(f"{self.path}: cannot open the journal ({describe_os_error(exc)})") \
                from None
        except JournalError:
            self.conn.close()
            raise

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
        elif create:
            self._recover()

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

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT, rolled back on any failure (the commit itself included)."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass                        # SQLite had already rolled back (e.g. after SQLITE_FULL)
            raise

    # -------------------------------------------------------------------------------------------- reading

    def games(self) -> list[GameInfo]:
        """Every saved game, most recently played first."""
        rows = self.conn.execute(
            "SELECT g.id, g.ruleset, g.players, g.status, g.winner, g.created, a.seq, a.turn, a.at "
            "FROM games g LEFT JOIN actions a ON a.game = g.id "
            "AND a.seq = (SELECT max(seq) FROM actions WHERE game = g.id) "
            "ORDER BY coalesce(a.at, g.created) DESC, g.id DESC").fetchall()
        return [GameInfo(gid, ruleset, players, status, winner, turn if turn is not None else 0,
                         seq + 1 if seq is not None else 0, created, at if at is not None else created)
                for gid, ruleset, players, status, winner, created, seq, turn, at in rows]

    def info(self, game_id: int) -> GameInfo:
        for info in self.games():
            if info.id == game_id:
                return info
        raise JournalError(f"{self.path}: no saved game {game_id}; `conquista games` lists them")

    def latest_unfinished(self) -> GameInfo | None:
        return next((g for g in self.games() if g.status == PLAYING and g.actions), None)

    def header(self, game_id: int, game_map: GameMap | None = None) -> LogHeader:
        row = self.conn.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"{self.path}: no saved game {game_id}; `conquista games` lists them")
        try:
            return parse_header(json.loads(row[0]), f"{self.path}, game {game_id}", game_map)
        except json.JSONDecodeError:
            raise LogError(f"{self.path}, game {game_id}: the header is not valid JSON") from None

    def log_lines(self, game_id: int) -> list[str]:
        """The game as a JSON Lines log: the header line, then one line per action (what `replay FILE` reads)."""
        row = self.conn.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"{self.path}: no saved game {game_id}; `conquista games` lists them")
        actions = self.conn.execute("SELECT action FROM actions WHERE game = ? ORDER BY seq", (game_id,))
        return [row[0], *(a for (a,) in actions)]

    def load(self, game_id: int, game_map: GameMap | None = None) -> tuple[LogHeader, Game]:
        """Rebuild a saved game by replaying its actions."""
        return parse_log_lines(self.log_lines(game_id), f"{self.path}, game {game_id}", game_map)

    # -------------------------------------------------------------------------------------------- writing

    def set_status(self, game_id: int, status: str, winner: int = -1) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE games SET status = ?, winner = ? WHERE id = ?", (status, winner, game_id))

    def close(self) -> None:
        self.conn.close()


def open_store(data_dir: str | Path | None = None, *, create: bool = True) -> JournalStore:
    return JournalStore(journal_path(data_dir), create=create)
