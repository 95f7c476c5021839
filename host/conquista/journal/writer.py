"""`GameJournal`: every action the referee applied is written to the journal before any light shows it (the shell's
router, conquista.app.routing, hands it the referee's effects first, after every input and before every frame).

The journal keeps the game's rows in memory too. Each change (an action, an undo, the end of the game) is written
in one transaction; if the write fails (disk full, read-only, the directory gone) the journal raises a fault (handed
to the referee as its input `Fault(STORAGE, why)` by the router: `take_fault`) that the status ring shows, play goes
on in memory, and every later change first retries the whole backlog (`Backlog`, conquista.journal.backlog): the
journal catches up as soon as the disk takes writes again.

A game reaches the disk with its first action after the deal: a game nobody moved in (the board failed to start, the
player quit at once) is never saved, so it is never offered for resuming. The seats (human or which bot) and, for a
simulated game, its seed are saved with it. At each turn boundary the journal is copied to its verified backup.
A committed game's secret seed is kept apart, in a file only the board's user can read (conquista.journal.dice_secret),
so that a resumed game goes on with the same stream.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Protocol

from conquista.journal.backlog import Backlog
from conquista.journal.checkpoint import (
    drop_snapshots_after,
    due,
    snapshot_sum,
    snapshot_text,
    write_snapshot,
)
from conquista.journal.dice_secret import read_secret, remove_secret, secret_path, write_secret
from conquista.journal.hint_counts import Counts, counts_of, read_hint_counts, write_hint_counts
from conquista.journal.integrity import ABANDONED, FINISHED, PLAYING, GameHeader, chain_step
from conquista.journal.paths import journal_path
from conquista.journal.revealed_seed import write_revealed_seed
from conquista.journal.store import (
    GameInfo,
    JournalError,
    JournalStore,
    NotAJournalError,
    describe_os_error,
)
from conquista.journal.table_settings import (
    TableSettings,
    read_table_settings,
    settings_of,
    write_table_settings,
)
from conquista.rules.actions import Action
from conquista.rules.engine import Game
from conquista.rules.events import Event, GameOver, TurnStarted
from conquista.rules.gamelog import header_for
from conquista.rules.serialize import encode_action
from conquista.table.effects import ActionApplied, ActionUndone
from conquista.table.hint_asks import HintNews, HintState
from conquista.table.inputs import Fault, FaultSource, Setting
from conquista.table.table_view import TableView

log = logging.getLogger("conquista.journal")

BACKUP_INTERVAL_S = 10.0   # at most one backup per this many seconds of play (bots can end a turn every few ms)

Row = tuple[str, int, float]   # the action as log JSON, the turn after it, when it was applied


class FollowedReferee(Protocol):
    """The referee whose game the journal follows, read from its view (its storage fault is handed to it as an
    input: `take_fault`)."""

    def view(self) -> TableView: ...


class GameJournal:
    """Journals one game at a time into the journal of `data_dir` (see `attach`)."""

    def __init__(self, data_dir: str | Path | None = None, *, clock: Callable[[], float] = time.time) -> None:
        self.path = journal_path(data_dir)
        self.clock = clock
        self.fault = ""
        self.failure = ""                        # why the journal could not be written last (within `fault`)
        self.warnings: list[str] = []
        self._following = False                  # attached to a referee: its storage fault is told (`take_fault`)
        self._fault_news: Fault | None = None    # the storage fault to hand to the referee, when it changed
        self.game_id: int | None = None
        self._store: JournalStore | None = None
        self._quiet = False
        self._game: Game | None = None           # the game object this journal follows (identity, for attach)
        self._key = ""
        self._header = ""
        self._rows: list[Row] = []
        self._chains: list[str] = []              # each row's checksum (conquista.journal.integrity)
        self.seats: tuple[str, ...] | None = None  # set before a new game starts: saved with it; resume restores it
        self.seed: int | None = None               # likewise: the seed a simulated game was dealt from
        # The table's settings of the resumed game (physical dice, hints, time-outs: journal.table_settings), to give
        # back to the referee that plays it on; and those on disk for the followed game, written when they change.
        self.table_settings: TableSettings | None = None
        self._settings_on_disk: TableSettings | None = None
        self._settings_pending = False   # resumed, not yet handed back (`table_inputs`): not overwritten until then
        self._referee: FollowedReferee | None = None
        # The hints each seat asked for (the referee's `HintNews`): the luck report of a resumed game counts them.
        self._hints: dict[int, int] = {}
        # What the disk holds of the followed game (its rows, its status, its row in `games`, whose seats change
        # when a bot takes a seat): memory holds the rest, which the next write catches up.
        self._disk = Backlog()
        self._status = PLAYING
        self._winner = -1
        self._backed_up_at = float("-inf")
        self._snapshot_at = 0                    # the rows the last snapshot written follows (checkpoint.py)
        # The log header's "dice" object of games started from now on: the source, and a committed source's
        # commitment (never its seed), so `conquista dice audit ID` knows what to check.
        self.dice_header: dict[str, str] = {}
        # Likewise the secret seed of committed dice: written to a private file before the game's first row, never
        # into the journal (see conquista.journal.dice_secret). `dice_secret()` is the followed game's.
        self.new_dice_secret: bytes | None = None
        self._secret: bytes | None = None
        self._secret_saved = False
        # Open now: a file that is not a journal is refused before play starts. A failure here is not logged:
        # like the warnings, `fault` is printed once by whoever opened the journal.
        self._quiet = True
        _ = self.store
        self._quiet = False

    # ----------------------------------------------------------------------------------------- the store

    def _open(self) -> JournalStore:
        if self._store is None:
            self._store = JournalStore(self.path)
            # Collected, not logged: whoever opened the journal prints them (once).
            self.warnings.extend(self._store.warnings)
        return self._store

    @property
    def store(self) -> JournalStore | None:
        """The open journal, or None while it cannot be opened (the fault says why). A file that is not a journal
        is refused (NotAJournalError), never written over."""
        try:
            return self._open()
        except NotAJournalError:
            raise
        except JournalError as exc:
            self._failed(str(exc))
            return None

    def latest_unfinished(self, wanted: Callable[[GameInfo], bool] | None = None) -> GameInfo | None:
        store = self.store
        return store.latest_unfinished(wanted) if store is not None else None

    # ------------------------------------------------------------------------------------------- binding

    def resume(self, game_id: int) -> Game:
        """Rebuild saved game `game_id` by replay and journal it from where it stopped."""
        store = self.store
        if store is None:
            raise JournalError(f"{self.path}: cannot resume: {self.fault}")
        saved = store.saved_game(game_id)
        _header, game = store.load(game_id, saved=saved)
        for warning in store.warnings:   # e.g. a damaged snapshot: the whole log was replayed instead
            if warning not in self.warnings:
                log.warning("%s", warning)
                self.warnings.append(warning)
        self._game, self.game_id, self._key, self._header = game, game_id, saved.key, saved.header
        self._rows = [(action, turn, at) for action, turn, at, _chain in saved.rows]
        self._chains = [chain for *_row, chain in saved.rows]
        self.seats, self.seed = saved.seats, saved.seed
        self._secret = read_secret(secret_path(self.path, saved.key))
        self._secret_saved = self._secret is not None
        hints, problems = read_hint_counts(store.conn, game_id, saved.players, str(self.path))
        for problem in problems:
            log.warning("%s", problem)
            self.warnings.append(problem)
        self._hints = dict(hints)
        self.table_settings, problems = read_table_settings(store.conn, game_id, str(self.path))
        for problem in problems:
            log.warning("%s", problem)
            self.warnings.append(problem)
        self._settings_on_disk = self.table_settings
        self._settings_pending = self.table_settings is not None
        self._disk = Backlog.written(len(self._rows), saved.status, saved.game_header, hints)
        self._snapshot_at = len(self._rows)
        self._status = saved.status
        self._winner = saved.winner
        if saved.status == ABANDONED:
            self._status = PLAYING                # resuming a game abandoned at the prompt brings it back
        return game

    def start(self, game: Game) -> None:
        """Journal `game` (a new one: it gets a new id) from its deal on; nothing if it is the game being followed."""
        if game is self._game:
            return
        self._game, self.game_id, self._disk = game, None, Backlog()
        self._key = uuid.uuid4().hex
        self._header = json.dumps(header_for(game, self.dice_header).to_json(), ensure_ascii=False)
        self._secret, self._secret_saved = self.new_dice_secret, False
        self._rows, self._chains, self._snapshot_at = [], [], 0
        self._status, self._winner = PLAYING, -1
        self._hints = {}
        self.table_settings = self._settings_on_disk = None
        self._settings_pending = False
        turn, at = game.turn, self.clock()
        for action in game.log:
            self._append(json.dumps(encode_action(action, game.map), ensure_ascii=False), turn, at)
        self._sync()

    def attach(self, referee: FollowedReferee) -> None:
        """Follow the referee's game: its applied actions and undos are journaled as its effects are handed to
        `follow`, and the journal's fault is told as the referee's storage fault (`take_fault`). Actions the
        referee applied before this call (e.g. a roll answered when a resumed game was set up) are journaled now,
        before any frame can show them (their effects, when they come, find them written)."""
        game = referee.view().game
        self.start(game)
        extra = game.log[len(self._rows):]
        if extra:
            for action in extra:
                self._append(json.dumps(encode_action(action, game.map), ensure_ascii=False), game.turn,
                             self.clock())
            if game.over:
                self._status, self._winner = FINISHED, -1 if game.winner is None else game.winner
            self._sync()
        self._following = True
        self._fault_news = Fault(FaultSource.STORAGE, self.fault or None)
        self._referee = referee   # its settings are written when they change (read from its view of the moment)

    def row_times(self) -> list[float]:
        """When each saved action of the followed game was applied (the table's tournament clock reads a resumed
        game's time of play from them)."""
        return [at for _action, _turn, at in self._rows]

    def hint_counts(self, game: Game) -> Counts:
        """The hints each seat asked for in `game`, if it is the followed game (a resumed one's include those asked
        before it was resumed); else none."""
        return counts_of(self._hints) if game is self._game else ()

    def dice(self) -> dict[str, str]:
        """The `dice` object of the followed game's log header (its source and any commitment)."""
        dice = json.loads(self._header).get("dice") if self._header else None
        return dice if isinstance(dice, dict) else {}

    def dice_secret(self) -> bytes | None:
        """The followed game's committed seed, if it has one kept (read back from its file on resume)."""
        return self._secret

    def forget_dice_secret(self) -> None:
        """The game is over and its seed revealed: the seed is kept with the game in the journal (no longer a
        secret: `conquista dice audit ID` checks the game with it), and the private file is removed."""
        if self._key and self._secret is not None:
            self._keep_revealed_seed(self._secret.hex())
            try:
                remove_secret(secret_path(self.path, self._key))
            except OSError as exc:
                log.warning("%s: the revealed dice seed's file was not removed (%s)", self.path,
                            describe_os_error(exc))
            self._secret, self._secret_saved = None, False

    def _keep_revealed_seed(self, seed: str) -> None:
        if not self._sync() or self.game_id is None:
            return          # not on disk (nothing played, or the disk refuses): the line printed is all there is
        try:
            with self._open().transaction() as conn:
                write_revealed_seed(conn, self.game_id, seed)
        except (JournalError, sqlite3.Error, OSError) as exc:
            log.warning("%s: the revealed dice seed was not kept with game %d (%s)", self.path, self.game_id,
                        describe_os_error(exc) if isinstance(exc, OSError) else exc)

    def abandon(self) -> None:
        """The players chose a new game over this unfinished one: it is no longer offered for resuming."""
        if self._status == PLAYING:
            self._status = ABANDONED
            self._sync()

    # ------------------------------------------------------------------------------------ the referee's effects

    def follow(self, effects: Iterable[object]) -> None:
        """The referee's effects (table/effects.py), in the order given: an applied action is written, an undone
        one taken back; the rest is not the journal's. Returns once they are on disk (or the fault is raised)."""
        for effect in effects:
            if isinstance(effect, ActionApplied):
                self.record(effect.action, list(effect.events), seq=effect.seq)
            elif isinstance(effect, ActionUndone):
                self.undo(effect.action)
            elif isinstance(effect, HintNews) and effect.state is HintState.GIVEN and self._game is not None:
                self._hints[effect.seat] = effect.asked
                self._sync()
        self._keep_settings()

    def table_inputs(self) -> list[Setting]:
        """The referee's inputs that give a resumed game back the settings it was played with (once: empty after,
        and for a new game)."""
        if not self._settings_pending or self.table_settings is None:
            return []
        self._settings_pending = False
        return self.table_settings.inputs()

    def _keep_settings(self) -> None:
        """The followed referee's settings, written with the game when they changed (the host's phone may change
        them mid-game): a resumed game plays on with them."""
        if self._referee is None or self.game_id is None or self._settings_pending:
            return
        view = self._referee.view()
        if view.game is not self._game:
            return
        now = settings_of(view)
        if now == self._settings_on_disk:
            return
        try:
            with self._open().transaction() as conn:
                write_table_settings(conn, self.game_id, now)
        except (JournalError, sqlite3.Error, OSError) as exc:
            self._failed(str(exc) if isinstance(exc, JournalError) else f"{self.path}: {describe_os_error(exc)}")
            return
        self._settings_on_disk = now

    def record(self, action: Action, events: list[Event], *, seq: int | None = None) -> None:
        """`action` was applied (at index `seq` of the game's log: a row already written, when the journal started
        following the game, is not written again). Returns once it is on disk (or the fault is raised)."""
        game = self._game
        assert game is not None, "GameJournal.record before start()"
        if seq is not None and seq < len(self._rows):
            return
        turn = self._rows[-1][1] if self._rows else 0
        boundary = False
        for event in events:
            if isinstance(event, TurnStarted):
                turn, boundary = event.turn, True
            elif isinstance(event, GameOver):
                self._status, self._winner, boundary = FINISHED, event.winner, True
        self._append(json.dumps(encode_action(action, game.map), ensure_ascii=False), turn, self.clock())
        if self._sync() and boundary and (self._status == FINISHED
                                          or self.clock() - self._backed_up_at >= BACKUP_INTERVAL_S):
            self.backup()

    def undo(self, action: Action) -> None:
        """The last action was taken back."""
        assert self._game is not None and len(self._rows) > 1, "nothing journaled to undo"
        expected = json.dumps(encode_action(action, self._game.map), ensure_ascii=False)
        if self._rows[-1][0] != expected:
            raise JournalError(f"{self.path}: undo of {action!r} does not match the last journaled action")
        self._rows.pop()
        self._chains.pop()
        self._disk = self._disk.taken_back(len(self._rows))
        self._sync()

    # ------------------------------------------------------------------------------------------ writing

    @property
    def pending(self) -> int:
        """Changes held in memory only (0 when the disk has everything)."""
        return self._disk.pending(len(self._rows), self._status, counts_of(self._hints))

    @property
    def backlog(self) -> Backlog:
        """What the disk holds of the followed game (memory holds the rest: `pending`)."""
        return self._disk

    def take_fault(self) -> Fault | None:
        """The storage fault to hand to the referee followed (`Fault(STORAGE, why)`, or a fault lifted), when it
        changed since it was last taken: the app's router passes it on after every input and before every frame."""
        news, self._fault_news = self._fault_news, None
        return news

    def flush(self) -> bool:
        """Try to write the backlog now; True when the disk has everything."""
        return self._sync()

    def _append(self, action: str, turn: int, at: float) -> None:
        previous = self._chains[-1] if self._chains else self._key
        self._chains.append(chain_step(previous, len(self._rows), action, turn, at))
        self._rows.append((action, turn, at))

    def backup(self) -> bool:
        """Refresh the verified backup copy of the journal (done at each turn boundary); False if it was not."""
        if self._store is None or self.game_id is None:
            return False
        try:
            problem = self._store.backup(self._rewrite)
        except (sqlite3.Error, OSError) as exc:
            problem = f"{self._store.backup_path}: backup not updated ({describe_os_error(exc)})"
        if problem:
            log.warning("%s", problem)
            return False
        self._backed_up_at = self.clock()
        return True

    def _rewrite(self, game_id: int) -> bool:
        """The backup found this game's rows damaged on disk: if it is ours, write them all again from memory."""
        if game_id != self.game_id:
            return False
        log.warning("journal %s: game %d was damaged on disk; written again from memory", self.path, game_id)
        # Its snapshots go with its rows (the next sync writes one afresh), and its row in `games` may be what was
        # damaged: all written again.
        self._disk = self._disk.damaged(len(self._rows))
        self._snapshot_at = 0
        return self._sync()

    def reseat(self, seat: int, kind: str) -> None:
        """A seat changes hands mid-game (a bot takes the seat of a player who left): saved with the next write."""
        if self._game is None:
            return
        from conquista.bots.roster import seats_of  # here: a journal that only lists games never loads the bots

        seats = list(self.seats) if self.seats is not None else list(seats_of(self._game.players, {}))
        seats[seat] = kind
        self.seats = tuple(seats)

    def _sync(self) -> bool:
        disk = self._disk
        hints = counts_of(self._hints)
        if self._game is None or (disk.up_to_date(len(self._rows), self._status, hints)
                                  and not self._header_changed()):
            return True
        if self.game_id is None and len(self._rows) < 2:
            return True         # only the deal: saved with the first action (see the module's docstring)
        try:
            if self._secret is not None and not self._secret_saved:
                # On disk before any row that it decides (the deal itself): a resumed game needs it.
                write_secret(secret_path(self.path, self._key), self._secret)
                self._secret_saved = True
            store = self._open()
            with store.transaction() as conn:
                game_id, header = self._write_header(conn)
                if disk.may_hold > disk.synced:
                    conn.execute("DELETE FROM actions WHERE game = ? AND seq >= ?", (game_id, disk.synced))
                    drop_snapshots_after(conn, game_id, disk.synced)
                conn.executemany("INSERT INTO actions (game, seq, action, turn, at, chain) VALUES (?, ?, ?, ?, ?, ?)",
                                 [(game_id, seq, *row, self._chains[seq]) for seq, row in
                                  enumerate(self._rows[disk.synced:], start=disk.synced)])
                conn.execute("UPDATE games SET length = ? WHERE id = ?", (len(self._rows), game_id))
                snapshot = self._due_snapshot()
                if snapshot is not None:
                    write_snapshot(conn, game_id, *snapshot)
                if self._status != disk.status:
                    conn.execute("UPDATE games SET status = ?, winner = ? WHERE id = ?",
                                 (self._status, self._winner, game_id))
                if hints != disk.hints:
                    write_hint_counts(conn, game_id, hints)
        except NotAJournalError as exc:
            self._failed(str(exc))
            return False
        except (JournalError, sqlite3.Error, OSError) as exc:
            reason = str(exc) if isinstance(exc, JournalError) else f"{self.path}: {describe_os_error(exc)}"
            self._failed(reason)
            return False
        self.game_id = game_id
        if snapshot is not None:
            self._snapshot_at = snapshot[0]
        caught_up = len(self._rows) - disk.synced
        self._disk = Backlog.written(len(self._rows), self._status, header, hints)
        if self.fault:
            log.warning("journal %s writable again: caught up %d actions", self.path, caught_up)
            self._set_fault("")
        return True

    def _due_snapshot(self) -> tuple[int, str, str] | None:
        """(seq, state, checksum) of the snapshot to write with these rows, when one is due: the game's state now,
        which the rows describe only when the game's log is as long as they are."""
        game, length = self._game, len(self._rows)
        if game is None or len(game.log) != length or not due(length, self._snapshot_at):
            return None
        state = snapshot_text(game)
        return length, state, snapshot_sum(self._chains[-1], state)

    def _header_changed(self) -> bool:
        """The followed game's row in `games` must be written again: its seats changed, or it was damaged."""
        on_disk = self._disk.header
        reseated = on_disk is not None and self.seats is not None and self.seats != on_disk.seats
        return on_disk is not None and (self._disk.header_damaged or reseated)

    def _write_header(self, conn: sqlite3.Connection) -> tuple[int, GameHeader]:
        """Write the game's row in `games` (inserted with the first write, then as `_header_changed` says) with the
        checksum of what it holds; returns the game's id and what the row holds."""
        game, on_disk = self._game, self._disk.header
        assert game is not None
        if self.game_id is None or on_disk is None:
            header = GameHeader(self._key, self._header, game.rules.name, game.players, self.seats or None, self.seed)
            # The key makes this idempotent: a commit reported failed that did land is not a second game.
            conn.execute("INSERT OR IGNORE INTO games (created, key, header, ruleset, players, seats, seed, "
                         "header_sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (self._rows[0][2], *_columns(header)))
            return conn.execute("SELECT id FROM games WHERE key = ?", (self._key,)).fetchone()[0], header
        header = on_disk.with_seats(self.seats) if self.seats is not None else on_disk
        if self._header_changed():
            conn.execute("UPDATE games SET key = ?, header = ?, ruleset = ?, players = ?, seats = ?, seed = ?, "
                         "header_sum = ? WHERE id = ?", (*_columns(header), self.game_id))
        return self.game_id, header

    def _failed(self, reason: str) -> None:
        # Whether the failed commit reached the disk is unknown: the next write first deletes what may be there.
        self._disk = self._disk.unsure(len(self._rows))
        if self._store is not None and not self.path.parent.is_dir():
            self._store.close()                   # the directory went away: reopen (and recreate) next time
            self._store = None
        self.failure = reason
        text = f"journal not saved: {reason}; play goes on, {self.pending} change(s) kept in memory"
        if not self.fault and not self._quiet:
            log.warning("%s", text)
        self._set_fault(text)

    def _set_fault(self, text: str) -> None:
        self.fault = text
        if self._following:
            self._fault_news = Fault(FaultSource.STORAGE, text or None)

    def close(self) -> None:
        """Write what can be written, refresh the backup, and close the file."""
        if self._sync() and self.pending == 0:
            self.backup()
        if self._store is not None:
            self._store.close()
            self._store = None

    def __enter__(self) -> GameJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _columns(header: GameHeader) -> tuple[str, str, str, int, str | None, str | None, str]:
    """The `games` columns key, header, ruleset, players, seats, seed and header_sum, as the journal writes them."""
    return (header.key, header.header, header.ruleset, header.players,
            json.dumps(list(header.seats)) if header.seats is not None else None,
            str(header.seed) if header.seed is not None else None, header.checksum())
