"""`conquista replay LOG|ID`: replay a game log file or a saved game and print how it went (its state with --json,
or step by step on the simulated board's terminal view with --step)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from conquista.cli.common import saved_games_dir
from conquista.journal import JournalStore, default_data_dir, journal_path
from conquista.rules.actions import Deal
from conquista.rules.engine import Game
from conquista.rules.gamelog import parse_log_lines, read_log
from conquista.rules.mapdata import load_map
from conquista.table.logview import describe_event, describe_game


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("replay", help="replay a game log file (JSON Lines) or a saved game and print it")
    p.add_argument("log", help="a game log written by `simulate --save-logs` or the referee, or a saved game's id "
                               "(`conquista games` lists them)")
    p.add_argument("--json", action="store_true", help="print the final state and its digest as JSON")
    p.add_argument("--step", action="store_true",
                   help="show the board after every action (Enter steps on a terminal; piped, every step prints)")
    p.add_argument("--map", metavar="PATH", help="the map file the game was played on, if not the classic 42")
    p.add_argument("--data-dir", metavar="DIR", type=saved_games_dir,
                   help=f"where saved games are (default: {default_data_dir()})")
    p.set_defaults(handler=run)


def _load(args: argparse.Namespace) -> Game:
    game_map = load_map(args.map) if args.map else None
    if args.log.isdigit() and not Path(args.log).exists():
        store = JournalStore(journal_path(args.data_dir), create=False)
        try:
            lines = store.log_lines(int(args.log))
        finally:
            store.close()
        return parse_log_lines(lines, f"{store.path}, game {args.log}", game_map)[1]
    return read_log(args.log, game_map)[1]


def run(args: argparse.Namespace) -> int:
    game = _load(args)
    if args.step:
        step(game)
        return 0
    if args.json:
        print(json.dumps({"state": game.snapshot(), "digest": game.digest(), "actions": len(game.log)}))
        return 0
    for line in describe_game(game):
        print(line)
    print(f"digest {game.digest()}")
    return 0


def step(game: Game, board: str | None = None) -> None:
    """Replay `game` action by action on the simulated board (nobody plays: chance steps show the logged dice)."""
    from rich.console import Console

    from conquista_sim.table import SimulatedTable
    from conquista_sim.terminal import render

    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    console = Console()
    deal = game.log[0]
    assert isinstance(deal, Deal)
    replayed = Game(game.rules, game.map, game.players, deal)
    total = len(game.log) - 1
    with SimulatedTable(game=replayed.clone(), board=board) as table:
        referee = table.referee
        for number, action in enumerate(game.log[1:], start=1):
            described = replayed.describe(action)
            for event in replayed.apply(action):
                line = describe_event(replayed, event)
                if line:
                    referee.log.append(line.strip())
            referee.reset(replayed.clone(), table.clock.now(), play=False)
            table.advance(0.05)
            console.print(render(table))
            console.print(f"action {number}/{total}: {described}", style="bold")
            if interactive and number < total and input("Enter: next action · q: quit ").strip().lower() == "q":
                break
    console.print(f"digest {replayed.digest()}")
