"""Resume of long games from the journal against issue 22's targets: 10,000 actions ≤ 0.1 s, 100,000 ≤ 0.3 s.

A two-player classic game is played to that many actions without ending (the bots reinforce, attack once a turn
with one die where the defender holds five armies or more, and end their turns) and journaled, so the journal holds
its snapshots (conquista.journal.checkpoint). Measured: `GameJournal.resume(id)` in a fresh process, best of three,
wall and CPU time, judged by CPU time (on a shared machine the wall time measures the neighbours); opening the
journal and finding the unfinished game are shown apart. The resumed game's digest must be the one played. The
journal lives in a temporary directory.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
from pathlib import Path

from conquista.bots.greedy import GreedyBot
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.journal import GameJournal
from conquista.rules.actions import Action, Attack, EndPhase
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

TARGETS = {10_000: 0.1, 100_000: 0.3}
RESUME = """
import sys, time
from conquista.journal import GameJournal
started = time.perf_counter(), time.process_time()
journal = GameJournal(sys.argv[1])
saved = journal.latest_unfinished()
found = time.perf_counter(), time.process_time()
game = journal.resume(saved.id)
done = time.perf_counter(), time.process_time()
print(found[0] - started[0], done[0] - found[0], done[1] - found[1], len(game.log), game.digest(),
      len(journal.warnings), found[1] - started[1])
"""


def _one_attack(game: Game) -> Action:
    me, owner, armies = game.current, game.owner, game.armies
    if not game.turn_state.attacked:
        for s in range(game.map.size):
            if owner[s] == me and armies[s] >= 3:
                for t in game.map.neighbours[s]:
                    if owner[t] != me and armies[t] >= 5:
                        return Attack(s, t, 1)
    return EndPhase()


def long_game(actions: int) -> Game:
    rng = random.Random(1)
    game = new_game(load_ruleset("classic"), load_map(), 2, rng)
    dice, bot = SeededDice(1), GreedyBot()
    while len(game.log) < actions:
        if game.is_chance():
            action = chance_action(game, dice)
        elif game.phase is Phase.ATTACK:
            action = _one_attack(game)
        elif game.phase is Phase.FORTIFY:
            action = EndPhase()
        else:
            action = bot.choose(game)
        game.apply(action)
    assert not game.over
    return game


def main() -> int:
    missed = []
    with tempfile.TemporaryDirectory(prefix="bench-resume-") as tmp:
        for actions, target in TARGETS.items():
            data_dir = Path(tmp) / str(actions)
            game = long_game(actions)
            with GameJournal(data_dir) as journal:
                journal.start(game)
            runs = []
            for _ in range(3):
                out = subprocess.run([sys.executable, "-c", RESUME, str(data_dir)], capture_output=True, text=True,
                                     check=True).stdout.split()
                assert int(out[3]) == actions and out[4] == game.digest(), "the resumed game differs"
                assert out[5] == "0", "the resume warned"
                runs.append((float(out[1]), float(out[2]), float(out[0]), float(out[6])))
            wall, cpu, find, find_cpu = min(runs)
            # Judged by CPU time: on a shared machine the wall time measures the neighbours (both are shown).
            # Opening the journal verifies the unfinished game's rows once; finding and resuming it use that, so
            # the whole wait (open + find + resume) is shown beside the resume itself.
            ok = min(c for _w, c, _f, _fc in runs) <= target
            cpu = min(c for _w, c, _f, _fc in runs)
            whole = min(c + fc for _w, c, _f, fc in runs)
            missed += [] if ok else [f"resume {actions}"]
            print(f"resume of a {actions:,}-action game   {wall:.3f} s (CPU {cpu:.3f} s)   target ≤ {target} s   "
                  f"{'ok' if ok else 'MISSED'}   (opening the journal and finding it before: {find:.3f} s, CPU "
                  f"{find_cpu:.3f} s; open + find + resume CPU {whole:.3f} s)", flush=True)
    if missed:
        print(f"missed: {', '.join(missed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
