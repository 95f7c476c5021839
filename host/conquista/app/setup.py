"""A new game chosen at the board: the set-up menu offered on the ring, and the game it returns started (dealt,
journaled with its seats, its bots seated). Used by `play` on the real board and by `sim` on the simulated one."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Protocol

from conquista.app.routing import EffectRouter
from conquista.bots.roster import HUMAN as HUMAN  # the roster's spelling, long imported from here
from conquista.bots.roster import bots_of as bots_of
from conquista.bots.roster import seats_of as seats_of
from conquista.rules.engine import Game
from conquista.rules.rulesets import Ruleset, builtin_rulesets, load_ruleset
from conquista.table.bot_player import BotSeats
from conquista.table.effects import NewGameAsked, SetupChosen
from conquista.table.inputs import OfferMenu, OfferNewGame, SetPalette
from conquista.table.referee import Referee
from conquista.table.setup_menu import RulesetOption, SetupChoice, SetupMenu


class SeatsJournal(Protocol):
    """What starting a game needs of `conquista.journal.GameJournal` (not imported: it opens sqlite3)."""

    seats: tuple[str, ...] | None

    def start(self, game: Game) -> None: ...


@functools.cache
def menu_options() -> tuple[RulesetOption, ...]:
    """The shipped rulesets, for the menu's first step."""
    return tuple(RulesetOption.of(name, load_ruleset(name)) for name in builtin_rulesets())


class NewGameAtBoard:
    """Offers the set-up menu on a referee; the game chosen there is dealt by `deal(rules, players)` (the ruleset
    with the tournament ending as chosen: the log header, and so the journal and a resume, keep it), journaled
    with its seats, refereed from then on in the LED palette chosen, and its bots seated in `bots`; the web app's
    seats follow its `GameStarted` (routed once, app/routing.py).
    The next menu starts from the last choice: its ruleset, players and tournament switch (this object's), and its
    palette (the referee's, which the next games keep). The menu's choice and ROLL after a game's end reach it as
    the referee's effects (`SetupChosen`, `NewGameAsked`) through `router`, on which it hangs its decisions."""

    def __init__(self, deal: Callable[[Ruleset, int], Game], bots: BotSeats, router: EffectRouter, *,
                 journal: SeatsJournal | None = None, rules: str | None = None, players: int = 3) -> None:
        self.deal = deal
        self.bots = bots
        self.journal = journal
        self.rules = rules
        self.players = players
        self.tournament: bool | None = None   # the host's last switch (None: each ruleset's own setting)
        self._finish: Callable[[], None] = lambda: None
        router.on(SetupChosen, lambda referee, chosen: self.start(referee, chosen.choice, chosen.now))
        router.on(NewGameAsked, lambda referee, _asked: self._again(referee))

    def offer(self, referee: Referee, bots: Mapping[int, str] | None = None) -> None:
        """The set-up menu, its seats' bots `bots` (seat → kind; None: every seat a person)."""
        menu = SetupMenu(menu_options(), rules=self.rules, players=self.players, bots=bots,
                         tournament=self.tournament, palette=referee.view().palette)
        referee.step(OfferMenu(menu), referee.view().now)

    def start(self, referee: Referee, choice: SetupChoice, now: float) -> None:
        rules = load_ruleset(choice.rules)
        game = self.deal(load_ruleset(choice.rules, choice.overrides(rules)), choice.players)
        if self.journal is not None:
            self.journal.seats = seats_of(choice.players, choice.bots)
            self.journal.start(game)
        self.bots.seat(choice.bots)
        referee.step(SetPalette(choice.palette), now)
        tournament = " with the tournament ending" if game.rules.tournament_ending else ""
        referee.start(game, now, f"a new game of {choice.rules}{tournament} for {choice.players} players starts",
                      bots=choice.bots)
        # Remembered as the next menu's starting point.
        self.rules, self.players, self.tournament = choice.rules, choice.players, choice.tournament

    def offer_after_game(self, referee: Referee, finish: Callable[[], None]) -> None:
        """Once the game is over, ROLL offers the set-up menu for the next game; `finish()` first closes the game
        that ended (e.g. reveals a committed seed)."""
        self._finish = finish
        referee.step(OfferNewGame(True), referee.view().now)   # an offer of the app's, at the referee's time

    def _again(self, referee: Referee) -> None:
        """The next game's menu starts from the game that ended: its count of players and its seats, each bot at
        its level (the table that just played with two bots most likely plays with them again)."""
        self._finish()
        self.players = referee.view().game.players
        self.offer(referee, bots=self.bots.kinds)
