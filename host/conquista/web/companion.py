"""The board loop's side of the web app: phone commands in, snapshots out.

The board loop stays the only writer of the game. The server's thread only `submit`s commands into a thread-safe
inbox; `step(referee, now)`, called by the board loop on each pass, drains it into the referee exactly as taps and
presses (so the referee checks them and the journal records them), times out seat claims, and when anything
changed builds every audience's view and hands the serialised snapshot to the server (`send`, which the server
wires to its event loop with `call_soon_threadsafe`).
"""

from __future__ import annotations

import json
import queue
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conquista.dice.sources import DiceSource
from conquista.errors import ConquistaError
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.table.colours import player_rgb
from conquista.table.gestures import Gesture
from conquista.table.referee import Referee
from conquista.web.seats import Grant, SeatBook
from conquista.web.views import DEFAULT_BOT, SeatState, host_view, map_view, public_view, seat_view

CLAIM_TIMEOUT_S = 30.0
PAUSED = "paused from the host's phone"


# ---------------------------------------------------------------------------------------- phone → board

@dataclass(frozen=True)
class ClaimSeat:
    connection: int
    seat: int


@dataclass(frozen=True)
class SeatGesture:
    """A tap or a press made from a seat's phone; it counts only while that seat is to move."""

    seat: int
    gesture: Gesture


@dataclass(frozen=True)
class SeatTrade:
    seat: int
    cards: tuple[int, ...]
    connection: int = -1


@dataclass(frozen=True)
class HostPause:
    seat: int
    paused: bool


@dataclass(frozen=True)
class HostDice:
    """The host switches between the board's electronic dice and physical dice typed in with the encoder."""

    seat: int
    physical: bool


@dataclass(frozen=True)
class GameSetUp:
    """A game the host's phone asks for, in the structure the board's composition root starts games from: a new
    game (ruleset, players, which seats bots play and which bot, the ruleset's house switches, the dice), or a
    saved game resumed (`resume`, its id; the rest is then the saved game's own)."""

    rules: str = ""
    players: int = 0
    bots: tuple[tuple[int, str], ...] = ()     # (seat, bot kind), by seat; every other seat is a person
    automatic_defence: bool | None = None      # None: as the ruleset says
    committed_dice: bool = False               # provably fair: a commitment shown now, the seed when the game ends
    resume: int | None = None


@dataclass(frozen=True)
class StartedGame:
    """What the composition root made of a `GameSetUp`: the game (already journalled), its bots, and its dice
    source (None: keep the board's)."""

    game: Game
    bots: dict[int, str] = field(default_factory=dict)
    dice: DiceSource | None = None
    note: str = ""                             # for the table, e.g. the committed dice's commitment


@dataclass(frozen=True)
class SavedChoice:
    """An unfinished saved game the host may resume."""

    id: int
    rules: str
    players: int
    turn: int
    last_played: str
    seats: tuple[str, ...] | None = None


@dataclass(frozen=True)
class HostNewGame:
    """The host sets up a game (`GameSetUp`); the one being played is abandoned, or kept when another saved game
    is resumed."""

    connection: int
    seat: int
    setup: GameSetUp


@dataclass(frozen=True)
class HostRemote:
    """The host gives `target` to a player away from the table: a link with the seat's token, no ROLL needed."""

    connection: int
    seat: int
    target: int


@dataclass(frozen=True)
class HostLeave:
    """The host makes `target` leave the game (docs/rules.md, "Table features"): the armies stay and only defend, or
    with `bot` a bot takes the seat. The same path as CANCEL held down at the board: the referee checks it, the
    journal records it."""

    connection: int
    seat: int
    target: int
    bot: bool = False


Command = ClaimSeat | SeatGesture | SeatTrade | HostPause | HostDice | HostNewGame | HostRemote | HostLeave


# ---------------------------------------------------------------------------------------- board → server

@dataclass(frozen=True)
class ClaimAnswer:
    """The board's answer to a phone's claim: granted (with the token), refused, or expired."""

    connection: int
    seat: int
    state: str                  # "asked" | "granted" | "refused" | "expired" | "remote" (a link for the host)
    reason: str = ""
    grant: Grant | None = None


@dataclass(frozen=True)
class Refusal:
    """A command refused for one screen only: its reason may name the seat's own cards, so it is not public."""

    connection: int
    reason: str


@dataclass(frozen=True)
class Snapshot:
    """Every audience's view, serialised once: the public one, each seat's, the host's."""

    version: int
    public: str
    seats: tuple[str, ...]
    host: str
    host_seat: int

    def public_dict(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.public)
        return parsed


@dataclass
class _Claim:
    connection: int
    seat: int
    question: str
    asked_at: float


@dataclass
class Companion:
    seats: SeatBook
    # Starts the game the host's phone set up (the app also journals it); None when the command line set it up.
    new_game: Callable[[GameSetUp], StartedGame] | None = None
    # The unfinished saved games the host may resume (asked when the game or the host changes, not every frame).
    saved_games: Callable[[], tuple[SavedChoice, ...]] = tuple
    bot_kinds: dict[int, str] = field(default_factory=dict)   # the bot playing each bot seat
    send: Callable[[ClaimAnswer | Refusal | Snapshot], None] = lambda item: None
    claim_timeout_s: float = CLAIM_TIMEOUT_S
    inbox: queue.SimpleQueue[Command] = field(default_factory=queue.SimpleQueue)
    latest: Snapshot | None = None
    map_json: str = ""
    territory_ids: tuple[str, ...] = ()
    paused: bool = False
    _claim: _Claim | None = None
    _version: int = 0
    _key: tuple[Any, ...] = ()
    _turn_key: tuple[int, int] = (-1, -1)
    _turn_started: float = 0.0
    _saved: tuple[SavedChoice, ...] = ()
    _saved_key: tuple[int, int] = (-1, -1)

    def submit(self, command: Command) -> None:
        """From any thread (the server's): queue a phone's command for the board loop."""
        self.inbox.put(command)

    def step(self, referee: Referee, now: float) -> None:
        """On the board loop: take the phones' commands, time out a claim, publish what changed."""
        while True:
            try:
                command = self.inbox.get_nowait()
            except queue.Empty:
                break
            self._take(referee, command, now)
        claim = self._claim
        if claim is not None and now - claim.asked_at >= self.claim_timeout_s:
            referee.withdraw(claim.question)
            self._claim = None
            self.send(ClaimAnswer(claim.connection, claim.seat, "expired",
                                  f"nobody pressed ROLL at the board within {self.claim_timeout_s:.0f} s"))
        self.publish(referee, now)

    # ------------------------------------------------------------------------------------------ commands

    def _take(self, referee: Referee, command: Command, now: float) -> None:
        match command:
            case ClaimSeat(connection, seat):
                self._ask_for_seat(referee, connection, seat, now)
            case SeatGesture(seat, gesture):
                if self._may_act(referee, seat):
                    referee.handle(gesture, now)
            case SeatTrade(seat, cards, connection):
                # Checked here rather than by the referee, whose refusal (on the public board) names the cards.
                game = referee.game
                if not self._may_act(referee, seat) or game.phase not in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
                    self.send(Refusal(connection, "a set is traded only in your reinforcement, before attacking"))
                elif tuple(sorted(cards)) not in game.valid_trades(seat):
                    self.send(Refusal(connection, "those cards are not a set you hold"))
                else:
                    referee.trade(tuple(sorted(cards)), now)
            case HostPause(seat, paused):
                if seat == self.seats.host and seat >= 0:
                    self._pause(referee, paused)
            case HostDice(seat, physical):
                # Between battles only: dice being typed in stay as they are.
                if seat == self.seats.host and seat >= 0 and referee.entry is None:
                    referee.physical_dice = physical
            case HostNewGame(connection, seat, setup):
                if seat == self.seats.host and seat >= 0:
                    self._new_game(referee, connection, seat, setup, now)
            case HostLeave(connection, seat, target, bot):
                if seat == self.seats.host and seat >= 0:
                    self._leave(referee, connection, target, bot, now)
            case HostRemote(connection, seat, target):
                why = self.seats.why_not_claim(target) or ("" if seat == self.seats.host and seat >= 0
                                                           else "only the host gives a remote seat")
                if why:
                    self.send(ClaimAnswer(connection, target, "refused", why))
                else:
                    self.send(ClaimAnswer(connection, target, "remote", grant=self.seats.grant(target, remote=True)))

    def _leave(self, referee: Referee, connection: int, target: int, bot: bool, now: float) -> None:
        if not 0 <= target < referee.game.players:
            self.send(Refusal(connection, f"there is no seat {target}"))
            return
        if not referee.leave(target, now, bot=bot):
            self.send(Refusal(connection, referee.message))
            return
        if bot:  # the seat is a bot's from now on: no phone plays it
            self.bot_kinds.setdefault(target, DEFAULT_BOT)
            self.seats.resize(referee.game.players, self.seats.bots | {target})

    def _may_act(self, referee: Referee, seat: int) -> bool:
        # A seat acts only for itself and only when it is to move; a paused game takes nothing from phones.
        return not self.paused and referee.game.to_move == seat and not referee.prompt and referee.menu is None

    def _pause(self, referee: Referee, paused: bool) -> None:
        if paused and not referee.fault:
            referee.fault = PAUSED
        elif not paused and referee.fault == PAUSED:
            referee.fault = ""
        self.paused = referee.fault == PAUSED

    def _new_game(self, referee: Referee, connection: int, host: int, setup: GameSetUp, now: float) -> None:
        if self.new_game is None:
            self.send(Refusal(connection, "this game was set up on the command line"))
            return
        if any(seat == host for seat, _kind in setup.bots):
            self.send(Refusal(connection, "your own seat cannot be a bot: you are playing it"))
            return
        try:
            started = self.new_game(setup)
        except ConquistaError as exc:
            self.send(Refusal(connection, str(exc)))
            return
        game = started.game
        if started.dice is not None:
            referee.dice = started.dice
        referee.reset(game, now)
        if setup.resume is not None:
            referee.message = f"saved game {setup.resume} resumed"
        else:
            referee.message = f"a new game of {game.rules.name} for {game.players} players starts"
        if started.note:
            referee.message += f"; {started.note}"
        self.bot_kinds = dict(started.bots)
        self.seats.resize(game.players, frozenset(started.bots))

    def _ask_for_seat(self, referee: Referee, connection: int, seat: int, now: float) -> None:
        if self.seats.players != referee.game.players:  # the table started another game (e.g. at the resume prompt)
            self.seats.resize(referee.game.players)
        why = self.seats.why_not_claim(seat)
        if not why and (self._claim is not None or referee.prompt):
            why = "the board is answering another question: try again in a moment"
        if why:
            self.send(ClaimAnswer(connection, seat, "refused", why))
            return
        colour = referee.game.rules.colours[seat]
        question = f"a phone asks for the {colour} seat: ROLL grants it, CANCEL refuses"
        self._claim = _Claim(connection, seat, question, now)

        def answered(yes: bool, _when: float) -> None:
            self._claim = None
            if yes:
                self.send(ClaimAnswer(connection, seat, "granted", grant=self.seats.grant(seat)))
            else:
                self.send(ClaimAnswer(connection, seat, "refused", "CANCEL was pressed at the board"))

        referee.ask(question, answered, colour=player_rgb(colour))
        self.send(ClaimAnswer(connection, seat, "asked", f"press ROLL at the board within "
                                                         f"{self.claim_timeout_s:.0f} s (the ring flashes {colour})"))

    # ------------------------------------------------------------------------------------------ snapshots

    def publish(self, referee: Referee, now: float, force: bool = False) -> None:
        game = referee.game
        turn_key = (game.turn, game.current)
        if turn_key != self._turn_key:
            self._turn_key, self._turn_started = turn_key, now
        phones = self.seats.phones()
        claiming = self._claim.seat if self._claim is not None else -1
        key = (id(game), len(game.log), len(referee.log), referee.message, referee.source, referee.target,
               referee.count, referee.prompt, referee.fault, phones, claiming, self.seats.host, self.seats.remote,
               referee.physical_dice, referee.power_question,
               None if referee.menu is None else referee.menu.describe(),
               None if referee.entry is None else (tuple(referee.entry.values), referee.entry.current))
        if key == self._key and not force:
            return
        self._key = key
        self._version += 1
        if not self.map_json:
            self.map_json = json.dumps(map_view(game))
            self.territory_ids = tuple(game.map.id(t) for t in range(game.map.size))
        state = SeatState(phones=phones, bots=self.seats.bots, claiming=claiming, host=self.seats.host,
                          remote=self.seats.remote)
        public = public_view(referee, state, now - self._turn_started)
        public["version"] = self._version
        if (id(game), self.seats.host) != self._saved_key and self.new_game is not None and self.seats.host >= 0:
            self._saved_key = (id(game), self.seats.host)
            self._saved = self.saved_games()
        host = host_view(referee, state, players=game.players, paused=self.paused, can_set_up=self.new_game is not None,
                         bot_kinds=self.bot_kinds, saved=self._saved)
        seats = []
        for seat in range(game.players):
            view = seat_view(referee, seat)
            view["version"] = self._version
            seats.append(json.dumps(view))
        snapshot = Snapshot(self._version, json.dumps(public), tuple(seats), json.dumps(host), self.seats.host)
        self.latest = snapshot
        self.send(snapshot)
