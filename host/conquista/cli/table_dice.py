"""The chance source of a table session (`play`, `sim`): every game's deal, missions, card draws and dice come from
it. `--dice` names the kind for new games; a resumed committed game goes on with its own stream (its secret seed is
kept by the journal in a private file), whatever `--dice` says."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from conquista.dice.chance import GameChance, new_game
from conquista.dice.sources import CommittedDice, DiceKind
from conquista.errors import ConquistaError, SeedError

if TYPE_CHECKING:
    from conquista.journal import GameJournal, PlayStart
    from conquista.rules.engine import Game
    from conquista.rules.mapdata import GameMap
    from conquista.rules.ruleset import Ruleset

Fresh = TypeVar("Fresh")


class TableDice:
    """`chance` is what the referee rolls and draws from for the whole session; each game gets its own source."""

    def __init__(self, kind: str, seed: int | str | None, journal: GameJournal | None,
                 out: Callable[[str], object]) -> None:
        self.chance = GameChance(kind, seed)
        self.journal = journal
        self.out = out

    def start_new(self) -> GameChance:
        """A new game is about to be dealt from `chance`: its own fresh source, the log header that names it (and a
        committed source's commitment, shown now), and a committed seed handed to the journal's private file."""
        self.chance.new()
        self._tell_journal()
        committed = self.chance.committed()
        if committed is not None:
            self.out(f"committed dice: commitment {committed.commitment} (the seed is revealed when the game ends)")
        return self.chance

    def follow(self, journal: GameJournal) -> None:
        """`journal` opened after the game in play was dealt (`play --new` opens it once the first frame shows): it
        gets that game's dice header and committed seed, as `start_new` would have given them."""
        self.journal = journal
        self._tell_journal()

    def _tell_journal(self) -> None:
        """The log header's dice of the game just dealt, and a committed source's secret seed, for the journal."""
        if self.journal is None:
            return
        committed = self.chance.committed()
        self.journal.dice_header = (committed.header() if committed is not None
                                    else {"source": self.chance.source.name})
        self.journal.new_dice_secret = committed.secret() if committed is not None else None

    def new_game(self, rules: Ruleset, game_map: GameMap, players: int) -> Game:
        return new_game(rules, game_map, players, self.start_new())

    def game_to_play(self, start: PlayStart, fresh: Callable[[], Fresh],
                     warn: Callable[[str], object]) -> Game | Fresh:
        """The saved game of `start` to play on, with its own dice, or `fresh()`. A committed game whose seed is
        not kept is refused when asked for by --resume (the error says why); offered at start-up, it is passed
        over and a new game starts."""
        if start.game is None:
            return fresh()
        try:
            self.resume(start.game)
        except ConquistaError as exc:
            if start.offer is None:
                raise
            warn(f"{exc}; it is not offered, a new game starts")
            start.offer = None
            return fresh()
        return start.game

    def resume(self, game: Game) -> None:
        """Play on saved `game` (the journal follows it): a committed game with its own seed and stream; another
        with a fresh source of the chosen kind (a committed one cannot start in the middle of a game)."""
        saved = self.journal.dice() if self.journal is not None else {}
        if saved.get("source") == CommittedDice.name:
            secret = self.journal.dice_secret() if self.journal is not None else None
            which = f"game {self.journal.game_id}" if self.journal is not None else "the saved game"
            if secret is None:
                raise ConquistaError(f"{which} was played with committed dice and its secret seed is not kept "
                                     f"(saved before seeds were kept, or its file was removed): it cannot go on with "
                                     f"the same dice; start a new game with --new")
            try:
                dice = self.chance.resume_committed(game, secret)
            except SeedError as exc:
                raise ConquistaError(f"{which}: {exc}") from None
            self.out(f"committed dice: {which} goes on with commitment {dice.commitment} "
                     f"({dice.rolls} rolls and {dice.draws} card draws of its stream already used)")
            return
        if saved.get("source") in (DiceKind.OS.value, DiceKind.SEEDED.value) and saved["source"] != self.chance.kind:
            self.chance.use(DiceKind(saved["source"]))   # the source the game was started with, whatever --dice says
            return
        if self.chance.kind is DiceKind.COMMITTED:
            self.out("committed dice: the saved game was not started with them, so it goes on with the "
                     "operating system's dice; they apply from the next new game")
            self.chance.use(DiceKind.OS)
            return
        self.chance.new()

    def finish(self, over: bool, in_use: object = None) -> None:
        """At the end of a finished committed game the seed is revealed, so anyone can re-derive every roll, draw and
        the deal; the journal's private copy is removed. An unfinished game keeps it secret (and kept). `in_use`:
        the dice the referee ended with, a committed source of their own when the host's phone asked for one."""
        if isinstance(in_use, CommittedDice) and in_use is not self.chance.committed():
            if over:
                self.out(self._revealed(in_use.reveal()))
                if self.journal is not None and self.journal.dice_secret() == in_use.secret():
                    self.journal.forget_dice_secret()
            else:
                self.out("committed dice: the game is not over, so the seed stays secret")
            return
        committed = self.chance.committed()
        if committed is None:
            return
        if over:
            self.out(self._revealed(committed.reveal()))
            if self.journal is not None:
                self.journal.forget_dice_secret()
        else:
            self.out("committed dice: the game is not over, so the seed stays secret")

    def _revealed(self, seed: str) -> str:
        """The revealed seed and the command that checks the game with it: the saved game's own number (the journal
        keeps the seed with the game from now on), or its log file when the game was not saved."""
        from conquista.journal.paths import data_dir_option

        game_id = self.journal.game_id if self.journal is not None else None
        game = (f"{game_id}{data_dir_option(self.journal.path)}" if self.journal is not None and game_id is not None
                else "GAME.jsonl")
        where = "" if game_id is not None else " (the game's log: it was not saved)"
        return (f"committed dice: the seed was {seed}; keep it to check the whole game with "
                f"`conquista dice audit {game} --verify-seed {seed}`{where}")
