"""Games set up from the host's phone: the composition root's side of the web app's `GameSetUp`.

The phone's command reaches the board loop like a tap (conquista.web.companion); there the companion calls this,
which checks the set-up (ruleset, player range, bot seats, house switches), deals the game from the board's chance
source or from a fresh committed seed, and journals it (the game on the board is marked abandoned), or resumes a
saved game from the journal. Refusals are ConquistaErrors whose text goes back to the host's phone only.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from conquista.bots import BOT_NAMES
from conquista.bots.roster import bots_of, seats_of
from conquista.dice.chance import new_game
from conquista.dice.sources import CommittedDice, DiceSource
from conquista.errors import ConquistaError
from conquista.journal import ABANDONED, PLAYING, GameJournal, JournalError
from conquista.journal.store import iso_time
from conquista.rules.mapdata import GameMap
from conquista.rules.rulesets import load_ruleset
from conquista.web.companion import GameSetUp, SavedChoice, StartedGame

SAVED_SHOWN = 8             # the host's phone lists the unfinished games played last


class HostSetUp:
    """`plain()` gives a game's chance: the generator the deal comes from, the dice source for the game, and the
    seed saved with it (None: not reproducible); used unless the host asks for committed dice, and for a resumed
    game's dice (a committed seed belongs to the one game it was committed for). `bots_allowed`: False on the real
    board, which has no bot player yet. `on_start` lets the composition root follow the seats (the simulator's
    bots)."""

    def __init__(self, journal: GameJournal | None, game_map: GameMap, *,
                 plain: Callable[[], tuple[random.Random, DiceSource, int | None]],
                 bots_allowed: bool = True,
                 on_start: Callable[[StartedGame], None] | None = None) -> None:
        self.journal = journal
        self.game_map = game_map
        self.plain = plain
        self.bots_allowed = bots_allowed
        self.on_start = on_start

    def __call__(self, setup: GameSetUp) -> StartedGame:
        started = self._resume(setup.resume) if setup.resume is not None else self._new(setup)
        if self.on_start is not None:
            self.on_start(started)
        return started

    def _new(self, setup: GameSetUp) -> StartedGame:
        # The tournament ending is an option of every ruleset: the log header holds the whole ruleset, so the
        # journal, a resume and a replay keep it.
        tournament = setup.tournament_ending
        rules = load_ruleset(setup.rules, {"tournament_ending": tournament} if tournament is not None else None)
        rules.check_players(setup.players)
        if setup.automatic_defence is not None and setup.automatic_defence != rules.automatic_defence:
            # A house switch: the log header holds the whole ruleset, so a replay defends the same way.
            rules = dataclasses.replace(rules, automatic_defence=setup.automatic_defence)
        bots = dict(setup.bots)
        for seat, kind in bots.items():
            if not 0 <= seat < setup.players:
                raise ConquistaError(f"bot seat {seat} is not a seat of {setup.players} players")
            if kind not in BOT_NAMES:
                raise ConquistaError(f"unknown bot {kind!r}; known bots: {', '.join(BOT_NAMES)}")
        if bots and not self.bots_allowed:
            raise ConquistaError("the real board has no bot player yet: every seat is a person's "
                                 "(conquista sim plays bots)")
        if len(bots) == setup.players:
            raise ConquistaError("at least one seat must be a person's")
        dice: DiceSource
        note, seed = "", None
        if setup.committed_dice:
            committed = CommittedDice()
            game = new_game(rules, self.game_map, setup.players, committed)   # the deal follows the seed too
            dice, note = committed, f"committed dice: commitment {committed.commitment}"
        else:
            rng, dice, seed = self.plain()
            game = new_game(rules, self.game_map, setup.players, rng)
        journal = self.journal
        if journal is not None:
            journal.abandon()
            journal.seats = seats_of(setup.players, bots)
            journal.seed = seed
            # The commitment, never the seed.
            journal.dice_header = dice.header() if isinstance(dice, CommittedDice) else {"source": dice.name}
            journal.start(game)
        return StartedGame(game, bots, dice, note)

    def _resume(self, game_id: int) -> StartedGame:
        journal = self.journal
        if journal is None:
            raise ConquistaError("this board keeps no saved games (start it with --data-dir to save them)")
        if game_id == journal.game_id:
            raise ConquistaError(f"game {game_id} is the one on the board")
        try:
            info = journal.store.info(game_id) if journal.store is not None else None
            if info is None or info.status not in (PLAYING, ABANDONED):
                raise ConquistaError(f"game {game_id} cannot be resumed ({info.status if info else 'no journal'})")
            bots = bots_of(info.seats)
            if bots and not self.bots_allowed:
                raise ConquistaError(f"game {game_id} has bot seats, and the real board has no bot player yet")
            game = journal.resume(game_id)
            journal.flush()   # playing again from now, on disk too: `conquista games` must not list it abandoned
        except JournalError as exc:
            raise ConquistaError(str(exc)) from None
        _rng, dice, _seed = self.plain()
        return StartedGame(game, bots, dice, settings=tuple(journal.table_inputs()))

    def saved(self) -> tuple[SavedChoice, ...]:
        """The unfinished games the host may resume, played last first (not the one on the board)."""
        journal = self.journal
        store = journal.store if journal is not None else None
        if journal is None or store is None:
            return ()
        try:
            games = store.games()
        except JournalError:
            return ()
        return tuple(SavedChoice(g.id, g.ruleset, g.players, g.turn, iso_time(g.last_played), g.seats)
                     for g in games if g.status in (PLAYING, ABANDONED) and g.id != journal.game_id
                     and g.actions > 0)[:SAVED_SHOWN]
