"""Starting play with a journal: find the unfinished game, resume it or ask the players (ROLL resumes, CANCEL
starts a new game), and swap in a new game if they say so. The question is a value put to the table; its answer
comes back as the referee's `Answered` effect, which the shell's router hands to the handler `offer_resume`
returns."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from conquista.journal.integrity import FINISHED
from conquista.journal.paths import data_dir_option
from conquista.journal.store import GameInfo, JournalError
from conquista.journal.writer import GameJournal
from conquista.rules.engine import Game
from conquista.table.effects import Answered, Effect
from conquista.table.inputs import AskQuestion, Input, Say
from conquista.table.questions import QuestionKind, TableQuestion
from conquista.table.table_view import TableView


class Asking(Protocol):
    """The referee's side of the resume prompt: the question and the notice go in as its inputs."""

    def step(self, item: Input, now: float) -> list[Effect]: ...

    def view(self) -> TableView: ...

    def start(self, game: Game, now: float, said: str) -> None: ...


@dataclass
class PlayStart:
    journal: GameJournal
    game: Game | None = None           # the saved game to play on (resumed, or shown while the players choose)
    offer: GameInfo | None = None      # set when the players are asked first


@dataclass(frozen=True)
class Wanted:
    """The game the command line asked for (`--rules`, `--players`): only a saved game that is one is resumed or
    offered, so asking for a French game never brings back an unrelated Italian one."""

    ruleset: str | None = None
    players: int | None = None

    def __call__(self, info: GameInfo) -> bool:
        return (self.ruleset is None or info.ruleset == self.ruleset) and (
            self.players is None or info.players == self.players)

    def words(self) -> str:
        asked = [f"--rules {self.ruleset}"] if self.ruleset is not None else []
        asked += [f"--players {self.players}"] if self.players is not None else []
        return " ".join(asked)


def open_for_play(data_dir: str | Path | None, resume: bool | int | None, warn: Callable[[str], object],
                  wanted: Wanted | None = None) -> PlayStart:
    """`resume`: True resumes the latest unfinished game, an int that game, False starts anew, None asks.
    With `wanted`, True and None look only at saved games of that ruleset and number of players."""
    journal = GameJournal(data_dir)
    said = [*journal.warnings, *([journal.fault] if journal.fault else [])]
    try:
        start = _start(journal, resume, warn, wanted)
    except JournalError as exc:
        # The error is the one line that matters: what opening found about the same game or file is not said
        # again before it (it used to be printed two or three times), nor the damage of other games, which
        # `conquista games` lists: at most one warning, about the file, comes before the error.
        for text in said:
            failed = journal.failure and journal.failure in text and journal.failure in str(exc)
            if not (failed or says_the_same(text, str(exc)) or _about_one_game(text)):
                warn(text)
                break
        raise
    for text in said:
        warn(text)
    return start


def _about_one_game(warning: str) -> bool:
    """Whether a warning from opening the journal is about one saved game (damaged, restored or refused)."""
    return re.search(r": game \d+ is damaged", warning) is not None


def says_the_same(warning: str, error: str) -> bool:
    """Whether a warning from opening the journal is news the error about to be shown already gives."""
    if warning in error or error in warning:
        return True
    damaged = re.search(r": game (\d+) is damaged", warning)
    return damaged is not None and f": game {damaged.group(1)} is damaged" in error


def _start(journal: GameJournal, resume: bool | int | None, warn: Callable[[str], object],
           wanted: Wanted | None) -> PlayStart:
    if resume is False:
        return PlayStart(journal)
    store = journal.store
    if resume is not None and not isinstance(resume, bool):
        if store is None:
            raise JournalError(f"{journal.failure}; game {resume} cannot be resumed from it: check --data-dir")
        info = store.info(resume)
        if info.status == FINISHED:
            raise JournalError(f"{journal.path}: game {resume} is finished; `conquista replay {resume}"
                               f"{data_dir_option(journal.path)}` shows it")
        return PlayStart(journal, journal.resume(resume))
    saved = journal.latest_unfinished(wanted)
    if saved is None:
        other = journal.latest_unfinished() if wanted is not None and wanted.words() else None
        if other is not None:
            warn(f"{journal.path}: unfinished game {other.id} ({other.ruleset}, {other.players} players) is not the "
                 f"game {wanted.words() if wanted else ''} asks for, so a new one starts; "
                 f"`--resume {other.id}` plays it on")
        elif resume:
            warn(f"{journal.path}: no unfinished game to resume, a new one starts")
        return PlayStart(journal)
    if resume:
        # A bare --resume may take a game other than the one the command line would have started: say which.
        warn(f"{journal.path}: resuming game {saved.id} ({saved.ruleset}, {saved.players} players, turn "
             f"{saved.turn})")
    return PlayStart(journal, journal.resume(saved.id), None if resume else saved)


def offer_resume(referee: Asking, journal: GameJournal, saved: GameInfo, new_game: Callable[[], Game], *,
                 set_up: Callable[[float], None] | None = None) -> Callable[[Asking, Answered], None]:
    """Show the saved game and ask: ROLL plays on, CANCEL abandons it and starts `new_game()`, or, with
    `set_up`, calls `set_up(now)` to let the players choose the new game (the set-up menu on the ring).
    Returns what to do with the answer: the shell hangs it on its router for `Answered` (other questions' answers
    are let by)."""
    question = TableQuestion(
        QuestionKind.RESUME,
        f"unfinished game {saved.id} ({saved.ruleset}, {saved.players} players, turn {saved.turn}): ROLL resumes "
        f"it; CANCEL marks it abandoned (no longer offered, still listed by `conquista games` and resumable with "
        f"--resume {saved.id}) and starts a new game", subject=saved.id)

    def answered(referee: Asking, answer: Answered) -> None:
        if answer.question != question:
            return
        resume, now = answer.yes, answer.now
        if resume:
            referee.step(Say(f"game {saved.id} resumed"), now)
            return
        journal.abandon()
        if set_up is not None:
            set_up(now)
            return
        game = new_game()
        journal.start(game)
        referee.start(game, now, "a new game starts")

    referee.step(AskQuestion(question), referee.view().now)
    return answered
