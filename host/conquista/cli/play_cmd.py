"""`conquista play`: referee a game on the real board described by a board profile."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from conquista.cli.common import (
    add_dice_options,
    add_map_option,
    announce_committed,
    games_dir_to_write,
    players_in_range,
    reveal_committed,
)
from conquista.cli.web_options import add_web_options, start_web
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

if TYPE_CHECKING:
    from conquista.journal import GameJournal, PlayStart
    from conquista.rules.engine import Game
    from conquista.rules.mapdata import GameMap
    from conquista.rules.rulesets import Ruleset
    from conquista.table.bot_player import BotSeats
    from conquista.table.referee import Referee
    from conquista.web.companion import Companion


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("play", help="referee a game on the real board (Raspberry Pi)")
    # Defaults are filled in at run time, so that a game set up on the command line can be told apart: without
    # one, the first phone granted a seat becomes the host (its set-up screen).
    p.add_argument("--rules", help="ruleset name or .toml file (default: italian)")
    p.add_argument("--players", type=int, help="number of players (default: 3)")
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
    from conquista.app.power import switch_off
    from conquista.dice.sources import CommittedDice, make_source
    from conquista.hardware.profile import load_profile
    from conquista.journal import open_for_play

    # Without --rules or --players the players choose the game at the board: the set-up menu on the ring.
    from_command_line = args.rules is not None or args.players is not None
    args.rules = "italian" if args.rules is None else args.rules
    args.players = 3 if args.players is None else args.players
    rules = load_ruleset(args.rules)
    players_in_range(rules, args.players)
    game_map = load_map(args.map)
    profile = load_profile(args.board, game_map)
    dice = make_source(args.dice, args.seed)
    # Without --resume/--new an unfinished game is offered at the board: ROLL resumes it, CANCEL starts anew.
    start = open_for_play(args.data_dir, args.resume, lambda text: sys.stderr.write(f"conquista play: {text}\n"))
    companions: list[Companion] = []
    game, bots, ask = _opening(args, start, rules, game_map, menu=not from_command_line, companions=companions)
    start.journal.dice_header = dice.header() if isinstance(dice, CommittedDice) else {"source": dice.name}
    announce_committed(dice, print)
    web = None
    if not args.no_web:
        web, companion = start_web(args, default_host="0.0.0.0", players=game.players, bots=bots.seats,
                                   first_seat_hosts=not from_command_line, out=sys.stdout,
                                   new_game=None if from_command_line else _host_set_up(start.journal, game_map))
        companions.append(companion)
    try:
        referee = run_board(game, profile, dice, sensors_url=args.sensors, physical_dice=args.physical_dice,
                            journal=start.journal, on_start=ask,
                            on_step=companions[0].step if companions else None, bots=bots)
    finally:
        if web is not None:
            web.stop()
        start.journal.close()
    if referee.power_off:
        return 0 if switch_off(profile.shutdown_command, print) == 0 else 2
    print(referee.status().pending)
    reveal_committed(dice, referee.game.over, print)
    return 0


def _opening(args: argparse.Namespace, start: PlayStart, rules: Ruleset, game_map: GameMap, *, menu: bool,
             companions: list[Companion]) -> tuple[Game, BotSeats, Callable[[Referee], None]]:
    """The game the board starts with (a stand-in while the set-up menu shows), the bots' seats, and what the
    board asks first: resume the unfinished game (CANCEL: the menu, or the command line's game), or the menu."""
    from conquista.app.setup import NewGameAtBoard, bots_of, seats_of
    from conquista.bots import make_bot
    from conquista.dice.chance import new_game
    from conquista.journal import offer_resume
    from conquista.table.bot_player import BotSeats

    # Live play: the deal, the bots' own choices and the dice come from the operating system's generator.
    bots = BotSeats(lambda kind: make_bot(kind, random.SystemRandom()))

    def fresh() -> Game:
        start.journal.seats, start.journal.seed = seats_of(args.players, {}), None   # saved with the game
        bots.seat({})                                  # the command line's game: every seat a person
        return new_game(rules, game_map, args.players, random.SystemRandom())

    if start.game is not None:
        bots.seat(bots_of(start.journal.seats))       # a resumed game keeps its bots
    at_board = NewGameAtBoard(lambda chosen, players: new_game(chosen, game_map, players, random.SystemRandom()),
                              bots, journal=start.journal, rules=args.rules, players=args.players,
                              on_started=lambda new, choice: _seat_phones(companions, new.players, choice.bots))

    def ask(referee: Referee) -> None:
        set_up = (lambda now: at_board.offer(referee)) if menu else None
        if start.offer is not None:
            offer_resume(referee, start.journal, start.offer, fresh, set_up=set_up)
        elif start.game is None and menu:
            at_board.offer(referee)

    return (start.game if start.game is not None else fresh()), bots, ask


def _seat_phones(companions: list[Companion], players: int, bots: Mapping[int, str]) -> None:
    """A game chosen at the board: the web app's seats follow it (bots' seats cannot be claimed)."""
    for companion in companions:
        companion.seats.resize(players)
        companion.seats.bots = frozenset(bots)


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
