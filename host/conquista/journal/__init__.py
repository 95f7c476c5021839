"""The game journal: every applied action on disk before the board shows it; resume, replay and undo build on it.

The names below are loaded on first use (PEP 562): `conquista.journal.paths` (where the journal lives) is asked
for before a board's first frame, and must not bring sqlite3, hashlib and the writer with it (issue 22)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conquista.journal.integrity import ABANDONED, DAMAGED, FINISHED, PLAYING
    from conquista.journal.paths import JOURNAL_NAME, default_data_dir, journal_path
    from conquista.journal.resume import PlayStart, Wanted, offer_resume, open_for_play
    from conquista.journal.store import (
        GameInfo,
        GameRefusedError,
        JournalError,
        JournalStore,
        JournalUnavailableError,
        NotAJournalError,
        open_store,
    )
    from conquista.journal.writer import GameJournal

# Each public name and the module that defines it.
_HOME = {
    "ABANDONED": "integrity", "DAMAGED": "integrity", "FINISHED": "integrity", "PLAYING": "integrity",
    "JOURNAL_NAME": "paths", "default_data_dir": "paths", "journal_path": "paths",
    "PlayStart": "resume", "Wanted": "resume", "offer_resume": "resume", "open_for_play": "resume",
    "GameInfo": "store", "GameRefusedError": "store", "JournalError": "store", "JournalStore": "store",
    "JournalUnavailableError": "store", "NotAJournalError": "store", "open_store": "store",
    "GameJournal": "writer",
}

__all__ = [
    "ABANDONED",
    "DAMAGED",
    "FINISHED",
    "JOURNAL_NAME",
    "PLAYING",
    "GameInfo",
    "GameJournal",
    "GameRefusedError",
    "JournalError",
    "JournalStore",
    "JournalUnavailableError",
    "NotAJournalError",
    "PlayStart",
    "Wanted",
    "default_data_dir",
    "journal_path",
    "offer_resume",
    "open_for_play",
    "open_store",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value     # found directly from now on
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])
