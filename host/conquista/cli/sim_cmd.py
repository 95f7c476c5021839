"""`conquista sim`: play on the simulated board, in the terminal or from a script."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from conquista.cli.common import add_map_option, games_dir_to_write, number_in, players_in_range
from conquista.errors import ConquistaError
from conquista.rules.rulesets import load_ruleset

if TYPE_CHECKING:
    from conquista.journal import PlayStart
    from conquista.rules.engine import Game


def _seats(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(s) for s in text.split(",") if s.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"--bots takes seat numbers like 1,2 (seat 0 plays first), not {text!r}") \
            from None


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("sim", help="play on the simulated board (terminal view, script or demo)")
    p.add_argument("--rules", default="italian", help="ruleset name or .toml file (default: italian)")
    p.add_argument("--players", type=int, default=3, help="number of players (default: 3)")
    p.add_argument("--bots", type=_seats, default=(), metavar="SEATS",
                   help="seats played by bots, e.g. 1,2 (seats are numbered from 0)")
    p.add_argument("--seed", type=int, default=None, help="seed for the deal and the dice (default: random)")
    p.add_argument("--script", metavar="FILE", help="run the commands in FILE and print the log")
    p.add_argument("--demo", action="store_true", help="bots play every seat")
    p.add_argument("--think", type=number_in(0.0, 60.0), default=0.6, metavar="S",
                   help="bot think time in seconds, 0..60 (default 0.6)")
    p.add_argument("--speed", type=number_in(0.01, 1000.0), default=8.0,
                   help="demo on a terminal: simulated seconds per second, 0.01..1000 (default 8)")
    p.add_argument("--board", metavar="PATH", help="a board profile (default: the classic-42 reference board)")
    p.add_argument("--sensors", metavar="URL",
                   help="take the territory sensors through the real serial link: 'serial' starts a simulated Pico, "
                        "socket://127.0.0.1:PORT joins one started with `conquista sim-mcu`")
    add_map_option(p)
    p.add_argument("--data-dir", metavar="DIR", type=games_dir_to_write,
                   help="where games are saved (default: $XDG_DATA_HOME/conquista); "
                   "play at the terminal is always saved, --script and --demo only with this, --resume or --new")
    choice = p.add_mutually_exclusive_group()
    choice.add_argument("--resume", nargs="?", type=int, const=True, metavar="ID",
                        help="resume the last unfinished game (or game ID) without asking")
    choice.add_argument("--new", dest="resume", action="store_const", const=False,
                        help="start a new game even if one is unfinished")
    p.set_defaults(handler=run)


def _journal(args: argparse.Namespace, ask: bool) -> PlayStart | None:
    """Open the journal when this run is saved; resume or offer the unfinished game (asking needs a person)."""
    if not (ask or args.data_dir or args.resume is not None):
        return None
    from conquista.journal import open_for_play

    choice = args.resume if args.resume is not None or ask else False
    start = open_for_play(args.data_dir, choice, lambda text: sys.stderr.write(f"conquista sim: {text}\n"))
    if start.offer is not None:
        players_in_range(load_ruleset(args.rules), args.players)  # CANCEL at the prompt starts this game
    return start


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from conquista_sim.table import SimulatedTable
    from conquista_sim.terminal import demo_lines, render, run_interactive, run_script

    seed = args.seed if args.seed is not None else int(time.time())
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if not (args.demo or args.script or interactive):
        # Nobody can type at this board: say so, and let the bots show a whole game instead.
        sys.stderr.write("conquista sim: no terminal to play in, so bots play every seat (--demo); "
                         "use --script FILE to drive it from a file\n")
        args.demo = True
    bots = tuple(range(args.players)) if args.demo else args.bots
    start = _journal(args, interactive and not (args.demo or args.script))
    game = start.game if start is not None else None
    if game is not None:  # a saved game keeps its own seats
        bots = tuple(range(game.players)) if args.demo else tuple(s for s in bots if s < game.players)
    lines: list[str] = []
    if args.script:
        try:
            lines = Path(args.script).read_text("utf-8").splitlines()
        except OSError as exc:
            raise ConquistaError(f"{args.script}: cannot read the script ({exc.strerror})") from None
    console = Console()
    with SimulatedTable(args.rules, args.players, seed, bots, board=args.board, map_path=args.map,
                        think_time=args.think, game=game, journal=start.journal if start else None,
                        sensors=args.sensors) as table:
        if start is not None and start.offer is not None:
            from conquista.dice.chance import new_game
            from conquista.journal import offer_resume

            def fresh() -> Game:
                table.bots = frozenset(args.bots)
                return new_game(load_ruleset(args.rules), table.game.map, args.players, random.Random(seed))

            offer_resume(table.referee, start.journal, start.offer, fresh)
        if args.script:
            table.on_line = print
            run_script(table, lines, print)
            print(f"# {table.status().pending or table.status().phase}")
        elif args.demo and not interactive:
            for line in demo_lines(table):
                print(line)
        elif args.demo:
            from rich.live import Live

            with Live(render(table), console=console, refresh_per_second=8) as live:
                while not table.game.over:
                    table.advance(args.speed / 8)
                    live.update(render(table))
                    time.sleep(1 / 8)
        else:
            run_interactive(table, console)
    if start is not None:
        start.journal.close()
    return 0
