"""The table's settings a game was played with, kept with the game so that a resumed game plays on as it was
started (issue 39 §1): physical dice typed in at the board, hints for a learner (and on the LEDs), the defender's
and a seat claim's time-outs. The dice source is the log header's and the seats (who is a bot, of which level)
the `games` row's; these are the rest, which the host's phone may change during the game.

They live in the `table_settings` table (one JSON object per game), created with the first one written, as the
hints' table is: a journal without it keeps its schema version, and a game without a row resumes with the
command line's settings. Read back checked: an unknown key or a value of the wrong type or range is left out with a
warning naming the journal, the game and the key, and that setting is the command line's.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from conquista.table.inputs import SetHints, SetPhysicalDice, SetTimeOuts, Setting
from conquista.table.table_view import TableView

CREATE_TABLE = ("CREATE TABLE IF NOT EXISTS table_settings (game INTEGER PRIMARY KEY, settings TEXT NOT NULL) "
                "WITHOUT ROWID")
LONGEST_S = 24 * 3600.0   # a time-out beyond a day is damage


@dataclass(frozen=True)
class TableSettings:
    physical_dice: bool | None = None
    hints: bool | None = None
    hint_leds: bool | None = None
    defend_s: float | None = None
    claim_s: float | None = None

    def to_json(self) -> str:
        return json.dumps({key: value for key, value in asdict(self).items() if value is not None}, sort_keys=True)

    def inputs(self) -> list[Setting]:
        """The referee's inputs that set these (a setting not known is left as the table has it)."""
        out: list[Setting] = []
        if self.physical_dice is not None:
            out.append(SetPhysicalDice(self.physical_dice))
        if self.hints is not None:
            out.append(SetHints(self.hints, bool(self.hint_leds)))
        if self.defend_s is not None or self.claim_s is not None:
            out.append(SetTimeOuts(defend_s=self.defend_s, claim_s=self.claim_s))
        return out


def settings_of(view: TableView) -> TableSettings:
    """The settings as the table's view of one version shows them."""
    return TableSettings(physical_dice=view.physical_dice, hints=view.hints_allowed, hint_leds=view.hint_leds,
                         defend_s=view.defend_timeout_s, claim_s=view.claim_timeout_s)


def write_table_settings(conn: sqlite3.Connection, game_id: int, settings: TableSettings) -> None:
    """Keep the game's settings as they are now (inside the caller's transaction)."""
    conn.execute(CREATE_TABLE)
    conn.execute("INSERT OR REPLACE INTO table_settings (game, settings) VALUES (?, ?)", (game_id, settings.to_json()))


def _flag(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def _seconds(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value) if 0 < value <= LONGEST_S else None


CHECKS: dict[str, tuple[Callable[[object], object], str]] = {
    "physical_dice": (_flag, "true or false"), "hints": (_flag, "true or false"),
    "hint_leds": (_flag, "true or false"),
    "defend_s": (_seconds, f"seconds from 0 to {LONGEST_S:g}"),
    "claim_s": (_seconds, f"seconds from 0 to {LONGEST_S:g}"),
}


def read_table_settings(conn: sqlite3.Connection, game_id: int, where: str) -> tuple[TableSettings | None, list[str]]:
    """The game's settings (None: none kept), and a warning for each one left out."""
    try:
        if not conn.execute("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'table_settings'").fetchone():
            return None, []
        row = conn.execute("SELECT settings FROM table_settings WHERE game = ?", (game_id,)).fetchone()
    except sqlite3.DatabaseError as exc:
        return None, [f"{where}: game {game_id}'s table settings cannot be read ({' '.join(str(exc).split())}): it "
                      f"plays on with the command line's"]
    if row is None:
        return None, []
    try:
        data = json.loads(row[0]) if isinstance(row[0], str) else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return None, [f"{where}: game {game_id}'s table settings are not a JSON object: it plays on with the command "
                      f"line's"]
    kept: dict[str, Any] = {}
    warnings = []
    for key, value in data.items():
        check = CHECKS.get(key)
        if check is None:
            warnings.append(f"{where}: game {game_id}'s table settings: unknown key {key!r}, left out")
            continue
        good = check[0](value)
        if good is None:
            warnings.append(f"{where}: game {game_id}'s table setting {key!r} is {value!r}, not {check[1]}: the "
                            f"command line's is used")
        else:
            kept[key] = good
    return TableSettings(**kept), warnings
