"""Starting play with a journal: find the unfinished game, resume it or ask the players (ROLL resumes, CANCEL
starts a new game), and swap in a new game if they say so."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from conquista.journal.integrity import FINISHED
from conquista.journal.store import GameInfo, JournalError
from conquista.journal.writer import GameJournal
from conquista.rules.engine import Game


class Asking(Protocol):
    """The referee's side of the resume prompt."""

    message: str

    def ask(self, question: str, on_answer: Callable[[bool, float], None]) -> None: ...

    def reset(self, game: Game, now: float) -> None: ...


@dataclass
class PlayStart:
    journal: GameJournal
    game: Game | None = None           # the saved game to play on (resumed, or shown while the players choose)
    offer: GameInfo | None = None      # set when the players are asked first


def open_for_play(data_dir: str | Path | None, resume: bool | int | None, warn: Callable[[str], object]) -> PlayStart:
    """`resume`: True resumes the latest unfinished game, an int that game, False starts anew, None asks."""
    journal = GameJournal(data_dir)
    for warning in journal.warnings:
        warn(warning)
    if journal.fault:
        warn(journal.fault)
    if resume is False:
        return PlayStart(journal)
    store = journal.store
    if resume is not None and not isinstance(resume, bool):
        if store is None:
            raise JournalError(journal.fault)
        info = store.info(resume)
        if info.status == FINISHED:
            raise JournalError(f"{journal.path}: game {resume} is finished; `conquista replay {resume}` shows it")
        return PlayStart(journal, journal.resume(resume))
    saved = journal.latest_unfinished()
    if saved is None:
        if resume:
            warn(f"{journal.path}: no unfinished game to resume, a new one starts")
        return PlayStart(journal)
    return PlayStart(journal, journal.resume(saved.id), None if resume else saved)


def offer_resume(referee: Asking, journal: GameJournal, saved: GameInfo, new_game: Callable[[], Game], *,
                 set_up: Callable[[float], None] | None = None) -> None:
    """Show the saved game and ask: ROLL plays on, CANCEL abandons it and starts `new_game()`, or, with
    `set_up`, calls `set_up(now)` to let the players choose the new game (the set-up menu on the ring)."""

    def answer(resume: bool, now: float) -> None:
        if resume:
            referee.message = f"game {saved.id} resumed"
            return
        journal.abandon()
        if set_up is not None:
            set_up(now)
            return
        game = new_game()
        journal.start(game)
        referee.reset(game, now)
        referee.message = "a new game starts"

    referee.ask(f"unfinished game {saved.id} ({saved.ruleset}, {saved.players} players, turn {saved.turn}): "
                f"ROLL resumes it; CANCEL marks it abandoned (no longer offered, still listed by `conquista games` "
                f"and resumable with --resume {saved.id}) and starts a new game", answer)
