"""Our bots' strength against AIs no one here wrote: pyrisk's StupidAI, BetterAI, AlAI and ChronAI (issue 38).

Each pyrisk AI plays in our engine on the classic rules, deciding exactly as in pyrisk's own game
(benchmarks/pyrisk_adapter.py: the AI runs in a Python 2.7 process on pyrisk's own objects; the maps are checked
to be the same; every rule difference and how it is handled is in that module's docstring and in docs/playing.md,
"How strong the bots are against AIs written elsewhere").

- 1 against 1: our bot against one copy of the AI; 4 players: our bot against three copies.
- Seats rotated: game i puts our bot in seat i mod players, dealt from seed "SEED:i" as `conquista simulate` deals
  it; `hard` and `normal` play the same games (the same deal, seat and the AI's own random numbers), so the two
  are compared on the same games.
- Targets: hard wins ≥ 70 % 1 against 1 and ≥ 50 % of 4-player games (25 % is parity) against each AI, and is
  never below normal on the same games. Win rates come with a 95 % Wilson interval.

Before any game, the check that the seats play as pyrisk's own loop does: StupidAI's games in pyrisk's own
`Game.play` and in our engine with the seats (both with pyrisk's rules as far as our engine has them: its starting
armies, no card ever traded), 1 against 1; their mean lengths in turns must agree within their 95 % interval.

The comparison is refused when a side logs: pyrisk's seat process writes nothing but its replies (its logging is
disabled before pyrisk is imported); anything on its stderr stops the benchmark (exit 2).

pyrisk is not served by any package registry and this script downloads nothing: give a checkout with `--peer DIR`
or CONQUISTA_PYRISK_DIR (`make bench PYRISK=DIR`), and a Python 2.7 (`python2.7` on the PATH, or
CONQUISTA_PYRISK_PYTHON). Without them it says so and exits 0.

    python benchmarks/bench_pyrisk_strength.py --peer /work/pyrisk --games 100
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bench_bots import wilson
from bench_pyrisk import ENV_PEER, peer_problem
from conquista.bots import make_bot
from conquista.bots.simulate import game_seed
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.rules.actions import Action
from conquista.rules.engine import Game
from conquista.rules.mapdata import load_map
from conquista.rules.ruleset import Ruleset
from conquista.rules.rulesets import load_ruleset
from pyrisk_adapter import AIS, PyriskSeats, SeatProblem, SeatProcess, Tally, check_maps, python27

TURN_CAP = 1000   # turns after which a game is cut (not won by our bot); --turn-cap changes it
TARGETS = {2: 0.70, 4: 0.50}
BOTS = ("hard", "normal")
FAITHFUL_GAMES = 200


def pyrisk_rules(players: int) -> Ruleset:
    """The classic rules as close to pyrisk's as our engine has them: 35 - 2 × players armies to start, and no
    trade ever forced (the seats then never trade, so the cards change nothing)."""
    classic = load_ruleset("classic")
    return dataclasses.replace(classic, starting_armies={**classic.starting_armies, players: 35 - 2 * players},
                               forced_trade_hand=0, elimination_trade_hand=0)


def play(rules: Ruleset, players: int, ours: dict[int, str], ai: str, seed: str, seats: SeatProcess, tally: Tally,
         trade: bool = True, turn_cap: int = TURN_CAP) -> tuple[int | None, int, bool]:
    """One game: `ours` maps seats to our bots, the rest are `ai`; the winner (None when cut, or when all our
    seats are out: the rest of the game cannot change our result, and the AIs' own endgame can take ChronAI an
    hour with the armies the cards bring), the turns the pyrisk seats played, and whether it was cut at
    `turn_cap` turns."""
    rng = random.Random(seed)
    game = new_game(rules, load_map(None), players, rng)
    game.drop_undo()
    dice = SeededDice(rng=rng)
    pyrisk = PyriskSeats(seats, game, [None if s in ours else ai for s in range(players)],
                         rng.randrange(2**31), tally, trade)
    bots: list[Callable[[Game], Action]] = [
        make_bot(ours[s], random.Random(f"{seed}:{s}")).choose if s in ours else pyrisk.choose
        for s in range(players)]
    while not game.over:
        if game.turn > turn_cap:
            return None, len(pyrisk.turns), True
        if ours and all(game.eliminated[s] for s in ours):
            return None, len(pyrisk.turns), False
        who = game.to_move
        game.apply(bots[who](game) if isinstance(who, int) else chance_action(game, dice))
    seats.check_quiet()
    return game.winner, len(pyrisk.turns), False


def mean_interval(values: Sequence[int]) -> tuple[float, float]:
    """The mean and the half-width of its 95 % interval (normal approximation)."""
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def faithful(seats: SeatProcess, games: int, seed: int) -> bool:
    """StupidAI's game length in pyrisk's own loop and in our engine with the seats agree (1 against 1)."""
    own = seats.ask({"op": "own_games", "ai": "StupidAI", "players": 2, "games": games, "seed": seed})
    tally = Tally()
    ours = [play(pyrisk_rules(2), 2, {}, "StupidAI", game_seed(seed, i), seats, tally, trade=False)[1]
            for i in range(games)]
    (m1, h1), (m2, h2) = mean_interval(own), mean_interval(ours)
    ok = abs(m1 - m2) <= math.hypot(h1, h2)
    print(f"faithful: StupidAI 1v1 lasts {m1:.1f} ± {h1:.1f} turns in pyrisk's own loop and {m2:.1f} ± {h2:.1f} in "
          f"ours with the seats ({games} games each) {'ok' if ok else 'DIFFER'}", flush=True)
    return ok


def matchup(seats: SeatProcess, ai: str, players: int, games: int, seed: int, bots: Sequence[str],
            tally: Tally, turn_cap: int = TURN_CAP) -> tuple[dict[str, list[bool]], dict[str, int]]:
    """Each of `bots` in the same `games` games against `ai`: whether it won each (a game cut at `turn_cap` turns
    is not won), and how many of its games were cut."""
    rules = load_ruleset("classic")
    won: dict[str, list[bool]] = {bot: [] for bot in bots}
    cut = dict.fromkeys(bots, 0)
    started = time.perf_counter()
    for i in range(games):
        seat = i % players
        for bot in bots:
            winner, _, was_cut = play(rules, players, {seat: bot}, ai, game_seed(seed, i), seats, tally,
                                      turn_cap=turn_cap)
            won[bot].append(winner == seat)
            cut[bot] += was_cut
        print(f"\r{ai} {players}p: game {i + 1}/{games} " + " ".join(f"{b} {sum(w)}" for b, w in won.items()),
              end="", file=sys.stderr, flush=True)
    print(f"  {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return won, cut


def report(ai: str, players: int, won: dict[str, list[bool]], cut: dict[str, int] | None = None) -> list[str]:
    """Prints each bot's line (with the games cut at the turn cap, each counted as not won); the targets missed."""
    missed = []
    target = TARGETS[players]
    for bot, wins in won.items():
        n, k = len(wins), sum(wins)
        low, high = wilson(k, n)
        line = f"{ai:<9} {players}p {bot:<7} won {k}/{n} = {k / n:.1%} (95% CI {low:.1%}–{high:.1%})"
        if cut and cut.get(bot):
            line += f", {cut[bot]} cut at the turn cap"
        if bot == "hard":
            ok = k / n >= target
            line += f"; target ≥ {target:.0%} {'ok' if ok else 'MISSED'}"
            if not ok:
                missed.append(f"hard {players}p vs {ai}")
            if "normal" in won:
                below = sum(won["normal"]) > k
                line += f"; vs normal on the same games: {k - sum(won['normal']):+d} {'BELOW' if below else 'ok'}"
                if below:
                    missed.append(f"hard below normal {players}p vs {ai}")
        print(line, flush=True)
    return missed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, default=os.environ.get(ENV_PEER) or None,
                        help=f"pyrisk's directory (default: ${ENV_PEER})")
    parser.add_argument("--games", type=int, default=100, help="games per matchup and bot (default 100)")
    parser.add_argument("--seed", type=int, default=3038)
    parser.add_argument("--ais", default=",".join(AIS), help="pyrisk's AIs, comma-separated (default: all four)")
    parser.add_argument("--players", default="2,4", help="players per game, comma-separated (default 2,4)")
    parser.add_argument("--bots", default=",".join(BOTS), help="our bots (default hard,normal)")
    parser.add_argument("--turn-cap", type=int, default=TURN_CAP,
                        help=f"turns after which a game is cut, not won by our bot (default {TURN_CAP}): ChronAI "
                             "thinks minutes a turn once the cards have brought hundreds of armies")
    parser.add_argument("--skip-check", action="store_true", help="leave out the check against pyrisk's own loop")
    args = parser.parse_args(argv)
    problem = peer_problem(args.peer)
    python = python27()
    if problem is None and python is None:
        problem = "no Python 2.7 to run pyrisk's AIs (put python2.7 on the PATH or set CONQUISTA_PYRISK_PYTHON)"
    if problem is not None:
        print(f"bench_pyrisk_strength: skipped: {problem}")
        return 0
    assert python is not None and args.peer is not None
    seats = SeatProcess(args.peer, python)
    try:
        check_maps(seats, load_map(None))
        seats.check_quiet()
        print("maps: pyrisk's 42 territories, 6 continents, their bonuses and links are ours", flush=True)
        missed = [] if args.skip_check or faithful(seats, FAITHFUL_GAMES, args.seed) else ["faithfulness"]
        tally = Tally()
        for ai in args.ais.split(","):
            for players in (int(p) for p in args.players.split(",")):
                won, cut = matchup(seats, ai, players, args.games, args.seed, args.bots.split(","), tally,
                                   args.turn_cap)
                missed += report(ai, players, won, cut)
        print(f"rule differences met: {tally.clamped} move-ins clamped, {tally.moves_refused} free moves refused "
              f"(not neighbours), {tally.unplaced} armies left unplaced by reinforce()")
    except SeatProblem as exc:
        print(f"bench_pyrisk_strength: refused: {exc}", file=sys.stderr)
        return 2
    finally:
        seats.close()
    if missed:
        print(f"missed: {', '.join(missed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
