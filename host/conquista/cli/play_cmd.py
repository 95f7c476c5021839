"""`conquista play`: referee a game on the real board described by a board profile."""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from conquista.bots.roster import seats_of
from conquista.cli import start_up_done
from conquista.cli.common import (
    BOTS_HELP,
    add_dice_options,
    add_map_option,
    default_players,
    games_dir_to_write,
    number_in,
    parse_bot_seats,
    players_in_range,
    rules_help,
)
from conquista.cli.program import fitted
from conquista.cli.table_dice import TableDice
from conquista.cli.web_options import add_web_options, join_text, reserve_web, start_web
from conquista.errors import ConquistaError
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

if TYPE_CHECKING:
    from conquista.app.board import BoardDevices
    from conquista.app.board_loop import BoardInbox
    from conquista.app.host_setup import HostSetUp
    from conquista.app.play_session import Phones
    from conquista.app.routing import EffectRouter
    from conquista.app.setup import NewGameAtBoard
    from conquista.dice.sources import DiceSource
    from conquista.hardware.profile import BoardProfile
    from conquista.journal import GameJournal, PlayStart
    from conquista.rules.engine import Game
    from conquista.rules.mapdata import GameMap
    from conquista.rules.ruleset import Ruleset
    from conquista.table.bot_player import BotSeats
    from conquista.table.referee import Referee
    from conquista.web.companion import Companion
    from conquista.web.service import WebService


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("play", help="referee a game on the real board (Raspberry Pi)")
    # Defaults are filled in at run time, so that a game set up on the command line can be told apart: without
    # one, the first phone granted a seat becomes the host (its set-up screen).
    p.add_argument("--rules", help=rules_help())
    p.add_argument("--players", type=int, help="number of players (default: 3, or the one count the ruleset allows)")
    p.add_argument("--bots", default=None, metavar="SEATS",
                   help=BOTS_HELP + "; a bot makes its moves one by one at the board and explains each in the log")
    p.add_argument("--think", type=number_in(0.1, 60), default=1.0, metavar="S",
                   help="seconds between a bot's gestures at the board (default 1)")
    p.add_argument("--board", metavar="PATH", help="your board profile (default: the classic-42 reference board)")
    p.add_argument("--sensors", metavar="URL",
                   help="the Pico's serial port: a device path, socket://HOST:PORT or loop:// "
                        "(default: find the Pico by its USB id)")
    p.add_argument("--physical-dice", action="store_true", help="roll real dice and enter them with the encoder")
    add_dice_options(p, default="os", physical=False)
    p.add_argument("--seed", type=int, default=None, help="the seed of --dice seeded (for testing a board only)")
    add_map_option(p)
    p.add_argument("--data-dir", metavar="DIR", type=games_dir_to_write,
                   help="where games are saved (default: $XDG_DATA_HOME/conquista)")
    choice = p.add_mutually_exclusive_group()
    choice.add_argument("--resume", nargs="?", type=int, const=True, metavar="ID",
                        help="resume the last unfinished game (or game ID) without asking at the board")
    choice.add_argument("--new", dest="resume", action="store_const", const=False,
                        help="start a new game even if one is unfinished")
    add_web_options(p, "port 8080 (or the next free one) on every network of the board")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from conquista.app.board_loop import BoardInbox
    from conquista.cli.board_devices import open_board
    from conquista.hardware.profile import load_profile

    # Without --rules, --players or --bots the players choose the game at the board: the set-up menu on the ring.
    from_command_line = args.rules is not None or args.players is not None or args.bots is not None
    asked_rules, asked_players = args.rules, args.players
    args.rules = "italian" if args.rules is None else args.rules
    rules = load_ruleset(args.rules)
    args.players = default_players(rules) if args.players is None else args.players
    players_in_range(rules, args.players)
    if args.seed is not None and args.dice != "seeded":
        raise ConquistaError(f"--seed is the seed of --dice seeded; with --dice {args.dice} it would do nothing: "
                             f"add --dice seeded or leave --seed out")
    game_map = load_map(args.map)
    profile = load_profile(args.board, game_map)
    inbox = BoardInbox()   # the board's loop waits on it: taps, presses, the link and the phones wake it
    # A missing device is the one line printed, before any QR code; the devices stay open for the board.
    devices = open_board(profile, args.sensors, inbox)
    with contextlib.closing(devices):   # run_board closes them; this, if something fails before it runs
        return _play(args, from_command_line, asked_rules, asked_players, game_map, profile, inbox, devices, rules)


def _play(args: argparse.Namespace, from_command_line: bool, asked_rules: str | None, asked_players: int | None,
          game_map: GameMap, profile: BoardProfile, inbox: BoardInbox, devices: BoardDevices, rules: Ruleset) -> int:
    """The command line's side of the evening: the options read into the session's steps (app/play_session.py)."""
    from conquista.app.play_session import PlaySession

    def warn(text: str) -> None:
        sys.stderr.write(fitted(text, sys.stderr, "conquista play: ") + "\n")

    def open_journal(resume: bool | int | None) -> PlayStart:
        from conquista.journal import Wanted, open_for_play

        # Only a saved game of the ruleset and players the command line names is resumed or offered.
        return open_for_play(args.data_dir, resume, warn,
                             Wanted(rules.name if asked_rules is not None else None, asked_players))

    # The deal, the missions, the cards and the dice come from the source --dice names (default: the OS's).
    dice = TableDice(args.dice, args.seed, None, print)
    session = PlaySession(args.data_dir, open_journal, dice, profile, inbox, devices)
    start = session.open_saved(args.resume)
    game, bots, ask = _opening(args, start, dice, game_map, session.router, menu=not from_command_line, warn=warn,
                               menus=session.menus, rules=rules)
    if not args.no_web:
        session.serve_phones(_phones(args, game, bots, dice, game_map,
                                     hosted=not from_command_line and args.resume is None))
    referee = session.run(game, bots, ask, sensors_url=args.sensors, physical_dice=args.physical_dice,
                          first_frame_shown=start_up_done)
    return session.end(referee)


def _phones(args: argparse.Namespace, game: Game, bots: BotSeats, dice: TableDice, game_map: GameMap, *,
            hosted: bool) -> Phones:
    """The web app of --web, its port bound now (a busy one is an error before the board starts). A game named on
    the command line has no host; otherwise the first phone granted a seat sets up the games."""
    from conquista.app.play_session import Phones

    reserved = reserve_web(args, default_host="0.0.0.0")

    def serve(set_up: HostSetUp | None) -> tuple[WebService, Companion]:
        return start_web(args, default_host="0.0.0.0", players=game.players, bots=bots.seats, out=None,
                         set_up=set_up, reserved=reserved)

    def announce(url: str) -> None:
        sys.stdout.write(join_text(url))
        sys.stdout.flush()

    host_set_up = (lambda journal: _host_set_up(journal, game_map, dice, bots)) if hosted else None
    return Phones(reserved, serve, host_set_up, announce)


def _opening(args: argparse.Namespace, start: PlayStart | None, dice: TableDice, game_map: GameMap,
             router: EffectRouter, *, menu: bool, warn: Callable[[str], object],
             menus: list[NewGameAtBoard] | None = None, rules: Ruleset | None = None
             ) -> tuple[Game, BotSeats, Callable[[Referee], None]]:
    """The game the board starts with (a stand-in while the set-up menu shows), the bots' seats, and what the
    board asks first: resume the unfinished game (CANCEL: the menu, or the command line's game), or the menu.
    Every game is dealt from the table's chance source (`dice`). `start` None: a new game, whose journal opens
    later (`--new`); `menus` then receives the set-up menu's starter, to be given that journal. `rules`: the
    ruleset of --rules, when loaded already."""
    from conquista.app.setup import NewGameAtBoard
    from conquista.bots import make_bot
    from conquista.bots.roster import bots_of
    from conquista.table.bot_player import BotSeats
    from conquista.table.effects import Answered

    rules = load_ruleset(args.rules) if rules is None else rules
    kinds = parse_bot_seats(args.bots or "", rules.colours, args.players)   # --bots blue:planner,yellow
    # Live play: the bots' own choices come from the operating system's generator.
    bots = BotSeats(lambda kind: make_bot(kind, random.SystemRandom()), think_s=args.think)

    def fresh() -> Game:
        if start is not None:
            start.journal.seats, start.journal.seed = seats_of(args.players, kinds), None   # saved with the game
        bots.seat(kinds)                               # the command line's game: its --bots, the rest people
        return dice.new_game(rules, game_map, args.players)

    game = dice.game_to_play(start, fresh, warn) if start is not None else fresh()
    if start is not None and start.game is not None and game is start.game:
        # A resumed game keeps its bots, unless --bots names them anew.
        bots.seat(parse_bot_seats(args.bots, game.rules.colours, game.players) if args.bots is not None
                  else bots_of(start.journal.seats))
    at_board = NewGameAtBoard(lambda chosen, players: dice.new_game(chosen, game_map, players),
                              bots, router, journal=start.journal if start is not None else None, rules=args.rules,
                              players=args.players)

    def ask(referee: Referee) -> None:
        at_board.offer_after_game(referee, lambda: dice.finish(True, in_use=referee.view().dice_source))
        set_up = (lambda now: at_board.offer(referee)) if menu else None
        if start is not None and start.offer is not None:
            from conquista.journal import offer_resume

            router.on(Answered, offer_resume(referee, start.journal, start.offer, fresh, set_up=set_up))
        elif (start is None or start.game is None) and menu:
            at_board.offer(referee)

    if menus is not None:
        menus.append(at_board)
    return game, bots, ask


def _host_set_up(journal: GameJournal, game_map: GameMap, dice: TableDice, bots: BotSeats | None = None
                 ) -> HostSetUp:
    """Games from the host's phone; the one on the board is kept in the journal as abandoned. Deals come from the
    operating system's generator, as at start; the dice stay the command line's unless the host asks for committed
    ones (and a committed source of the command line is not reused: its seed fixed the first game). The board's
    bots follow the seats the host chose."""
    from conquista.app.host_setup import HostSetUp
    from conquista.dice.sources import DiceKind, OsDice
    from conquista.web.companion import StartedGame

    def follow(started: StartedGame) -> None:
        if bots is not None:
            bots.seat(started.bots)

    def plain() -> tuple[random.Random, DiceSource, int | None]:
        return random.SystemRandom(), OsDice() if dice.chance.kind is DiceKind.COMMITTED else dice.chance, None

    return HostSetUp(journal, game_map, plain=plain, bots_allowed=bots is not None, on_start=follow)
