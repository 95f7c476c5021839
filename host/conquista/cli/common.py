"""Options and checks shared by several subcommands."""

from __future__ import annotations

import argparse

from conquista.rules.mapdata import GameMap, load_map
from conquista.rules.rulesets import Ruleset, load_ruleset


def add_map_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--map", metavar="PATH", help="a map file of your own board (default: the classic 42)")


def load_rules_and_map(rules_name: str, map_path: str | None) -> tuple[Ruleset, GameMap]:
    return load_ruleset(rules_name), load_map(map_path)


def players_in_range(rules: Ruleset, players: int) -> None:
    rules.check_players(players, f"; use --players {rules.players_min}..{rules.players_max}")
