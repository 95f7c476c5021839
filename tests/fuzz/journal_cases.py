"""Damage to a saved-games journal for the fuzz test: bytes of the file changed (flips, truncation, garbage), and
rows or tables changed through SQL as a tool or a person might (dropped tables, missing rows, garbage values)."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

from conquista.journal import JOURNAL_NAME, GameJournal
from conquista.journal.schema import PAGE_SIZE
from tests.journal.helpers import attach, bot_referee, play

DEEP = 100_000
_VALUES = ("'x'", "NULL", "-1", "1e308", "X'FFFE00'", "'" + "9" * 5000 + "'", "'" + "[" * DEEP + "]" * DEEP + "'",
           "'{\"type\": \"end_phase\"}'", "'[\"human\"]'", "''", "'jolly1'")
_SQL = (
    "DROP TABLE games",
    "DROP TABLE actions",
    "DELETE FROM actions WHERE game = {g} AND seq >= {s}",
    "DELETE FROM actions WHERE game = {g} AND seq = {s}",
    "DELETE FROM games WHERE id = {g}",
    "UPDATE actions SET action = {v} WHERE game = {g} AND seq = {s}",
    "UPDATE actions SET chain = {v} WHERE game = {g} AND seq = {s}",
    "UPDATE actions SET seq = seq + 1000 WHERE game = {g} AND seq = {s}",
    "UPDATE actions SET turn = {v} WHERE game = {g} AND seq = {s}",
    "UPDATE games SET header = {v} WHERE id = {g}",
    # Another valid header: the same actions replay under it, as another game (the header's checksum tells).
    "UPDATE games SET header = replace(header, '\"ruleset_name\": \"', '\"ruleset_name\": \"x') WHERE id = {g}",
    "UPDATE games SET players = players + 1 WHERE id = {g}",
    "UPDATE games SET seats = {v} WHERE id = {g}",
    "UPDATE games SET seed = {v} WHERE id = {g}",
    "UPDATE games SET length = {v} WHERE id = {g}",
    "UPDATE games SET status = {v} WHERE id = {g}",
    "UPDATE games SET key = {v} WHERE id = {g}",
    "UPDATE games SET created = {v} WHERE id = {g}",
    "PRAGMA user_version = 99",
    "PRAGMA application_id = 7",
)


def make_journal(data_dir: Path) -> dict[int, str]:
    """A journal with two unfinished bot games, both in the backup; returns each game's digest."""
    journal = GameJournal(data_dir)
    digests = {}
    for game_id, (seed, rules, players) in enumerate(((1, "classic", 2), (7, "italian", 3)), start=1):
        referee = bot_referee(seed, rules, players)
        attach(journal, referee)
        play(referee, 120)
        digests[game_id] = referee.game.digest()
    store = journal.store
    assert store is not None
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")    # every page in the main file, where damage goes
    journal.close()
    return digests


def _sql(rng: random.Random, path: Path) -> str:
    statement = rng.choice(_SQL).format(g=rng.choice((1, 2)), s=rng.randrange(1, 130), v=rng.choice(_VALUES))
    conn = sqlite3.connect(path)
    try:
        conn.execute(statement)
        conn.commit()
    except sqlite3.Error as exc:
        return f"{statement[:60]} (refused by SQLite: {exc})"
    finally:
        conn.close()
    return statement[:80]


def _bytes(rng: random.Random, path: Path) -> str:
    data = bytearray(path.read_bytes())
    choice = rng.randrange(4)
    if choice == 0:
        at = rng.randrange(len(data))
        data[at] ^= rng.randint(1, 255)
        what = f"byte {at} (page {at // PAGE_SIZE}) flipped"
    elif choice == 1:
        page = rng.randrange(len(data) // PAGE_SIZE)
        data[page * PAGE_SIZE:(page + 1) * PAGE_SIZE] = bytes(rng.randrange(256) for _ in range(PAGE_SIZE))
        what = f"page {page} overwritten with noise"
    elif choice == 2:
        cut = rng.randrange(len(data))
        del data[cut:]
        what = f"truncated at {cut}"
    else:
        data[:16] = b"SQLite format 3\x00" if rng.random() < 0.5 else b"\xff" * 16
        data[16:100] = bytes(rng.randrange(256) for _ in range(84))
        what = "file header overwritten"
    path.write_bytes(bytes(data))
    return what


def damage(rng: random.Random, data_dir: Path) -> str:
    """Damage the journal (sometimes its backup too); returns what was done."""
    journal = data_dir / JOURNAL_NAME
    mutate: Callable[[random.Random, Path], str] = _sql if rng.random() < 0.6 else _bytes
    what = mutate(rng, journal)
    if rng.random() < 0.15:
        what += "; backup: " + _bytes(rng, data_dir / f"{JOURNAL_NAME}.backup")
    return what
