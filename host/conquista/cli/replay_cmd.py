"""`conquista replay LOG`: replay a saved game log and print how it went (or its state with --json)."""

from __future__ import annotations

import argparse
import json

from conquista.gamelog import read_log
from conquista.logview import describe_game
from conquista.rules.mapdata import load_map


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("replay", help="replay a game log file (JSON Lines) and print it")
    p.add_argument("log", help="a game log written by `simulate --save-logs` or the referee")
    p.add_argument("--json", action="store_true", help="print the final state and its digest as JSON")
    p.add_argument("--map", metavar="PATH", help="the map file the game was played on, if not the classic 42")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    _header, game = read_log(args.log, load_map(args.map) if args.map else None)
    if args.json:
        print(json.dumps({"state": game.snapshot(), "digest": game.digest(), "actions": len(game.log)}))
        return 0
    for line in describe_game(game):
        print(line)
    print(f"digest {game.digest()}")
    return 0
