"""The game journal: every applied action on disk before the board shows it; resume, replay and undo build on it."""

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
