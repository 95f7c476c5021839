"""`conquista sim`: play on the simulated board, in the terminal or from a script."""

from __future__ import annotations

import argparse
import math
import random
import secrets
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from conquista.cli.common import (
    BOTS_HELP,
    add_dice_options,
    add_map_option,
    announce_committed,
    games_dir_to_write,
    parse_bot_seats,
    players_in_range,
    reveal_committed,
)
from conquista.cli.web_options import add_web_options, start_web
from conquista.dice.sources import CommittedDice, make_source
from conquista.errors import ConquistaError
from conquista.rules.rulesets import load_ruleset

if TYPE_CHECKING:
    from rich.console import Console

    from conquista.journal import PlayStart
    from conquista.rules.engine import Game
    from conquista_sim.table import SimulatedTable


HUMAN, BOT_KIND = "human", "greedy"   # how a seat is saved; a bot seat's default kind


def seats_of(players: int, bots: Mapping[int, str]) -> tuple[str, ...]:
    """How the seats are saved with a game: "human" or the bot's kind."""
    return tuple(bots.get(seat, HUMAN) for seat in range(players))


def bot_kinds(text: str | None, colours: tuple[str, ...], players: int, demo: bool) -> dict[int, str]:
    """The bot of each bot seat from --bots; under --demo every seat is a bot (greedy unless --bots says)."""
    chosen = parse_bot_seats(text or "", colours, players)
    return {seat: chosen.get(seat, BOT_KIND) for seat in range(players)} if demo else chosen


def saved_kinds(saved: tuple[str, ...]) -> dict[int, str]:
    from conquista.bots import BOT_NAMES

    return {seat: kind if kind in BOT_NAMES else BOT_KIND for seat, kind in enumerate(saved) if kind != HUMAN}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("sim", help="play on the simulated board (terminal view, script or demo)")
    p.add_argument("--rules", default="italian", help="ruleset name or .toml file (default: italian)")
    p.add_argument("--players", type=int, default=3, help="number of players (default: 3)")
    p.add_argument("--bots", default=None, metavar="SEATS",
                   help=BOTS_HELP + "; with --demo every seat is a bot and this picks their kinds; "
                        "a resumed game keeps its own seats unless this is given")
    p.add_argument("--seed", type=int, default=None,
                   help="seed for the deal and the dice (default: drawn from the operating system; a saved game "
                        "records it)")
    p.add_argument("--script", metavar="FILE", help="run the commands in FILE and print the log")
    p.add_argument("--demo", action="store_true", help="bots play every seat")
    p.add_argument("--think", type=float, default=0.6, metavar="S", help="bot think time in seconds (default 0.6)")
    p.add_argument("--speed", type=float, default=None, metavar="X",
                   help="simulated seconds per real second while bots play (default: 2 at the prompt, 8 in --demo)")
    add_dice_options(p, default="seeded")
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
    add_web_options(p, "127.0.0.1:8080 or the next free port, at the terminal; with --demo or --script only "
                       "when given")
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

    # From the OS, not the clock: a start time is easy to guess, and the deal, the missions and the dice follow it.
    seed = args.seed if args.seed is not None else secrets.randbits(64)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if not (args.demo or args.script or interactive):
        # Nobody can type at this board: say so, and let the bots show a whole game instead.
        sys.stderr.write("conquista sim: no terminal to play in, so bots play every seat (--demo); "
                         "use --script FILE to drive it from a file\n")
        args.demo = True
    if args.speed is not None and not (math.isfinite(args.speed) and 0 <= args.speed <= 1000):
        raise ConquistaError(f"--speed takes 0 (no pause) to 1000 simulated seconds per second, not {args.speed:g}")
    if not (math.isfinite(args.think) and 0.01 <= args.think <= 60):
        raise ConquistaError(f"--think takes 0.01 to 60 simulated seconds per bot gesture, not {args.think:g}")
    rules = load_ruleset(args.rules)
    start = _journal(args, interactive and not (args.demo or args.script))
    game = start.game if start is not None else None
    players = game.players if game is not None else args.players
    colours = game.rules.colours if game is not None else rules.colours
    kinds = bot_kinds(args.bots, colours, players, args.demo)
    if start is not None and game is not None and not args.demo and args.bots is None:
        saved = start.journal.seats  # a saved game keeps its own seats unless told otherwise
        if saved is not None:
            kinds = saved_kinds(saved)
    bots = tuple(kinds)
    fresh_bots = bot_kinds(args.bots, rules.colours, args.players, args.demo)
    if start is not None and game is None:
        start.journal.seats, start.journal.seed = seats_of(args.players, kinds), seed
    if args.physical_dice and len(bots) == players:
        raise ConquistaError("--physical-dice needs a person at the board to enter the dice: give fewer --bots, "
                             "and no --demo")
    # Seeded dice share the deal's generator (one --seed replays the whole game); the others have their own.
    dice = None if args.dice == "seeded" else make_source(args.dice)
    if start is not None:
        start.journal.dice_header = dice.header() if isinstance(dice, CommittedDice) else {"source": args.dice}
    lines: list[str] = []
    if args.script:
        try:
            lines = Path(args.script).read_text("utf-8").splitlines()
        except OSError as exc:
            raise ConquistaError(f"{args.script}: cannot read the script ({exc.strerror})") from None
    console = Console()
    # At the terminal the web app is on unless --no-web; a demo or a script (nobody typing) serves only with --web.
    serve = not args.no_web and (bool(args.web) or (interactive and not (args.demo or args.script)))
    with SimulatedTable(args.rules, args.players, seed, bots, board=args.board, map_path=args.map,
                        think_time=args.think, game=game, journal=start.journal if start else None,
                        sensors=args.sensors, dice=dice, physical_dice=args.physical_dice,
                        bot_kinds=kinds) as table:
        announce_committed(dice, print)
        if start is not None and start.offer is not None:
            from conquista.dice.chance import new_game
            from conquista.journal import offer_resume

            def fresh() -> Game:
                table.bot_kinds = dict(fresh_bots)
                table.bots = frozenset(fresh_bots)
                start.journal.seats, start.journal.seed = seats_of(args.players, fresh_bots), seed
                return new_game(load_ruleset(args.rules), table.game.map, args.players, random.Random(seed))

            offer_resume(table.referee, start.journal, start.offer, fresh)
        web = None
        if serve:
            web, companion = start_web(args, default_host="127.0.0.1", players=table.game.players,
                                       bots=table.bots, first_seat_hosts=False, out=sys.stdout)
            table.on_step = companion.step
        try:
            _play(args, table, lines, interactive, console, serving=web is not None)
        finally:
            if web is not None:
                web.stop()
        reveal_committed(dice, table.game.over, print)
    if start is not None:
        start.journal.close()
    return 0


def _play(args: argparse.Namespace, table: SimulatedTable, lines: list[str], interactive: bool, console: Console,
          serving: bool) -> None:
    from rich.live import Live

    from conquista_sim.board_view import render
    from conquista_sim.live import LiveInput
    from conquista_sim.terminal import demo_lines, run_interactive, run_script

    if args.script:
        table.on_line = print
        run_script(table, lines, print)
        table.flush_lines()
        print(f"# {table.status().pending or table.status().phase}")
    elif args.demo and not interactive:
        for line in demo_lines(table):
            print(line)
    elif args.demo:
        with Live(render(table, *console.size), console=console, refresh_per_second=8) as live:
            while not table.game.over:
                table.advance((8.0 if args.speed is None else args.speed) / 8)
                live.update(render(table, *console.size))
                time.sleep(1 / 8)
    else:
        # With phones connected the board keeps running while the terminal waits for a line.
        run_interactive(table, console, LiveInput(table) if serving else input,
                        speed=2.0 if args.speed is None else args.speed)
