"""`conquista play`: referee a game on the real board described by a board profile."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from conquista.cli.common import (
    BOTS_HELP,
    add_dice_options,
    add_map_option,
    announce_committed,
    games_dir_to_write,
    number_in,
    parse_bot_seats,
    players_in_range,
    reveal_committed,
)
from conquista.cli.web_options import add_web_options, start_web
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

if TYPE_CHECKING:
    from conquista.journal import GameJournal
    from conquista.rules.engine import Game
    from conquista.rules.mapdata import GameMap
    from conquista.table.bot_seats import BotSeats


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("play", help="referee a game on the real board (Raspberry Pi)")
    # Defaults are filled in at run time, so that a game set up on the command line can be told apart: without
    # one, the first phone granted a seat becomes the host (its set-up screen).
    p.add_argument("--rules", help="ruleset name or .toml file (default: italian)")
    p.add_argument("--players", type=int, help="number of players (default: 3)")
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
    import sys

    from conquista.app.board import run_board
    from conquista.dice.chance import new_game
    from conquista.dice.sources import CommittedDice, make_source
    from conquista.hardware.profile import load_profile
    from conquista.journal import offer_resume, open_for_play
    from conquista.table.referee import Referee

    from_command_line = (args.rules is not None or args.players is not None or args.resume is not None
                         or args.bots is not None)
    args.rules = "italian" if args.rules is None else args.rules
    args.players = 3 if args.players is None else args.players
    rules = load_ruleset(args.rules)
    players_in_range(rules, args.players)
    game_map = load_map(args.map)
    profile = load_profile(args.board, game_map)
    dice = make_source(args.dice, args.seed)
    kinds = parse_bot_seats(args.bots or "", rules.colours, args.players)
    seats = tuple(kinds.get(seat, "human") for seat in range(args.players))

    def fresh() -> Game:
        # Live play: the deal and the dice come from the operating system's cryptographic generator.
        start.journal.seats, start.journal.seed = seats, None   # saved with the game
        return new_game(rules, game_map, args.players, random.SystemRandom())

    # Without --resume/--new an unfinished game is offered at the board: ROLL resumes it, CANCEL starts anew.
    start = open_for_play(args.data_dir, args.resume, lambda text: sys.stderr.write(f"conquista play: {text}\n"))
    game = start.game if start.game is not None else fresh()
    if game.players != args.players and kinds:
        kinds = parse_bot_seats(args.bots or "", game.rules.colours, game.players)  # the resumed game's seats

    def ask(referee: Referee) -> None:
        if start.offer is not None:
            offer_resume(referee, start.journal, start.offer, fresh)

    start.journal.dice_header = dice.header() if isinstance(dice, CommittedDice) else {"source": dice.name}
    announce_committed(dice, print)
    web = companion = None
    if not args.no_web:
        web, companion = start_web(args, default_host="0.0.0.0", players=game.players, bots=frozenset(kinds),
                                   first_seat_hosts=not from_command_line, out=sys.stdout,
                                   new_game=None if from_command_line else _host_set_up(start.journal, game_map))
    try:
        referee = run_board(game, profile, dice, sensors_url=args.sensors, physical_dice=args.physical_dice,
                            journal=start.journal, on_start=ask, bots=_seat_bots(kinds, args.think),
                            on_step=companion.step if companion is not None else None)
    finally:
        if web is not None:
            web.stop()
        start.journal.close()
    print(referee.status().pending)
    reveal_committed(dice, referee.game.over, print)
    return 0


def _seat_bots(kinds: dict[int, str], think: float) -> BotSeats | None:
    """The bots that play their seats at the board (None when every seat is a person's)."""
    if not kinds:
        return None
    from conquista.bots import make_bot
    from conquista.table.bot_seats import BotSeats

    # Bots decide deterministically; only the random bot draws, and at a real table from the OS.
    rng = random.SystemRandom()
    return BotSeats({seat: make_bot(kind, rng) for seat, kind in kinds.items()}, think)


def _host_set_up(journal: GameJournal, game_map: GameMap) -> Callable[[str, int], Game]:
    """New games from the host's phone; the one on the board is kept in the journal as abandoned."""
    from conquista.dice.chance import new_game

    def set_up(rules_name: str, players: int) -> Game:
        chosen = load_ruleset(rules_name)
        players_in_range(chosen, players)
        game = new_game(chosen, game_map, players, random.SystemRandom())
        journal.abandon()
        journal.start(game)
        return game

    return set_up
