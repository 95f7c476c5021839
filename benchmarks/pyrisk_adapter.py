"""pyrisk's AIs (https://github.com/chronitis/pyrisk) as seats of our engine, each deciding exactly as in pyrisk's
own game: the AI runs in its own Python 2.7 process (benchmarks/pyrisk_seat.py) on pyrisk's own world objects,
which this side keeps equal to our board, and is asked what pyrisk's `Game.play` asks it, in the same order.

The maps are the same: `check_maps` compares pyrisk's 42 territories, their 6 continents, the continents' bonuses
and every link with ours, by name (pyrisk spells four territories its own way, `PYRISK_NAMES`), and refuses to
play if any differs.

Where our classic rules differ from pyrisk's (pyrisk's rules: its README and `game.py`), the seat does this:

- Territories: pyrisk's players choose them one by one; the classic rules deal them. The deal stands, and the
  AI's choice of empty territories (`initial_placement(empty, ...)`) is never asked.
- Starting armies: pyrisk gives 35 - 2 × players (31 in a duel, 27 for four); classic 40 and 30. Classic's stand.
  Each army of the set-up is placed where `initial_placement(None, remaining)` says, one at a time, as in pyrisk.
- Cards: pyrisk has none, so its AIs know nothing of them. The seat draws its card as the rules do and trades a
  set as soon as it holds one (the first set the rules allow, at the start of its reinforcements, and after taking
  a beaten player's cards), the most armies soonest; the set's armies go into the pool the AI's `reinforce(n)` is
  asked to place, and the territory bonus is placed by the rules.
- Attacks: pyrisk's loop fights each (source, target, attack strategy, move strategy) the AI yields, rolling the
  most dice (3 and 2) while its attack strategy says go on, the source has 2 armies or more and the target any.
  The seat does the same with single rolls (`Attack`, most dice) and defends with the most dice (pyrisk's
  defender always rolls 2 when it can; the classic rules let a defender choose, and our bots choose).
- Moving in: pyrisk moves the move strategy's count clamped to [min(attackers - 1, 3), attackers - 1]; the seat
  asks the same, then clamps into our rules' range (the dice of the last roll at least). The two differ only when
  the conquering roll cost the attacker an army with 4 or 5 left; counted as `clamped`.
- Free move: pyrisk allows one move of any count between any two of a player's territories; classic allows it
  between neighbours only. A move our rules refuse is skipped, as pyrisk's loop skips a move it refuses; counted
  as `moves_refused` (BetterAI moves from its strongest inland territory to its priority front, often far off).
- pyrisk's `event()` calls are not made: none of the four AIs implements `event()`.

Nothing here is part of the product: the benchmark (bench_pyrisk_strength.py) and its test use it, with a pyrisk
checkout given to them and a Python 2.7 (CONQUISTA_PYRISK_PYTHON, or `python2.7` on the PATH).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conquista.rules.actions import Action, Attack, Defend, EndPhase, Fortify, Occupy, Place, Trade
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.mapdata import GameMap

SEAT_SCRIPT = Path(__file__).resolve().parent / "pyrisk_seat.py"
ENV_PYTHON = "CONQUISTA_PYRISK_PYTHON"
AIS = ("StupidAI", "BetterAI", "AlAI", "ChronAI")
# pyrisk's spelling → ours, where they differ
PYRISK_NAMES = {"Northwest Territories": "Northwest Territory", "Mexico": "Central America",
                "Venezuala": "Venezuela", "Scandanavia": "Scandinavia", "South East Asia": "Siam (Southeast Asia)",
                "Australia": "Oceania (Australia)"}


class SeatProblem(Exception):
    """pyrisk's seat process cannot play: no Python 2.7, a different map, or it wrote a log."""


def python27() -> str | None:
    """A Python 2.7 to run pyrisk's AIs with: CONQUISTA_PYRISK_PYTHON, else `python2.7` on the PATH if it runs."""
    candidates = [os.environ.get(ENV_PYTHON) or "", shutil.which("python2.7") or ""]
    for exe in candidates:
        if exe and subprocess.run([exe, "-c", "import sys; assert sys.version_info[:2] == (2, 7)"],
                                  capture_output=True).returncode == 0:
            return exe
    return None


class SeatProcess:
    """The Python 2.7 process holding one game's pyrisk seats; one request a line each way."""

    def __init__(self, peer: Path, python: str) -> None:
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([python, str(SEAT_SCRIPT), str(peer)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr, text=True, bufsize=1,
                                     env={**os.environ, "PYTHONHASHSEED": "0"})

    def ask(self, request: dict[str, Any]) -> Any:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        line = self.proc.stdout.readline()
        if not line:
            raise SeatProblem(f"pyrisk's seat process stopped: {self.close()}")
        return json.loads(line)

    def check_quiet(self) -> None:
        """Raises `SeatProblem` once the process has written anything on stderr: a side that logs is not
        compared (its time and its behaviour would be the log's)."""
        written = os.fstat(self.stderr.fileno()).st_size
        if written:
            self.stderr.seek(0)
            first = self.stderr.read(200).decode(errors="replace").splitlines()[0]
            raise SeatProblem(f"pyrisk's seats wrote {written} bytes on stderr (e.g. {first[:100]!r}): it logs, and "
                              "a side that logs is not compared")

    def close(self) -> str:
        """Ends the process; why it ended, as far as its stderr says."""
        assert self.proc.stdin is not None
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")[-500:]


def check_maps(seats: SeatProcess, game_map: GameMap) -> None:
    """Raises `SeatProblem` naming the first difference between pyrisk's map and ours."""
    theirs = seats.ask({"op": "map"})
    index = {t.name_en: t.index for t in game_map.territories}
    ours_areas = sorted([c.name_en, c.bonus, sorted(game_map.territories[t].name_en for t in c.territories)]
                        for c in game_map.continents)
    their_areas = sorted([PYRISK_NAMES.get(n, n), v, sorted(PYRISK_NAMES.get(t, t) for t in ts)]
                         for n, v, ts in theirs["areas"])
    if ours_areas != their_areas:
        raise SeatProblem(f"the continents differ: ours {ours_areas}, pyrisk's {their_areas}")
    their_links = {tuple(sorted((PYRISK_NAMES.get(a, a), PYRISK_NAMES.get(b, b)))) for a, b in theirs["links"]}
    ours_links = {tuple(sorted((game_map.territories[a].name_en, game_map.territories[b].name_en)))
                  for a in range(len(game_map.territories)) for b in game_map.neighbours[a]}
    if their_links != ours_links or set(index) != {n for link in their_links for n in link}:
        raise SeatProblem(f"the links differ: only ours {sorted(ours_links - their_links)}, only pyrisk's "
                          f"{sorted(their_links - ours_links)}")


class Tally:
    """What the rules made the seats do differently from pyrisk's own game, counted."""

    def __init__(self) -> None:
        self.clamped = 0          # move-ins clamped into our rules' range
        self.moves_refused = 0    # free moves our rules refuse (not neighbours)
        self.unplaced = 0         # armies the AI's reinforce() left unplaced (placed on its first choice)


class PyriskSeats:
    """Every pyrisk seat of one game, as bots: `bot(seat)` is the seat's `choose`."""

    def __init__(self, seats: SeatProcess, game: Game, ais: Sequence[str | None], seed: int, tally: Tally,
                 trade: bool = True) -> None:
        self.seats, self.game, self.tally, self.trade = seats, game, tally, trade
        self.names = [t.name_en for t in game.map.territories]
        back = {ours: theirs for theirs, ours in PYRISK_NAMES.items()}
        self.their = [back.get(n, n) for n in self.names]
        self.index = {n: i for i, n in enumerate(self.their)}
        self.queue: list[Action] = []        # placements decided and not yet made
        self.turn: tuple[int, int] | None = None   # (turn, seat) whose attack sequence is started
        self.fight: tuple[int, int] | None = None  # the attack being fought
        self.moved = False
        self.turns: set[tuple[int, int]] = set()   # (turn, seat) of the turns the seats have played
        seats.ask({"op": "new", "seed": seed, "seats": list(ais)})

    def board(self) -> list[list[Any]]:
        owner, armies = self.game.owner, self.game.armies
        return [[self.their[t], owner[t], armies[t]] for t in range(len(owner))]

    def choose(self, game: Game) -> Action:
        assert game is self.game
        phase = game.phase
        if phase is Phase.DEFEND:
            battle = game.battle
            assert battle is not None
            return Defend(min(game.armies[battle.target], game.rules.defender_dice_max))
        me = game.current
        if self.queue:
            return self.queue.pop(0)
        if phase is Phase.SETUP:
            return self._setup(me)
        if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
            return self._reinforce(me)
        if phase is Phase.ATTACK:
            return self._attack(me)
        if phase is Phase.OCCUPY:
            return self._occupy()
        if phase is Phase.FORTIFY:
            return self._fortify(me)
        raise SeatProblem(f"a pyrisk seat was asked to act in phase {phase.value}")

    def _setup(self, me: int) -> Action:
        """One army where `initial_placement(None, remaining)` says (pyrisk asks again after a refused choice)."""
        for _ in range(100):
            name = self.seats.ask({"op": "place", "seat": me, "remaining": self.game.pool, "board": self.board()})
            if name is not None:
                return Place(self.index[name], 1)
        raise SeatProblem("a pyrisk AI chose no territory of its own to place on 100 times")

    def _reinforce(self, me: int) -> Action:
        game = self.game
        if self.trade and len(game.hands[me]) >= 3:
            trades = [a for a in game.legal_actions() if isinstance(a, Trade)]
            if trades:
                return trades[0]
        if game.pool == 0:
            return EndPhase()
        if game.phase is Phase.ELIMINATION_TRADE:
            # pyrisk has no such armies: placed one at a time as the set-up's (all four AIs' `initial_placement`
            # changes nothing of theirs, where ChronAI's `reinforce` would plan its turn afresh mid-turn)
            return self._setup(me)
        self.turns.add((game.turn, me))
        choices = self.seats.ask({"op": "reinforce", "seat": me, "available": game.pool, "board": self.board()})
        left = game.pool
        for name, count in choices:
            count = min(count, left)
            if count:
                self.queue.append(Place(self.index[name], count))
                left -= count
        if left:
            self.tally.unplaced += left
            first = self.queue[0] if self.queue else None
            where = first.territory if isinstance(first, Place) else game.owner.index(me)
            self.queue.append(Place(where, left))
        return self.queue.pop(0)

    def _attack(self, me: int) -> Action:
        game = self.game
        if self.turn != (game.turn, me):
            self.turn, self.fight, self.moved = (game.turn, me), None, False
            self.seats.ask({"op": "attack", "seat": me, "board": self.board()})
        while True:
            if self.fight is not None:
                s, t = self.fight
                a, d = game.armies[s], game.armies[t]
                if game.owner[s] == me and game.owner[t] != me and a > 1 and d > 0 and self.seats.ask(
                        {"op": "go_on", "attackers": a, "defenders": d}):
                    return Attack(s, t, min(a - 1, game.rules.attacker_dice_max))
                self.fight = None
            pair = self.seats.ask({"op": "next", "board": self.board()})
            if pair is None:
                return EndPhase()
            self.fight = (self.index[pair[0]], self.index[pair[1]])

    def _occupy(self) -> Action:
        game = self.game
        battle = game.battle
        assert battle is not None
        attackers = game.armies[battle.source] + game.armies[battle.target]
        move = self.seats.ask({"op": "move", "attackers": attackers})
        low, high = game.occupy_range()
        if not low <= move <= high:
            self.tally.clamped += 1
        self.fight = None   # pyrisk's combat is over with the conquest; its sequence goes on
        return Occupy(max(low, min(move, high)))

    def _fortify(self, me: int) -> Action:
        if self.moved:
            return EndPhase()
        self.moved = True
        move = self.seats.ask({"op": "freemove", "seat": me, "board": self.board()})
        if move is None or move[2] == 0:
            return EndPhase()
        action = Fortify(self.index[move[0]], self.index[move[1]], move[2])
        if not self.game.is_legal(action):
            self.tally.moves_refused += 1
            return EndPhase()
        return action
