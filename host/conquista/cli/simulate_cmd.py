"""`conquista simulate`: whole bot games, headless; the same arguments always give the same result."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conquista.bots import BOT_NAMES, LEVELS_HELP
from conquista.bots.roster import DEFAULT_BOT
from conquista.bots.simulate import SimulationReport, simulate
from conquista.cli.common import add_map_option, load_rules_and_map, players_fit_map, players_in_range, rules_help
from conquista.errors import ConquistaError
from conquista.rules.engine import Game

# Ranges that keep a mistyped number from running for days; a bigger run is several runs with other seeds.
MAX_GAMES = 1_000_000
MAX_TURN_CAP = 1_000_000


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("simulate", help="play whole bot games headless and report speed and results")
    p.add_argument("--rules", default="italian", help=rules_help())
    p.add_argument("--players", type=int, default=3, help="number of players (default: 3)")
    p.add_argument("--games", type=int, default=100, help="number of games (default: 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the whole run (default: 0)")
    p.add_argument("--bots", default=DEFAULT_BOT,
                   help=f"bot per seat, comma-separated, repeated over the seats, e.g. easy,normal,hard; {LEVELS_HELP} "
                        f"(default {DEFAULT_BOT})")
    p.add_argument("--turn-cap", type=int, default=1000, help="cut a game after this many turns (0 = never)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--show-log", action="store_true", help="print each game's log in words")
    p.add_argument("--save-logs", metavar="DIR", help="write each game's log (JSON Lines) into DIR")
    add_map_option(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    rules, game_map = load_rules_and_map(args.rules, args.map)
    players_in_range(rules, args.players)
    players_fit_map(rules, game_map, args.players, args.map)
    bots = parse_bots(args.bots)
    if not 1 <= args.games <= MAX_GAMES:
        raise ConquistaError(f"--games must be at least 1 and at most {MAX_GAMES:,}, not {args.games}")
    if not 0 <= args.turn_cap <= MAX_TURN_CAP:
        raise ConquistaError(f"--turn-cap must be 0 (no cap) up to {MAX_TURN_CAP:,}, not {args.turn_cap}")
    keep = bool(args.show_log or args.save_logs)
    logs_dir = prepare_logs_dir(args.save_logs) if args.save_logs else None
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
    written: list[Path] = []
    for i, result in enumerate(report.results):
        if result.game is None:
            continue
        if logs_dir is not None:
            written.append(save_log(logs_dir / f"game-{args.seed}-{i:05d}.jsonl", result.game))
        if args.show_log:
            from conquista.table.logview import describe_game  # only here: a plain run does not load the wording

            print(f"# game {i + 1} of {report.games}")
            for line in describe_game(result.game):
                print(line)
    print_report(report, args.json, rules.colours)
    if logs_dir is not None:
        # On stderr under --json, so that stdout stays one JSON object.
        names = written[0].name + (f" .. {written[-1].name}" if len(written) > 1 else "")
        print(f"wrote {len(written)} game log{'s' if len(written) != 1 else ''} (JSON Lines) to {logs_dir}: {names}",
              file=sys.stderr if args.json else sys.stdout)
    return 0


def parse_bots(text: str) -> list[str]:
    bots = [b.strip() for b in text.split(",") if b.strip()]
    if not bots:
        raise ConquistaError(f"--bots {text!r} names no bot; give one or more of {', '.join(BOT_NAMES)}, "
                             "comma-separated (e.g. --bots easy,normal,hard)")
    for bot in bots:
        if bot not in BOT_NAMES:
            raise ConquistaError(f"--bots {text!r}: unknown bot {bot!r}; known bots: {', '.join(BOT_NAMES)}")
    return bots


def prepare_logs_dir(text: str) -> Path:
    """The --save-logs directory, created if missing; a file or an unwritable place is refused before any game."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise ConquistaError(f"--save-logs {text}: this is a file, not a directory; give a directory for the "
                             "game logs (it is created if missing)")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConquistaError(f"--save-logs {text}: cannot create the directory ({exc.strerror}); "
                             "give a directory you can write to") from None
    return path


def save_log(path: Path, game: Game) -> Path:
    from conquista.rules.gamelog import write_log  # only here: a plain run writes no log

    try:
        write_log(path, game, {"source": "seeded"})
    except OSError as exc:
        raise ConquistaError(f"--save-logs: cannot write {path} ({exc.strerror}); "
                             "give a directory you can write to") from None
    return path


def print_report(report: SimulationReport, as_json: bool, colours: tuple[str, ...] = ()) -> None:
    """The report in words; seats are named by `colours` (the ruleset's), as everywhere else."""
    data = report.to_json()
    if as_json:
        import json  # only here: a plain run prints words

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
