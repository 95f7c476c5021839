"""One assembly of a table — referee, LED layout, runner and journal — for the real board and the simulated one."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from conquista.app.board_settings import BoardSettings
from conquista.app.routing import EffectRouter
from conquista.app.runner import TableRunner
from conquista.app.sounds import CuePlayer
from conquista.devices.frames import LedLayout
from conquista.devices.interfaces import LedStrip
from conquista.dice.sources import DiceSource
from conquista.hardware.profile import BoardProfile
from conquista.rules.engine import Game
from conquista.rules.records import frozen_record
from conquista.table.bot_player import BotSeats
from conquista.table.colours import Palette
from conquista.table.effects import GameStarted, SeatToBot
from conquista.table.gestures import GestureRecogniser
from conquista.table.inputs import ClockSaved, Fault, SavedHints, Setting
from conquista.table.referee import Referee


class Journal(Protocol):
    """What the table needs of `conquista.journal.GameJournal` (not imported here: sqlite3 is for the commands
    that save games)."""

    @property
    def path(self) -> Path: ...

    def attach(self, referee: Referee) -> None: ...

    def follow(self, effects: Iterable[object]) -> None: ...

    def reseat(self, seat: int, kind: str) -> None: ...

    def take_fault(self) -> Fault | None: ...

    def row_times(self) -> list[float]: ...

    def hint_counts(self, game: Game) -> tuple[tuple[int, int], ...]: ...

    def table_inputs(self) -> list[Setting]: ...


@frozen_record
class Table:
    """A referee at a board: the referee, where the board's LEDs sit, and the runner that connects the two."""

    referee: Referee
    layout: LedLayout
    runner: TableRunner

    @property
    def router(self) -> EffectRouter:
        """Where the referee's effects leave: the journal first, then the shell's decisions, phones, terminal."""
        return self.runner.router


def build_table(game: Game, profile: BoardProfile, dice: DiceSource, strip: LedStrip, *,
                physical_dice: bool = False, journal: Journal | None = None,
                recogniser: GestureRecogniser | None = None, sounds: CuePlayer | None = None,
                bots: BotSeats | None = None, palette: Palette | None = None,
                router: EffectRouter | None = None, settings_beside: Path | None = None) -> Table:
    """The table for `game` on the board `profile` describes, painting into `strip`. With a journal, every action
    is on disk before the frame that shows it. With `bots`, the runner makes their gestures (the real board;
    the simulated one makes them with its simulated hands). `palette`: the seats' LED colours, standard or for
    colour-blind players (the host's choice at set-up; `referee.palette` may also be switched during a game);
    None: the one the board's settings beside the journal keep (app/board_settings.py), which then keep the host's
    next choice too. `router`: where the referee's effects leave (one is made when none is given); the journal and
    the buzzer are put first and last in it. `settings_beside`: where the journal will be, when it is followed
    later (`follow_journal`)."""
    layout = LedLayout(profile)
    journal_at = journal.path if journal is not None else settings_beside
    settings = BoardSettings.beside(journal_at) if journal_at is not None else None
    if palette is None:
        palette = settings.palette if settings is not None else Palette.STANDARD
    # With bots, a player leaving may hand the seat to one (the app's offer: `OfferBots`).
    # A resumed game's own settings, before its first chance step is answered (a roll that waited for physical
    # dice is typed in again); `follow_journal` then finds none left to give.
    saved = journal.table_inputs() if journal is not None else []
    referee = Referee(game, dice, ring_size=layout.ring_length, physical_dice=physical_dice, palette=palette,
                      bots_available=bots is not None, settings=saved)
    router = router if router is not None else EffectRouter()
    if bots is not None:
        # The bot plays the seat from now on (the saved game says so too: `follow_journal`).
        router.on(SeatToBot, lambda _referee, seated: bots.take_over(seated.seat, seated.now))
    if journal is not None:
        follow_journal(referee, journal, router, bots)
    router.sounds = sounds
    return Table(referee, layout, TableRunner(referee, layout, strip, recogniser, sounds, bots, settings, router))


def follow_journal(referee: Referee, journal: Journal, router: EffectRouter, bots: BotSeats | None = None) -> None:
    """Journal the referee's game from now on (`build_table` does when given the journal; `play --new` once its
    first frame shows, before the board takes any input): its actions (the router's first stop), a seat handed to a
    bot (a resumed game keeps the bot in that seat), its time of play, the hints its seats asked for."""
    journal.attach(referee)
    # A resumed game plays on with the settings it was played with (physical dice, hints, time-outs), the command
    # line's notwithstanding; a game resumed later from a phone likewise, once it starts.
    _saved_settings(referee, journal)
    router.on(GameStarted, lambda ref, _started: _saved_settings(ref, journal))
    router.journal = router.storage = journal   # its fault goes back to the referee as an input, when it changes
    if bots is not None:   # after build_table's decision, which seated the bot
        router.on(SeatToBot, lambda _referee, seated: journal.reseat(seated.seat, bots.kinds[seated.seat]))
    # The tournament clock of a resumed game goes on from the time of play its saved actions show: told as data
    # now, and again whenever a game starts (the journal follows it by then: the router's first stop).
    def clock_saved(ref: Referee, _started: object = None) -> None:
        ref.step(ClockSaved(tuple(journal.row_times())), ref.view().now)

    clock_saved(referee)
    router.on(GameStarted, clock_saved)
    # Likewise the hints each seat asked for before the game was resumed: the luck report counts them.
    _saved_hints(referee, journal)
    router.on(GameStarted, lambda ref, _started: _saved_hints(ref, journal))


def _saved_settings(referee: Referee, journal: Journal) -> None:
    for setting in journal.table_inputs():
        referee.step(setting, referee.view().now)


def _saved_hints(referee: Referee, journal: Journal) -> None:
    view = referee.view()
    counts = journal.hint_counts(view.game)
    if counts:
        referee.step(SavedHints(counts), view.now)
