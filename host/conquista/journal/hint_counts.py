"""How many hints each seat asked for ("what would hard do?"), kept with the game so that the luck report of a
resumed game still counts the hints asked before the power went (issue 31).

They live in the `hints` table, created with the first count written, as the snapshots' table is: a journal without
it keeps its pages and its schema version (a conquista that predates hints reads it as before, ignoring the table),
and a game without counts resumes with none. Counts are read back checked: a row that is not a seat of the game
with a whole number of hints is left out, and the warning names the journal, the game, the seat and what is done.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

CREATE_TABLE = ("CREATE TABLE IF NOT EXISTS hints (game INTEGER NOT NULL, seat INTEGER NOT NULL, "
                "asked INTEGER NOT NULL, PRIMARY KEY (game, seat)) WITHOUT ROWID")
MOST = 1_000_000   # more hints than a game can ask for: a count beyond it is damage

Counts = tuple[tuple[int, int], ...]   # (seat, hints asked), by seat, seats that asked only


def counts_of(asked: Mapping[int, int]) -> Counts:
    return tuple(sorted((seat, count) for seat, count in asked.items() if count))


def write_hint_counts(conn: sqlite3.Connection, game_id: int, counts: Counts) -> None:
    """Keep the game's counts as they are now (inside the caller's transaction)."""
    conn.execute(CREATE_TABLE)
    conn.execute("DELETE FROM hints WHERE game = ?", (game_id,))
    conn.executemany("INSERT INTO hints (game, seat, asked) VALUES (?, ?, ?)",
                     [(game_id, seat, count) for seat, count in counts])


def read_hint_counts(conn: sqlite3.Connection, game_id: int, players: int, where: str) -> tuple[Counts, list[str]]:
    """The game's counts (none from a journal or backup written before hints), and a warning for each row left
    out."""
    if not conn.execute("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'hints'").fetchone():
        return (), []
    try:
        rows = conn.execute("SELECT seat, asked FROM hints WHERE game = ? ORDER BY seat", (game_id,)).fetchall()
    except sqlite3.DatabaseError as exc:
        return (), [f"{where}: game {game_id}'s hint counts cannot be read ({' '.join(str(exc).split())}): the luck "
                    f"report counts its hints from 0"]
    counts: list[tuple[int, int]] = []
    warnings = []
    for seat, asked in rows:
        if not (type(seat) is int and 0 <= seat < players):
            warnings.append(f"{where}: game {game_id}'s hint count for seat {seat!r} names no seat of its "
                            f"{players}: left out")
        elif not (type(asked) is int and 0 <= asked <= MOST):
            warnings.append(f"{where}: game {game_id}'s hint count for seat {seat} is {asked!r}, not a number of "
                            f"hints from 0 to {MOST}: that seat's hints count from 0")
        elif asked:
            counts.append((seat, asked))
    return tuple(counts), warnings
