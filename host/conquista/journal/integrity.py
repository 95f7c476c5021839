"""Telling a whole saved game from a damaged one.

SQLite has no page checksums: one inverted byte in a b-tree page can make a query return fewer rows without any
error (seen: a 938-action game read back as 503 actions, exit 0). So the journal records each game's length and
chains a checksum through its rows (each row's checksum covers the previous one, its number and its action), and a
game is only used when every row from 0 up to the recorded length is there and the chain holds. The columns that
say which game the rows belong to (its key, log header, ruleset, players, seats and seed: `GameHeader`) have a
checksum of their own, `header_sum`: the actions replay under the header, so a header changed into another valid
one would otherwise replay another game without a word. `PRAGMA quick_check` adds the structural check of the
whole file when a journal is opened.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from conquista.errors import GameDamaged as GameDamaged
from conquista.rules.textdata import BadText, load_json

PLAYING, FINISHED, ABANDONED, DAMAGED = "playing", "finished", "abandoned", "damaged"   # a game's status

# (action JSON, turn after it, when it was applied, chained checksum)
SavedRow = tuple[str, int, float, str]


class JournalConnection(sqlite3.Connection):
    """A connection whose failures are sqlite3 errors, whatever the damage. SQLite quotes a schema it cannot parse
    in its error message, and when a damaged byte made that quote invalid UTF-8, Python's sqlite3 raises a bare
    UnicodeDecodeError instead (values it cannot decode are already an sqlite3 error)."""

    def execute(self, *args: Any) -> sqlite3.Cursor:
        try:
            return super().execute(*args)
        except UnicodeDecodeError:
            raise sqlite3.DatabaseError("malformed database schema (not valid text)") from None

    def executemany(self, *args: Any) -> sqlite3.Cursor:
        try:
            return super().executemany(*args)
        except UnicodeDecodeError:
            raise sqlite3.DatabaseError("malformed database schema (not valid text)") from None


def connect(path: str | Path, **options: Any) -> sqlite3.Connection:
    """`sqlite3.connect` for a journal or its backup, which may be damaged (see JournalConnection)."""
    return sqlite3.connect(path, factory=JournalConnection, **options)


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any failure (the commit itself included)."""
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


def set_status(conn: sqlite3.Connection, game_id: int, status: str, winner: int = -1) -> None:
    with transaction(conn):
        conn.execute("UPDATE games SET status = ?, winner = ? WHERE id = ?", (status, winner, game_id))


def chain_step(previous: str, seq: int, action: str, turn: int | None = None, at: float | None = None) -> str:
    """The checksum of row `seq`: it covers the row before (through `previous`), so no row can go missing unseen.
    Since journal version 4 (TIMED_CHAINS_SINCE) it covers the row's turn and time too; before, `turn` is None."""
    text = f"{previous}\n{seq}\n{action}"
    if turn is not None:
        text += f"\n{turn}\n{float(at or 0)!r}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def chain_of(key: str, actions: list[str]) -> list[str]:
    """The checksums of a game's rows as journals before version 4 kept them (the action only)."""
    sums: list[str] = []
    previous = key
    for seq, action in enumerate(actions):
        previous = chain_step(previous, seq, action)
        sums.append(previous)
    return sums


def timed_chain_of(key: str, rows: list[tuple[str, int, float]]) -> list[str]:
    """The checksums of a game's (action, turn, time) rows, as journals from version 4 keep them."""
    sums: list[str] = []
    previous = key
    for seq, (action, turn, at) in enumerate(rows):
        previous = chain_step(previous, seq, action, turn, at)
        sums.append(previous)
    return sums


# The times a journal writes: seconds since 1970, before the year 5000. Anything else is damage (a time of 1e300
# once made `conquista games` end in an OverflowError traceback).
LATEST_TIME = 95_617_584_000.0


def sane_time(at: object) -> bool:
    return isinstance(at, float | int) and not isinstance(at, bool) and 0.0 <= at < LATEST_TIME


@dataclass(frozen=True)
class GameHeader:
    """What a game is, as its `games` row says: everything but its progress (status, winner, length), which the
    journal updates as play goes on and which the rows themselves vouch for."""

    key: str
    header: str          # the log header line (ruleset parameters, players, map, dice)
    ruleset: str
    players: int
    seats: tuple[str, ...] | None
    seed: int | None

    def checksum(self) -> str:
        """The `header_sum` of these columns (as values, so that how SQLite or json wrote them does not count)."""
        seats = list(self.seats) if self.seats is not None else None
        seed = str(self.seed) if self.seed is not None else None
        text = json.dumps([self.key, self.header, self.ruleset, self.players, seats, seed])
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def with_seats(self, seats: tuple[str, ...] | None) -> GameHeader:
        return replace(self, seats=seats)


@dataclass
class SavedGame:
    """One game as the journal holds it (verified by `read_game`)."""

    id: int
    key: str
    created: float
    header: str
    ruleset: str
    players: int
    status: str
    winner: int
    length: int
    seats: tuple[str, ...] | None = None
    seed: int | None = None
    rows: list[SavedRow] = field(default_factory=list)
    header_sum: str | None = None   # as read; None from a journal written before header checksums

    @property
    def game_header(self) -> GameHeader:
        return GameHeader(self.key, self.header, self.ruleset, self.players, self.seats, self.seed)

    @property
    def turn(self) -> int:
        return self.rows[-1][1] if self.rows else 0

    @property
    def last_played(self) -> float:
        return self.rows[-1][2] if self.rows else self.created

    @property
    def actions(self) -> list[str]:
        return [row[0] for row in self.rows]


GAME_COLUMNS = "id, key, created, header, ruleset, players, status, winner, length, seats, seed"
HEADER_SUMS_SINCE = 3   # the journal version that added games.header_sum (conquista.journal.schema)
TIMED_CHAINS_SINCE = 4  # the journal version whose row checksums cover each row's turn and time


def journal_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def game_ids(conn: sqlite3.Connection) -> list[int]:
    return [gid for (gid,) in conn.execute("SELECT id FROM games ORDER BY id")]


def has_header_sums(conn: sqlite3.Connection) -> bool:
    """Whether the games of this journal (or backup) carry `header_sum`: older ones were written before it."""
    return journal_version(conn) >= HEADER_SUMS_SINCE


def read_game_row(conn: sqlite3.Connection, game_id: int, *, verify: bool = True) -> SavedGame | None:
    """Game `game_id`'s row in `games` (no actions yet), None if there is no such game. Raises GameDamaged when it
    holds what the journal never writes or, verified, when its header does not match its checksum."""
    sums = has_header_sums(conn)
    found = conn.execute(f"SELECT {GAME_COLUMNS}{', header_sum' if sums else ''} FROM games WHERE id = ?",
                         (game_id,)).fetchone()
    if found is None:
        return None
    gid, key, created, header, ruleset, players, status, winner, length, seats, seed = found[:11]
    if not (isinstance(key, str) and isinstance(header, str) and isinstance(ruleset, str)
            and isinstance(players, int) and isinstance(length, int)):
        raise GameDamaged("its key, header, ruleset, players or length is not what the journal writes")
    if not sane_time(created):
        raise GameDamaged("its creation time is not a time")
    game = SavedGame(gid, key, created, header, ruleset, players, status, winner, length, _seats(seats), _seed(seed),
                     header_sum=found[11] if sums else None)
    if verify and sums and game.header_sum != game.game_header.checksum():
        raise GameDamaged("its header does not match its checksum")
    return game


def read_game(conn: sqlite3.Connection, game_id: int, *, verify: bool = True) -> SavedGame | None:
    """Game `game_id` with its rows, None if there is no such game. Raises GameDamaged when its header or its rows
    are not whole (and sqlite3.DatabaseError when SQLite itself cannot read them)."""
    game = read_game_row(conn, game_id, verify=verify)
    if game is None:
        return None
    key, length = game.key, game.length
    rows = conn.execute("SELECT seq, action, turn, at, chain FROM actions WHERE game = ? ORDER BY seq",
                        (game_id,)).fetchall()
    previous = key
    timed = journal_version(conn) >= TIMED_CHAINS_SINCE
    sha256 = hashlib.sha256
    append = game.rows.append
    # The loop a resume waits for (100,000 rows of a long evening): the usual row (a float time, an int turn, a
    # timed chain) is checked inline, the same text `chain_step` hashes; anything else takes the general path.
    for expected, (seq, action, turn, at, chain) in enumerate(rows):
        plain = type(at) is float and 0.0 <= at < LATEST_TIME and type(turn) is int and turn >= 0
        if not (plain or (sane_time(at) and isinstance(turn, int) and turn >= 0)):
            raise GameDamaged(f"action {seq}'s turn or time is not what the journal writes")
        if verify:
            if seq != expected:
                raise GameDamaged(f"action {expected} of {length} is missing")
            if plain and timed:
                previous = sha256(f"{previous}\n{seq}\n{action}\n{turn}\n{at!r}".encode()).hexdigest()[:32]
            else:
                previous = chain_step(previous, seq, action, turn, at) if timed else chain_step(previous, seq, action)
            if chain != previous:
                raise GameDamaged(f"action {seq} does not match its checksum")
        append((action, turn, at, chain))
    if verify and len(rows) != length:
        raise GameDamaged(f"{len(rows)} of its {length} actions are readable" if len(rows) < length
                          else f"it holds {len(rows)} actions where {length} were recorded")
    return game


def _seed(text: object) -> int | None:
    if text is None:
        return None
    digits = text.removeprefix("-") if isinstance(text, str) else ""
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 40):
        raise GameDamaged("its seed is not a whole number")
    return int(text) if isinstance(text, str) else 0


def _seats(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    try:
        seats = load_json(text) if isinstance(text, str) else None
    except BadText:
        raise GameDamaged("its seats are not valid JSON") from None
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise GameDamaged("its seats are not a list of names")
    return tuple(seats)


def write_game(conn: sqlite3.Connection, game: SavedGame) -> None:
    """Insert `game` and its rows as they are (inside the caller's transaction), replacing any game of that id.
    A game read from a journal older than header checksums gets one computed from its header as it is, as the
    journal's upgrade does."""
    header_sum = game.header_sum if game.header_sum is not None else game.game_header.checksum()
    conn.execute("DELETE FROM actions WHERE game = ?", (game.id,))
    conn.execute("DELETE FROM games WHERE id = ?", (game.id,))
    conn.execute(f"INSERT INTO games ({GAME_COLUMNS}, header_sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (game.id, game.key, game.created, game.header, game.ruleset, game.players, game.status,
                  game.winner, game.length, json.dumps(list(game.seats)) if game.seats is not None else None,
                  str(game.seed) if game.seed is not None else None, header_sum))
    # The checksums are the target journal's own kind (a game restored from an older backup is copied into a
    # newer journal): `game` was verified where it was read, so they are computed again, never copied blindly.
    triples = [(action, turn, at) for action, turn, at, _chain in game.rows]
    if journal_version(conn) >= TIMED_CHAINS_SINCE:
        chains = timed_chain_of(game.key, triples)
    else:
        chains = chain_of(game.key, [action for action, *_rest in triples])
    conn.executemany("INSERT INTO actions (game, seq, action, turn, at, chain) VALUES (?, ?, ?, ?, ?, ?)",
                     [(game.id, seq, *row, chain)
                      for seq, (row, chain) in enumerate(zip(triples, chains, strict=True))])


def why_unreadable(exc: BaseException) -> str:
    """What is wrong, without the row's text (SQLite's decoding errors quote it, and a row may hold a drawn card)."""
    if isinstance(exc, GameDamaged):
        return str(exc)
    text = str(exc)
    if "decode" in text.lower():
        return "a row is not valid text"
    return text.split(":")[0][:80]


TABLES = ("games", "actions")


def quick_check(conn: sqlite3.Connection) -> str | None:
    """What `PRAGMA quick_check` found wrong with the file, or None when it is sound. A journal that lost one of
    its tables (dropped by hand or by a tool) is sound to SQLite but holds no games: that is damage too."""
    try:
        found = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        return " ".join(str(exc).split())
    if found != ["ok"]:
        # One line: it is quoted in messages of one line, and SQLite's answer can span several.
        return "; ".join(" ".join(str(f).split()) for f in found[:2])
    missing = [name for name in TABLES if name not in tables]
    if missing:
        return f"its {' and '.join(missing)} table{'s are' if len(missing) > 1 else ' is'} missing"
    return None
