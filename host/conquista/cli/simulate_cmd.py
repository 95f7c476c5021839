"""`conquista simulate`: whole bot games, headless; the same arguments always give the same result."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from conquista.bots import BOT_NAMES
from conquista.bots.simulate import SimulationReport, simulate
from conquista.cli.common import add_map_option, load_rules_and_map, players_in_range
from conquista.errors import ConquistaError
from conquista.rules.gamelog import write_log
from conquista.table.logview import describe_game


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("simulate", help="play whole bot games headless and report speed and results")
    p.add_argument("--rules", default="italian", help="ruleset name or .toml file (default: italian)")
    p.add_argument("--players", type=int, default=3, help="number of players (default: 3)")
    p.add_argument("--games", type=int, default=100, help="number of games (default: 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the whole run (default: 0)")
    p.add_argument("--bots", default="greedy",
                   help=f"bot per seat, comma-separated, repeated over the seats ({', '.join(BOT_NAMES)})")
    p.add_argument("--turn-cap", type=int, default=1000, help="cut a game after this many turns (0 = never)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--show-log", action="store_true", help="print each game's log in words")
    p.add_argument("--save-logs", metavar="DIR", help="write each game's log (JSON Lines) into DIR")
    add_map_option(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    rules, game_map = load_rules_and_map(args.rules, args.map)
    players_in_range(rules, args.players)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    for bot in bots:
        if bot not in BOT_NAMES:
            raise ConquistaError(f"unknown bot {bot!r}; known bots: {', '.join(BOT_NAMES)}")
    if args.games < 1:
        raise ConquistaError("--games must be at least 1")
    if args.turn_cap < 0:
        raise ConquistaError("--turn-cap must be 0 (no cap) or more")
    keep = bool(args.show_log or args.save_logs)
    if args.save_logs:
        Path(args.save_logs).mkdir(parents=True, exist_ok=True)
    progress = None
    bar = None
    if sys.stderr.isatty() and args.games >= 20 and not args.show_log:
        from rich.progress import Progress

        bar = Progress(transient=True)
        bar.start()
        task = bar.add_task("simulating", total=args.games)

        def progress(done: int) -> None:
            bar.update(task, completed=done)

    try:
        report = simulate(rules, game_map, args.players, args.games, args.seed, bots, args.turn_cap,
                          keep_games=keep, progress=progress)
    finally:
        if bar is not None:
            bar.stop()
    for i, result in enumerate(report.results):
        if result.game is None:
            continue
        if args.save_logs:
            write_log(Path(args.save_logs) / f"game-{args.seed}-{i:05d}.jsonl", result.game, {"source": "seeded"})
        if args.show_log:
            print(f"# game {i + 1} of {report.games}")
            for line in describe_game(result.game):
                print(line)
    print_report(report, args.json, rules.colours)
    return 0


def print_report(report: SimulationReport, as_json: bool, colours: tuple[str, ...] = ()) -> None:
    """The report in words; seats are named by `colours` (the ruleset's), as everywhere else."""
    data = report.to_json()
    if as_json:
        print(json.dumps(data))
        return
    seats = [colours[i] if i < len(colours) else f"seat {i + 1}" for i in range(report.players)]
    bots = ", ".join(f"{seat} {report.bots[i % len(report.bots)]}" for i, seat in enumerate(seats)) \
        if report.bots else "none"
    print(f"ruleset            {report.rules} ({report.players} players: {bots}; seed {report.seed})")
    print(f"games              {report.games}")
    print(f"seconds            {data['seconds']}")
    print(f"games/s            {data['games_per_second']}")
    print(f"actions/s          {data['actions_per_second']}")
    print(f"mean turns         {data['mean_turns']}")
    print("wins per seat      " + "  ".join(f"{seat} {w}" for seat, w in zip(seats, report.wins, strict=True)))
    print(f"cut at turn cap    {report.cut_at_turn_cap}")
