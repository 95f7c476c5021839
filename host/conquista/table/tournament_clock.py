"""The tournament clock at the table (docs/rules.md, "Tournament ending"; docs/playing.md says what the board shows).

The rules read no clock: the table counts the seconds of PLAY of the game it referees, gives them to
`Game.tournament_status(elapsed_s)`, and applies `ClockOut()` when that says it is due. Pure: time is passed in.

What counts as play: the time the game is on the board, except while a fault pauses it (the link, the host's
pause, the disk), while the set-up menu is shown and while the power-off question is asked. A powered-off board
counts nothing, of course; what a resumed game played before is read back from the journal's per-row times
(`saved`, told by the app as data whenever a game starts: the times the journal saved each of its actions): every
gap between two
saved actions counts, except a gap longer than `PAUSE_GAP_S`, which was the board switched off or left paused and
counts nothing. [approximation] So a resume loses the seconds between the last saved action and the switch-off,
and a short cut of power (under `PAUSE_GAP_S`) counts as play; a fault's pause in an earlier session counts as
play when it lasted less than that.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from conquista.rules.actions import ClockOut
from conquista.rules.engine import Game
from conquista.rules.records import frozen_record
from conquista.rules.tournament import Stage, TournamentStatus
from conquista.table.colours import OFF, RGB
from conquista.table.decisions import Apply, Decisions, NoticeOf

TOURNAMENT_SIGNAL: RGB = (255, 140, 0)   # amber: the ring's top LED once the clock has run out
SIGNAL_BLINK_S = 1.0
PAUSE_GAP_S = 600.0     # a longer gap between two saved actions was a pause or a switched-off board, not play


class ClockTable(Protocol):
    """What the clock needs of the table's state (conquista.table.table_state.TableState)."""

    @property
    def game(self) -> Game: ...

    @property
    def prompt(self) -> str: ...

    @property
    def power_question(self) -> bool: ...

    @property
    def menu(self) -> object | None: ...

    @property
    def entry(self) -> object | None: ...

    @property
    def fault(self) -> str: ...


def played_from_times(times: Sequence[float]) -> float:
    """The seconds of play between the first and the last of the journal's action times (see the module's doc)."""
    total = 0.0
    for before, after in itertools.pairwise(times):
        gap = after - before
        if 0.0 < gap <= PAUSE_GAP_S:
            total += gap
    return total


def counts(table: ClockTable) -> bool:
    """Whether the time passing now is play time."""
    game = table.game
    return (game.rules.tournament_ending and not game.over and table.menu is None and not table.fault
            and not table.power_question)


@frozen_record(slots=True, eq=False)
class TournamentClock:
    """Seconds of play of the game refereed, from the times passed in (`update` at each tick): a value (a part of
    the table's state); each change returns a new clock. A game that is not the one followed (a new one, a resumed
    one) starts from what it played before, as the journal's times of its saved actions say (`saved`)."""

    saved_game: Game | None = None   # a game, and the play its saved actions show
    saved_play: float = 0.0
    game: Game | None = None
    before: float = 0.0       # play before this session (from the journal)
    played: float = 0.0       # play in this session, up to `last`
    last: float = 0.0
    running: bool = False
    minute: int = -1          # the minute of play the screens were last told about

    def saved(self, game: Game, times: Sequence[float]) -> TournamentClock:
        """What `game` played before this session: the times the journal saved each of its actions (the app says
        it when a game starts: built, resumed, or new)."""
        play = played_from_times(times)
        return replace(self, saved_game=game, saved_play=play,
                       before=play if game is self.game else self.before)

    def _before(self, game: Game) -> float:
        return self.saved_play if self.saved_game is game else 0.0

    def update(self, table: ClockTable, now: float) -> TournamentClock:
        game = table.game
        if game is not self.game:
            before, played = self._before(game), 0.0
        else:
            before, played = self.before, self.played + (max(0.0, now - self.last) if self.running else 0.0)
        return replace(self, game=game, before=before, played=played, last=now, running=counts(table))

    def elapsed(self, table: ClockTable, now: float) -> float:
        """Seconds of play at `now` (read only: `update` moves the clock)."""
        if table.game is not self.game:
            return self._before(table.game)
        return self.before + self.played + (max(0.0, now - self.last) if self.running else 0.0)

    def status(self, table: ClockTable, now: float) -> TournamentStatus | None:
        """What the screens show; None for a game without the tournament ending."""
        game = table.game
        if not game.rules.tournament_ending:
            return None
        return game.tournament_status(self.elapsed(table, now))

    def check(self, table: ClockTable, now: float) -> tuple[TournamentClock, bool, Decisions]:
        """At a tick: the clock moved to `now`, whether a new minute of play began, and what the table does when
        the clock has run out (`ClockOut()`, journalled like any action). It waits for a question, a fault, the
        menu and dice being typed in: the game goes on from where it was. A new minute moves the referee's
        version, so the screens, which count the clock down by themselves between two views, get a new view once
        a minute (a screen that joined late is within a minute of the board)."""
        clock = self.update(table, now)
        game = table.game
        if not game.rules.tournament_ending or game.clock_out_round or game.over:
            return clock, False, ()
        elapsed = clock.elapsed(table, now)
        minute = int(elapsed // 60)
        moved = minute != clock.minute
        if moved:
            clock = replace(clock, minute=minute)
        if table.menu is not None or table.fault or table.prompt or table.entry is not None or table.power_question:
            return clock, moved, ()
        # The rules say when it is due; asked only once the time could be up (the status counts every seat's
        # points, too dear for every tick).
        if elapsed < game.rules.tournament_minutes * 60 or not game.tournament_status(elapsed).clock_out_due:
            return clock, moved, ()
        return clock, True, (Apply(ClockOut()), NoticeOf(_ran_out))


def _ran_out(game: Game) -> str:
    return (f"the tournament clock ran out: round {game.clock_out_round} is the second-to-last, the next one the "
            f"last")


def clock_text(seconds: float) -> str:
    """Seconds as the clock shows them: 1:05:09, 12:34."""
    whole = int(seconds + 0.999)  # a clock shows 0:00 only when the time is up
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def stage_words(status: TournamentStatus) -> str:
    """The tournament's stage in words, for the pending line, the terminal and the screens."""
    match status.stage:
        case Stage.CLOCK:
            left = status.seconds_left
            return f"tournament clock {clock_text(left)}" if left is not None else "tournament clock"
        case Stage.SECOND_TO_LAST:
            return "tournament: the second-to-last round"
        case Stage.LAST:
            return "tournament: the last round"
        case Stage.CLOSING:
            return f"tournament: a closing roll of {status.closing_number} or under ends the game"
        case Stage.TIE_BREAK:
            return "tournament: a tie-break round"
        case _:
            return "tournament: over"


def with_tournament_signal(ring: tuple[RGB, ...], game: Game, now: float) -> tuple[RGB, ...]:
    """The ring's top LED once the clock has run out: amber, steady in the second-to-last round, blinking after."""
    if not ring or not game.rules.tournament_ending or game.over or not game.clock_out_round:
        return ring
    steady = game.tournament_stage() is Stage.SECOND_TO_LAST
    lit = steady or (now % SIGNAL_BLINK_S) < SIGNAL_BLINK_S / 2
    return (TOURNAMENT_SIGNAL if lit else OFF, *ring[1:])


def to_json(status: TournamentStatus | None) -> dict[str, object] | None:
    """The status for the web views (JSON-ready)."""
    if status is None:
        return None
    return {"seconds_left": None if status.seconds_left is None else round(status.seconds_left, 1),
            "clock": None if status.seconds_left is None else clock_text(status.seconds_left),
            "stage": status.stage.value, "round": status.round, "closing_number": status.closing_number,
            "points": list(status.points), "armies": list(status.armies), "text": stage_words(status)}
