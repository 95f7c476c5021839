"""pyrisk's games as its users would run them for speed: its `Game` driven from a script, no display, no delay and
no log (logging disabled before pyrisk is imported). `bench_pyrisk.py` runs this beside `conquista simulate`; pyrisk's
own `pyrisk.py --nocurses` logs every event at DEBUG to stderr, which is half its time.

    python benchmarks/pyrisk_games.py --peer DIR --players 4 --games 200 --seed 1

pyrisk itself is not part of this repository: `--peer` is a checkout of https://github.com/chronitis/pyrisk. Prints
the wins per player on one line.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import logging
import random
import sys
from pathlib import Path

NAMES = ("ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, required=True, help="a pyrisk checkout")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai", default="StupidAI", help="pyrisk's AI class (ai/<name>.py), default StupidAI")
    args = parser.parse_args(argv)
    logging.disable(logging.CRITICAL)   # every pyrisk logger: nothing is formatted or written
    sys.path.insert(0, str(args.peer.resolve()))
    game_module = importlib.import_module("game")
    world = importlib.import_module("world")
    ai = getattr(importlib.import_module(f"ai.{args.ai[:-2].lower()}"), args.ai)
    random.seed(args.seed)
    wins: collections.Counter[str] = collections.Counter()
    for j in range(args.games):
        game = game_module.Game(curses=False, color=False, delay=0, wait=False, deal=False, connect=world.CONNECT,
                                cmap=world.MAP, ckey=world.KEY, areas=world.AREAS, round=(j + 1, args.games),
                                history=wins)
        for name in NAMES[: args.players]:
            game.add_player(name, ai)
        wins[game.play()] += 1
    print(" ".join(f"{name}:{wins[name]}" for name in NAMES[: args.players]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
