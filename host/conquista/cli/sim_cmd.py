"""`conquista sim`: play on the simulated board, in the terminal or from a script."""

from __future__ import annotations

import argparse
import math
import random
import secrets
import sys
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from conquista.bots.roster import DEFAULT_BOT, bots_of, seats_of
from conquista.cli import start_up_done
from conquista.cli.common import (
    BOTS_HELP,
    add_dice_options,
    add_map_option,
    default_players,
    games_dir_to_write,
    parse_bot_seats,
    players_in_range,
    rules_help,
)
from conquista.cli.program import as_typed, fitted
from conquista.cli.table_dice import TableDice
from conquista.cli.web_options import add_web_options, start_web
from conquista.dice.sources import DiceKind
from conquista.errors import ConquistaError
from conquista.rules.rulesets import load_ruleset
from conquista.rules.textdata import BadText, read_utf8

if TYPE_CHECKING:

    from conquista.app.host_setup import HostSetUp
    from conquista.app.setup import NewGameAtBoard
    from conquista.dice.sources import DiceSource
    from conquista.journal import PlayStart
    from conquista.rules.engine import Game
    from conquista.rules.ruleset import Ruleset
    from conquista.web.companion import Companion, StartedGame
    from conquista_sim.table import SimulatedTable


Asked = tuple[str | None, int | None]   # --rules and --players as given (None: not given)


def bot_kinds(text: str | None, colours: tuple[str, ...], players: int, demo: bool) -> dict[int, str]:
    """The bot of each bot seat from --bots; under --demo every seat is a bot (normal unless --bots says)."""
    chosen = parse_bot_seats(text or "", colours, players)
    return {seat: chosen.get(seat, DEFAULT_BOT) for seat in range(players)} if demo else chosen


def saved_kinds(saved: tuple[str, ...]) -> dict[int, str]:
    from conquista.bots import BOT_NAMES

    return {seat: kind if kind in BOT_NAMES else DEFAULT_BOT for seat, kind in bots_of(saved).items()}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("sim", help="play on the simulated board (terminal view, script or demo)")
    # Defaults are filled in at run time, so that a game set up on the command line can be told apart: at the
    # terminal such a game is chosen at the board's set-up menu, and (without --bots, --resume/--new, --demo or
    # --script) the first phone granted a seat is the host.
    p.add_argument("--rules", help=rules_help())
    p.add_argument("--players", type=int, help="number of players (default: 3, or the one count the ruleset allows)")
    p.add_argument("--menu", action="store_true",
                   help="start at the board's set-up menu (the default at the terminal when neither --rules, "
                        "--players nor --bots is given and no game is resumed)")
    p.add_argument("--bots", default=None, metavar="SEATS",
                   help=BOTS_HELP + "; with --demo every seat is a bot and this picks their kinds; "
                        "a resumed game keeps its own seats unless this is given")
    p.add_argument("--seed", type=int, default=None,
                   help="seed of --dice seeded (the default) for the deal, the cards and the dice (default: drawn "
                        "from the operating system; a saved game records it)")
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


def set_up_on_command_line(args: argparse.Namespace) -> bool:
    """Whether the command line set the game up (issue 10: then no phone is the host). `make run` gives --rules,
    --players and --bots, so it has no host; a bare `conquista sim` lets the first phone granted a seat set the
    game up: ruleset, players, bots, house switches, dice, or a saved game to resume."""
    return (args.rules is not None or args.players is not None or args.bots is not None or args.resume is not None
            or args.demo or bool(args.script))


def _journal(args: argparse.Namespace, ask: bool, asked: Asked) -> PlayStart | None:
    """Open the journal when this run is saved; resume or offer the unfinished game (asking needs a person).
    `asked`: the ruleset and players the command line gave, before its defaults were filled in: a bare `--resume`
    takes the last unfinished game whatever its ruleset and players."""
    if not (ask or args.data_dir or args.resume is not None):
        return None
    from conquista.journal import Wanted, open_for_play

    rules, players = asked
    wanted = Wanted(load_ruleset(rules).name if rules is not None else None, players)

    choice = args.resume if args.resume is not None or ask else False
    start = open_for_play(args.data_dir, choice, _warn, wanted)
    if start.offer is not None:
        players_in_range(load_ruleset(args.rules), args.players)  # CANCEL at the prompt starts this game
    return start


def _warn(text: str) -> None:
    sys.stderr.write(fitted(as_typed(text), sys.stderr, "conquista sim: ") + "\n")


def _check_pace(args: argparse.Namespace) -> None:
    if args.speed is not None and not (math.isfinite(args.speed) and 0 <= args.speed <= 1000):
        raise ConquistaError(f"--speed takes 0 (no pause) to 1000 simulated seconds per second, not {args.speed:g}")
    if not (math.isfinite(args.think) and 0.01 <= args.think <= 60):
        raise ConquistaError(f"--think takes 0.01 to 60 simulated seconds per bot gesture, not {args.think:g}")


def _dice_and_game(args: argparse.Namespace, seed: int, interactive: bool,
                   asked: Asked) -> tuple[TableDice, PlayStart | None, Game | None]:
    """The session's chance source and, when this run is saved, the journal and the saved game to play on (None:
    a new game). The deal, the missions, the cards and the dice all come from the source --dice names: seeded dice
    on the seed by default (one --seed replays the whole game); a resumed committed game goes on with its stream."""
    dice = TableDice(args.dice, seed, None, lambda text: print(as_typed(text)))
    start = _journal(args, interactive and not (args.demo or args.script), asked)
    if start is None:
        return dice, None, None
    dice.journal = start.journal
    return dice, start, dice.game_to_play(start, lambda: None,
                                          _warn)


def run(args: argparse.Namespace) -> int:
    from_command_line = set_up_on_command_line(args)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    asked: Asked = (args.rules, args.players)
    menu = _wants_menu(args, interactive)   # fills in the game's defaults
    # From the OS, not the clock: a start time is easy to guess, and the deal, the missions and the dice follow it.
    seed = args.seed if args.seed is not None else secrets.randbits(64)
    _demo_without_a_terminal(args, interactive)
    _check_pace(args)
    rules = load_ruleset(args.rules)
    if not isinstance(args.resume, int) or isinstance(args.resume, bool):
        # Before the journal: a refusal is the one line said, never after "…so a new one starts".
        players_in_range(rules, args.players)
    dice, start, game = _dice_and_game(args, seed, interactive, asked)
    players = game.players if game is not None else args.players
    kinds, fresh_bots = _bot_seats(args, start, game, rules)
    bots = tuple(kinds)
    if start is not None and game is None:
        start.journal.seats, start.journal.seed = seats_of(args.players, kinds), _saved_seed(args.dice, seed)
    if args.physical_dice and len(bots) == players:
        raise ConquistaError("--physical-dice needs a person at the board to enter the dice: give fewer --bots, "
                             "and no --demo")
    if game is None:
        dice.start_new()     # the table deals the new game from it
    lines = _script_lines(args.script) if args.script else []
    # At the terminal the web app is on unless --no-web; a demo or a script (nobody typing) serves only with --web.
    serve = not args.no_web and (bool(args.web) or (interactive and not (args.demo or args.script)))
    try:
        _table(args, start, game, dice, seed, lines, kinds, fresh_bots, menu=menu, serve=serve,
               interactive=interactive, from_command_line=from_command_line)
    finally:   # Ctrl-C too: the journal is closed as at `quit`
        if start is not None:
            start.journal.close()
    return 0


def _table(args: argparse.Namespace, start: PlayStart | None, game: Game | None, dice: TableDice, seed: int,
           lines: list[str], kinds: dict[int, str], fresh_bots: dict[int, str], *, menu: bool, serve: bool,
           interactive: bool, from_command_line: bool) -> None:
    """The simulated table for this run, its web app when it serves, and the play until the person leaves."""
    from conquista_sim.table import SimulatedTable

    with SimulatedTable(args.rules, args.players, seed, kinds, board=args.board, map_path=args.map,
                        think_time=args.think, game=game, journal=start.journal if start else None,
                        sensors=args.sensors, dice=dice.chance, physical_dice=args.physical_dice) as table:
        companions: list[Companion] = []
        _ask_at_board(table, start, args, dice, seed, fresh_bots, menu=menu, resumed=game is not None)
        start_up_done()      # the board (or its menu) is shown
        web = None
        if serve:
            set_up = None if from_command_line else _host_set_up(args, table, start, dice)
            # At a terminal the board shows the join URL, with its QR code when the whole code fits: printed
            # here as well, its top would scroll away above the board (half a code, which no phone reads).
            web, companion = start_web(args, default_host="127.0.0.1", players=table.game.players,
                                       bots=table.bots, out=None if interactive else sys.stdout, set_up=set_up)
            if interactive:
                print(f"the public board (a TV's browser): {web.url}board")
            table.add_phones(companion)   # routed through the table's router: the journal first
            companions.append(companion)
        try:
            _play(args, table, lines, interactive, join_url=web.url if web is not None else "",
                  companions=companions)
            if web is not None and (args.demo or args.script):
                _keep_serving(table, web.url)
        finally:
            if web is not None:
                web.stop()
        _end(table, dice)


KEEP_SERVING_PASS_S = 0.1


def _keep_serving(table: SimulatedTable, url: str) -> None:
    """After a demo's or a script's end the web app goes on serving (the screens show the winner and the luck report,
    a phone may set up another game) until Ctrl-C; the board's loop goes on too, so the phones' commands are taken."""
    over = "the game is over" if table.game.over else "the script is done"
    print(f"# {over}: the web app still serves {url} (the board: {url}board); Ctrl-C stops it", flush=True)
    try:
        while True:
            table.advance(KEEP_SERVING_PASS_S)
            time.sleep(KEEP_SERVING_PASS_S)
    except KeyboardInterrupt:
        print("# stopped", flush=True)


def _demo_without_a_terminal(args: argparse.Namespace, interactive: bool) -> None:
    if not (args.demo or args.script or interactive):
        # Nobody can type at this board: say so, and let the bots show a whole game instead.
        _warn("no terminal to play in, so bots play every seat (--demo); use --script FILE to drive it from a file")
        args.demo = True


def _bot_seats(args: argparse.Namespace, start: PlayStart | None, game: Game | None,
               rules: Ruleset) -> tuple[dict[int, str], dict[int, str]]:
    """The bots (seat → kind) of the game to play, and of a fresh game of the command line. A saved game keeps its
    own seats unless --bots names them anew."""
    players = game.players if game is not None else args.players
    colours = game.rules.colours if game is not None else rules.colours
    kinds = bot_kinds(args.bots, colours, players, args.demo)
    if start is not None and game is not None and not args.demo and args.bots is None:
        saved = start.journal.seats
        if saved is not None:
            kinds = saved_kinds(saved)
    return kinds, bot_kinds(args.bots, rules.colours, args.players, args.demo)


def _host_set_up(args: argparse.Namespace, table: SimulatedTable, start: PlayStart | None,
                 dice: TableDice | None) -> HostSetUp:
    """Games from the host's phone on the simulated board: each new one from a fresh seed (saved with it), with
    the command line's dice unless the host asks for committed ones; the table's bots follow the set-up."""
    from conquista.app.host_setup import HostSetUp
    from conquista.dice.sources import SeededDice

    def plain() -> tuple[random.Random, DiceSource, int | None]:
        seed = secrets.randbits(64)
        rng = random.Random(seed)
        # Seeded dice share the deal's generator; a committed seed belongs to the one game it was committed for.
        if dice is None or dice.chance.kind is not DiceKind.OS:
            return rng, SeededDice(rng=rng), seed
        return rng, dice.chance.use(DiceKind.OS), seed

    def follow(started: StartedGame) -> None:
        table.bots = frozenset(started.bots)
        table.bot_kinds = dict(started.bots)

    return HostSetUp(start.journal if start is not None else None, table.game.map, plain=plain, on_start=follow)


def _saved_seed(kind: str, seed: int) -> int | None:
    """The seed saved with a simulated game: only seeded dice are dealt and rolled from it."""
    return seed if kind == DiceKind.SEEDED else None


def _ask_at_board(table: SimulatedTable, start: PlayStart | None, args: argparse.Namespace, dice: TableDice,
                  seed: int, fresh_bots: Mapping[int, str], *, menu: bool, resumed: bool) -> None:
    """What the board asks first: resume the unfinished game (CANCEL: the set-up menu, or the command line's
    game), or the set-up menu."""
    at_board = _menu(table, start, dice, seed, args) if menu else None
    again = at_board or _menu(table, start, dice, seed, args)
    again.offer_after_game(table.referee, lambda: dice.finish(True, in_use=table.referee.view().dice_source))
    if start is not None and start.offer is not None:
        from conquista.journal import offer_resume

        journal = start.journal

        def fresh() -> Game:
            table.bots = dict(fresh_bots)
            journal.seats, journal.seed = seats_of(args.players, fresh_bots), _saved_seed(args.dice, seed)
            return dice.new_game(load_ruleset(args.rules), table.game.map, args.players)

        from conquista.table.effects import Answered

        table.router.on(Answered, offer_resume(
            table.referee, journal, start.offer, fresh,
            set_up=(lambda now: at_board.offer(table.referee)) if at_board is not None else None))
    elif at_board is not None and not resumed:
        at_board.offer(table.referee)
        table.refresh()


def _wants_menu(args: argparse.Namespace, interactive: bool) -> bool:
    """Fill in the game's defaults; True when the players choose the game at the set-up menu: asked for, or at
    the terminal when the command line set no game up."""
    from_command_line = args.rules is not None or args.players is not None or args.bots is not None
    args.rules = "italian" if args.rules is None else args.rules
    args.players = default_players(load_ruleset(args.rules)) if args.players is None else args.players
    if args.menu and args.demo:
        raise ConquistaError("--menu and --demo do not go together: bots play every seat of a --demo game")
    return bool(args.menu or (interactive and not (args.demo or args.script) and not from_command_line))


def _end(table: SimulatedTable, dice: TableDice) -> None:
    """Switched off at the board: saved, dark, and the shutdown command reported; else the dice's seed revealed."""
    if table.referee.view().power_off:
        from conquista.app.power import switch_off

        table.switch_off()
        switch_off(table.profile.shutdown_command, print, simulated=True)
    else:
        # the host may have chosen committed dice
        dice.finish(table.game.over, in_use=table.referee.view().dice_source)


def _menu(table: SimulatedTable, start: PlayStart | None, dice: TableDice, seed: int,
          args: argparse.Namespace) -> NewGameAtBoard:
    """The set-up menu for this table: the chosen game is dealt from the table's chance source and saved with its
    seats (and the seed, for seeded dice); the web app's seats follow it (its `GameStarted`, through the table's
    router)."""
    from conquista.app.setup import NewGameAtBoard

    journal = start.journal if start is not None else None

    def deal(rules: Ruleset, players: int) -> Game:
        if journal is not None:
            journal.seed = _saved_seed(args.dice, seed)
        return dice.new_game(rules, table.game.map, players)

    return NewGameAtBoard(deal, table.bot_seats, table.router, journal=journal, rules=args.rules,
                          players=args.players)


def _script_lines(path: str) -> list[str]:
    try:
        return read_utf8(path).splitlines()
    except OSError as exc:
        raise ConquistaError(f"{path}: cannot read the script ({exc.strerror})") from None
    except BadText as exc:   # a binary file
        raise ConquistaError(f"{path}: not a script of board commands: {exc}") from None


def _play(args: argparse.Namespace, table: SimulatedTable, lines: list[str], interactive: bool, join_url: str,
          companions: list[Companion]) -> None:
    """`join_url`: the web app's, when it serves; the terminal view shows it with its QR code."""
    from conquista_sim.terminal import demo_lines, run_interactive, run_script

    if args.script:
        table.on_line = print
        try:
            run_script(table, lines, print)
        except ConquistaError as exc:   # "script line N: ..." names the line; this names the file
            raise ConquistaError(f"{args.script}: {exc}") from None
        table.flush_lines()
        print(f"# {table.status().pending or table.status().phase}")
    elif args.demo and not interactive:
        for line in demo_lines(table):
            print(line)
    elif args.demo:
        from rich.console import Console
        from rich.live import Live

        from conquista_sim.board_view import render

        console = Console()
        with Live(render(table, *console.size, join_url=join_url), console=console, refresh_per_second=8) as live:
            while not table.game.over:
                table.advance((8.0 if args.speed is None else args.speed) / 8)
                live.update(render(table, *console.size, join_url=join_url))
                time.sleep(1 / 8)
    else:
        # The board keeps running while the terminal waits for a line: phones, claims and bots go on, and the
        # terminal follows them (a `quit` typed while the bots play acts at once).
        def on_wake(wake: Callable[[], None]) -> None:
            # A phone's command wakes the board's loop at once instead of waiting for its next pass.
            for companion in companions:
                companion.wake = wake
            table.router.wake = wake   # and a hint searched off the loop, when it is ready

        from rich.console import Console

        console = Console()
        run_interactive(table, console, input, speed=2.0 if args.speed is None else args.speed,
                        join_url=join_url, live=True, on_wake=on_wake, as_typed=as_typed)
