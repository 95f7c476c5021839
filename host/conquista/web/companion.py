"""The board loop's side of the web app: phone commands in, snapshots out.

The board loop stays the only writer of the game. The server's thread only `submit`s commands into a thread-safe
inbox; `step(referee, now)`, called by the board loop on each pass, translates each into the referee's input
(table/inputs.py: the referee decides who may act, what a trade may be, the pause and the turn's clock), routes
what each command gave out through the table's effect router (`route_effects`, set by `EffectRouter.add_phones`:
the journal records it before any view shows it), and when anything changed turns the table's one view of that
version (`Referee.view()`) into every audience's frame and hands the serialised snapshot to the server (`send`,
which the server wires to its event loop with `call_soon_threadsafe`). The seats' tokens are the web's own
(web/seats.py); who hosts is the referee's (`TableView.host`): the host's settings go to it as `AsHost`, which it
takes from the hosting seat only.
"""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conquista.bots.roster import DEFAULT_BOT
from conquista.errors import ConquistaError
from conquista.rules.engine import Game
from conquista.table import inputs
from conquista.table.effects import Effect, GameStarted, PhoneRefused, SeatToBot
from conquista.table.hint_asks import HintNews
from conquista.table.referee import Referee
from conquista.table.seat_claims import CLAIM_TIMEOUT_S, ClaimNews, ClaimState
from conquista.web.seats import SeatBook
from conquista.web.views import SeatState, host_view, map_view, public_view, seat_view

# The wire records, long imported from here.
from conquista.web.wire import ClaimAnswer as ClaimAnswer
from conquista.web.wire import ClaimSeat as ClaimSeat
from conquista.web.wire import Command as Command
from conquista.web.wire import GameSetUp as GameSetUp
from conquista.web.wire import HintAnswer as HintAnswer
from conquista.web.wire import HostDice as HostDice
from conquista.web.wire import HostHints as HostHints
from conquista.web.wire import HostLeave as HostLeave
from conquista.web.wire import HostNewGame as HostNewGame
from conquista.web.wire import HostPause as HostPause
from conquista.web.wire import HostRemote as HostRemote
from conquista.web.wire import Outgoing as Outgoing
from conquista.web.wire import Refusal as Refusal
from conquista.web.wire import RefuseClaim as RefuseClaim
from conquista.web.wire import SavedChoice as SavedChoice
from conquista.web.wire import ScreenClosed as ScreenClosed
from conquista.web.wire import SeatGesture as SeatGesture
from conquista.web.wire import SeatHint as SeatHint
from conquista.web.wire import SeatNotice as SeatNotice
from conquista.web.wire import SeatTrade as SeatTrade
from conquista.web.wire import Snapshot as Snapshot
from conquista.web.wire import StartedGame as StartedGame
from conquista.web.wire import Unseated as Unseated

PAUSED = "paused from the host's phone"


@dataclass
class Companion:
    seats: SeatBook
    # Starts the game the host's phone set up (the app also journals it); None when the command line set it up.
    new_game: Callable[[GameSetUp], StartedGame] | None = None
    # The unfinished saved games the host may resume (asked when the game or the host changes, not every frame).
    saved_games: Callable[[], tuple[SavedChoice, ...]] = tuple
    bot_kinds: dict[int, str] = field(default_factory=dict)   # the bot playing each bot seat
    send: Callable[[Outgoing], None] = lambda item: None
    # Wakes the board's loop when a command is queued (an event-driven loop blocks until an input comes).
    wake: Callable[[], None] = lambda: None
    claim_timeout_s: float = CLAIM_TIMEOUT_S
    # The table's effect router (app/routing.py), which calls `route` back; None: a companion alone (no journal,
    # no other screens), which routes the referee's effects to itself.
    route_effects: Callable[[Referee, float], None] | None = None
    inbox: queue.SimpleQueue[Command] = field(default_factory=queue.SimpleQueue)
    latest: Snapshot | None = None
    map_json: str = ""
    territory_ids: tuple[str, ...] = ()
    _version: int = 0
    _key: tuple[Any, ...] = ()
    _saved: tuple[SavedChoice, ...] = ()
    _saved_key: tuple[int, int] = (-1, -1)
    _bound: frozenset[int] = frozenset()      # the seats with a phone at the last snapshot
    _hosted_by: int = 0                        # the referee told that its first seat granted hosts (its id)
    # This process's clock, read with the board's at every publish: the server tells screens the board's "now"
    # (`board_now`) from it, between two passes of the board's loop too.
    wall: Callable[[], float] = time.monotonic
    _anchor: tuple[float, float] = (0.0, 0.0)  # (the board's now, the wall's) at the last publish

    def submit(self, command: Command) -> None:
        """From any thread (the server's): queue a phone's command for the board loop, and wake it."""
        self.inbox.put(command)
        self.wake()

    def step(self, referee: Referee, now: float) -> None:
        """On the board loop: take the phones' commands, publish what changed."""
        if referee.view().claim_timeout_s != self.claim_timeout_s:
            referee.step(inputs.SetTimeOuts(claim_s=self.claim_timeout_s), now)
        if self.seats.first_seat_hosts and self._hosted_by != id(referee):
            self._hosted_by = id(referee)   # told once: the referee keeps it across its games
            referee.step(inputs.HOST_FIRST_SEAT, now)
        while True:
            try:
                command = self.inbox.get_nowait()
            except queue.Empty:
                break
            self._take(referee, command, now)
            self._routed(referee, now)   # what the command did is journalled before the next one acts
        self._routed(referee, now)
        self.publish(referee, now)

    def _routed(self, referee: Referee, now: float) -> None:
        if self.route_effects is not None:
            self.route_effects(referee, now)
        else:
            self.route(referee, referee.take_effects())

    def route(self, referee: Referee, effects: list[Effect]) -> None:
        """The referee's effects for the phones: what became of seat claims (each phone is answered, a grant with
        the seat's token; the seat's current phone is told of a claim for its seat), and a game started (the seats
        follow it: a seat gone, or now a bot's, unbinds its phones at the next snapshot), a seat handed to a
        bot (likewise), what became of a phone's ask for a hint (to that phone), and a phone's command refused (to
        that phone). The rest is not the phones'."""
        game = referee.view().game
        for news in effects:
            if isinstance(news, GameStarted):
                self.seats.resize(news.players, frozenset(news.bots) if news.bots is not None else None)
                if news.bots is not None:
                    self.bot_kinds = dict(news.bots)
                continue
            if isinstance(news, SeatToBot):   # from the host's phone or CANCEL held at the board: no phone plays it
                self.bot_kinds.setdefault(news.seat, DEFAULT_BOT)
                self.seats.resize(game.players, self.seats.bots | {news.seat})
                continue
            if isinstance(news, HintNews):   # to the phone that asked only: a hint may name the seat's cards
                ids = tuple(game.map.id(t) for t in news.territories)
                self.send(HintAnswer(news.screen, news.seat, news.text, ids, news.state))
                continue
            if isinstance(news, PhoneRefused):
                self.send(Refusal(news.screen, news.reason))
                continue
            if not isinstance(news, ClaimNews):
                continue
            colour = game.rules.colours[news.seat] if 0 <= news.seat < game.players else "?"
            if news.state is ClaimState.GRANTED:
                grant = self.seats.grant(news.seat, host=referee.view().host == news.seat)
                self.send(ClaimAnswer(news.screen, news.seat, ClaimState.GRANTED, grant=grant))
            elif news.state is ClaimState.ASKED:
                self.send(ClaimAnswer(news.screen, news.seat, ClaimState.ASKED,
                                      f"press ROLL and NEXT together at the board within "
                                      f"{self.claim_timeout_s:.0f} s (the ring's foot blinks {colour})"))
                if news.seat in self.seats.phones():
                    self.send(SeatNotice(news.seat, f"another phone asks for your seat ({colour}): the board grants "
                                                    f"it with ROLL and NEXT together; you may refuse it"))
            else:
                self.send(ClaimAnswer(news.screen, news.seat, news.state, news.reason))

    # ------------------------------------------------------------------------------------------ commands

    def _take(self, referee: Referee, command: Command, now: float) -> None:
        match command:
            case ClaimSeat(connection, seat):
                self._ask_for_seat(referee, connection, seat, now)
            case ScreenClosed(connection):
                referee.step(inputs.ForgetClaim(connection), now)
            case RefuseClaim(seat):
                if seat in self.seats.phones():
                    referee.step(inputs.RefuseClaim(seat), now)
            case SeatGesture(seat, gesture):
                referee.step(inputs.SeatAct(seat, gesture), now)   # the referee says whether the seat may act
            case SeatTrade(seat, cards, connection):
                # A refusal goes back to this phone only (`PhoneRefused`): its words name the cards.
                referee.step(inputs.TradeSet(seat, cards, connection), now)
            case SeatHint(seat, connection):
                # The referee answers at once that hard thinks (or why not), and later with the hint (`route`).
                referee.step(inputs.AskHint(seat, connection), now)
            # The host's settings: the referee takes them from the hosting seat only (`AsHost`), else refuses.
            case HostHints(seat, allowed, leds, connection):
                referee.step(inputs.AsHost(seat, connection, inputs.SetHints(allowed, leds)), now)
            case HostPause(seat, paused, connection):
                fault = inputs.Fault(inputs.FaultSource.HOST, PAUSED if paused else None)
                referee.step(inputs.AsHost(seat, connection, fault), now)
            case HostDice(seat, physical, connection):
                # Between battles only: the referee leaves dice being typed in as they are.
                referee.step(inputs.AsHost(seat, connection, inputs.SetPhysicalDice(physical)), now)
            case HostLeave(connection, seat, target, bot):
                # A bot's seat from now on: its `SeatToBot` unbinds the seat's phones when it is routed.
                referee.step(inputs.AsHost(seat, connection, inputs.LeaveSeat(target, bot, connection)), now)
            # A new game and a remote seat are the app's and the web's to make, for the seat the referee says hosts.
            case HostNewGame(connection, seat, setup):
                if seat >= 0 and seat == referee.view().host:
                    self._new_game(referee, connection, seat, setup, now)
                else:
                    self.send(Refusal(connection, "only the host's phone can change the game's set-up"))
            case HostRemote(connection, seat, target):
                host = referee.view().host
                why = self.seats.why_not_claim(target) or ("" if seat >= 0 and seat == host
                                                           else "only the host gives a remote seat")
                if why:
                    self.send(ClaimAnswer(connection, target, ClaimState.REFUSED, why))
                else:
                    self.send(ClaimAnswer(connection, target, ClaimState.REMOTE,
                                          grant=self.seats.grant(target, remote=True, host=target == host)))

    @property
    def host_seat(self) -> int:
        """The hosting seat as last published (from any thread: the server's first check of a host's command; the
        referee checks again)."""
        latest = self.latest
        return latest.host_seat if latest is not None else -1

    @property
    def paused(self) -> bool:
        """The host's phone paused the game (the referee's: `TableView.paused`), as last published."""
        return bool(self._key and self._key[-1])

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
        if setup.palette is not None:
            referee.step(inputs.SetPalette(setup.palette), now)   # the board's colours: the next games keep them
        tournament = " with the tournament ending" if game.rules.tournament_ending else ""
        said = (f"saved game {setup.resume} resumed" if setup.resume is not None
                else f"a new game of {game.rules.name}{tournament} for {game.players} players starts")
        referee.start(game, now, f"{said}; {started.note}" if started.note else said, bots=started.bots,
                      dice=started.dice, settings=started.settings)
        self._routed(referee, now)   # the seats follow the new game before anything else

    def _ask_for_seat(self, referee: Referee, connection: int, seat: int, now: float) -> None:
        players = referee.view().game.players
        if self.seats.players != players:  # the table started another game (e.g. at the resume prompt)
            self.seats.resize(players)
        why = self.seats.why_not_claim(seat)
        if why:
            self.send(ClaimAnswer(connection, seat, ClaimState.REFUSED, why))
            return
        referee.step(inputs.SeatClaim(connection, seat), now)

    # ------------------------------------------------------------------------------------------ snapshots

    def _unbind(self, game: Game, phones: frozenset[int]) -> None:
        """Seats whose phone lost its token since the last snapshot: their connections are told why, at once."""
        for seat in sorted(self._bound - phones):
            colour = game.rules.colours[seat] if seat < game.players else f"seat {seat}"
            if seat >= game.players:
                reason = f"the new game has no {colour} seat"
            elif seat in self.seats.bots:
                reason = f"a bot plays the {colour} seat now"
            elif game.left[seat]:
                reason = f"{colour} left the game"
            else:
                reason = f"the {colour} seat was given up: ask for a seat again"
            self.send(Unseated(seat, reason))
        self._bound = phones

    def board_now(self) -> float:
        """The board's clock now (from any thread): its time at the last publish plus the wall's since."""
        board, wall = self._anchor
        return board + (self.wall() - wall)

    def publish(self, referee: Referee, now: float, force: bool = False) -> None:
        self._anchor = (now, self.wall())
        table = referee.view()
        game = table.game
        phones = self.seats.phones()
        if phones != self._bound:
            self._unbind(game, phones)
        claiming = table.claim_seat
        # The referee's version moves on every change it makes; the rest is the seats' own state.
        key = (id(game), table.version, phones, claiming, self.seats.remote, table.paused)
        if key == self._key and not force:
            return
        self._key = key
        self._version += 1
        if not self.map_json:
            self.map_json = json.dumps(map_view(game))
            self.territory_ids = tuple(game.map.id(t) for t in range(game.map.size))
        state = SeatState(phones=phones, bots=self.seats.bots, claiming=claiming, host=table.host,
                          remote=self.seats.remote)
        public = public_view(table, state, table.turn_seconds(now), now)
        public["version"] = self._version
        if (id(game), table.host) != self._saved_key and self.new_game is not None and table.host >= 0:
            self._saved_key = (id(game), table.host)
            self._saved = self.saved_games()
        host = host_view(table, state, players=game.players, paused=table.paused, can_set_up=self.new_game is not None,
                         bot_kinds=self.bot_kinds, saved=self._saved)
        seats = []
        for seat in range(game.players):
            view = seat_view(table, seat, remote=seat in self.seats.remote)
            view["version"] = self._version
            seats.append(json.dumps(view))
        snapshot = Snapshot(self._version, json.dumps(public), tuple(seats), json.dumps(host), table.host)
        self.latest = snapshot
        self.send(snapshot)
