"""Reading a journal the independent way: raw SQL plus the JSON Lines log parser, not the journal's own loader."""

from __future__ import annotations

import sqlite3
import weakref
from pathlib import Path
from typing import Any

from conquista.journal import JOURNAL_NAME
from conquista.rules.engine import Game
from conquista.rules.gamelog import parse_log_lines

ROOT = Path(__file__).resolve().parents[2]


def raw_rows(data_dir: Path, game_id: int) -> tuple[str, list[str], str]:
    """(header line, action lines, status) of a saved game."""
    conn = sqlite3.connect(data_dir / JOURNAL_NAME)
    try:
        header, status = conn.execute("SELECT header, status FROM games WHERE id = ?", (game_id,)).fetchone()
        rows = [a for (a,) in conn.execute("SELECT action FROM actions WHERE game = ? ORDER BY seq", (game_id,))]
    finally:
        conn.close()
    return header, rows, status


def replay_rows(header: str, rows: list[str]) -> Game:
    return parse_log_lines([header, *rows], "journal")[1]


def latest_playing(data_dir: Path) -> int | None:
    """The unfinished game a restart must resume (games are only ever started one after another here)."""
    if not (data_dir / JOURNAL_NAME).exists():
        return None
    conn = sqlite3.connect(data_dir / JOURNAL_NAME)
    try:
        if not conn.execute("SELECT 1 FROM sqlite_schema WHERE name = 'games'").fetchone():
            return None    # killed while the journal was being created
        row = conn.execute("SELECT max(id) FROM games WHERE status = 'playing'").fetchone()
    finally:
        conn.close()
    return row[0] if row else None


def bot_referee(seed: int = 1, rules: str = "classic", players: int = 2,  # type: ignore[no-untyped-def]
                automatic_defence: bool = True):
    """A referee over a new seeded game (no journal yet). Automatic defence unless told otherwise: these games
    are about the journal, and classic lets the defender choose."""
    import random

    from conquista.dice.chance import new_game
    from conquista.dice.sources import SeededDice
    from conquista.rules.mapdata import load_map
    from conquista.rules.rulesets import load_ruleset
    from conquista.table.referee import Referee

    rng = random.Random(seed)
    ruleset = load_ruleset(rules, {"automatic_defence": automatic_defence})
    return Referee(new_game(ruleset, load_map(), players, rng), SeededDice(rng=rng))


# The journal following each referee of these tests, as the shell's router has it (app/routing.py: first stop).
_FOLLOWING: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def attach(journal, referee) -> None:  # type: ignore[no-untyped-def]
    """The journal follows the referee's game, and `route` hands it the referee's effects (the shell's router)."""
    journal.attach(referee)
    _FOLLOWING[referee] = journal


def route(referee) -> None:  # type: ignore[no-untyped-def]
    """What the shell does after every input: the referee's effects to the journal following it, and the journal's
    fault, when it changed, back to the referee (app/routing.py)."""
    effects = referee.take_effects()
    journal = _FOLLOWING.get(referee)
    if journal is not None:
        journal.follow(effects)
        fault = journal.take_fault()
        if fault is not None:
            referee.step(fault, referee.now)


def handle(referee, gesture, now: float) -> None:  # type: ignore[no-untyped-def]
    """A gesture at the board, and its effects routed (the journal first), as the board's runner does."""
    referee.handle(gesture, now)
    route(referee)


def play(referee, actions: int, now: float = 0.0) -> float:  # type: ignore[no-untyped-def]
    """Bots play through gestures until the game has `actions` more actions (or is over); returns the time."""
    from conquista.bots import GreedyBot
    from conquista.table.bot_player import gestures_for

    bot = GreedyBot()
    goal = len(referee.game.log) + actions
    while not referee.game.over and len(referee.game.log) < goal:
        for gesture in gestures_for(referee, bot.choose(referee.game)):
            now += 0.1
            handle(referee, gesture, now)
    return now


def as_untimed_chains(conn: sqlite3.Connection) -> None:
    """Give every game's rows the checksums journals before version 4 wrote (of the actions only), so that a file
    made to look older than version 4 is what such a version really wrote."""
    from conquista.journal.integrity import chain_of

    for gid, key in conn.execute("SELECT id, key FROM games").fetchall():
        rows = conn.execute("SELECT seq, action FROM actions WHERE game = ? ORDER BY seq", (gid,)).fetchall()
        chains = chain_of(key, [action for _seq, action in rows])
        conn.executemany("UPDATE actions SET chain = ? WHERE game = ? AND seq = ?",
                         [(chain, gid, seq) for (seq, _action), chain in zip(rows, chains, strict=True)])
    conn.commit()
