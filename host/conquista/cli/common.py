"""Options and checks shared by several subcommands."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path

from conquista.errors import ConquistaError
from conquista.rules.mapdata import GameMap, load_map
from conquista.rules.ruleset import Ruleset
from conquista.rules.rulesets import SHIPPED_RULESETS, load_ruleset


def add_map_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--map", metavar="PATH", help="a map file of your own board (default: the classic 42)")


def load_rules_and_map(rules_name: str, map_path: str | None) -> tuple[Ruleset, GameMap]:
    return load_rules(rules_name), load_map(map_path)


def load_rules(name_or_path: str) -> Ruleset:
    """A ruleset by name or .toml file; a path to something else says what is wrong with it, not "unknown ruleset"."""
    path = Path(name_or_path)
    if path.is_dir():
        raise ConquistaError(f"{name_or_path} is a directory; give a ruleset name (`conquista rules` lists them) "
                             "or a .toml file that extends one")
    if not name_or_path.endswith(".toml") and path.is_file():
        raise ConquistaError(f"{name_or_path}: a ruleset file must end in .toml; or give a "
                             "ruleset name (`conquista rules` lists them)")
    return load_ruleset(name_or_path)


DEFAULT_PLAYERS = 3


def default_players(rules: Ruleset) -> int:
    """The players of a game the command line names without --players: 3, or the nearest count the ruleset allows
    (a duel's 2), so that a ruleset for one count of players needs no --players."""
    return min(max(DEFAULT_PLAYERS, rules.players_min), rules.players_max)


def players_in_range(rules: Ruleset, players: int) -> None:
    counts = (str(rules.players_min) if rules.players_min == rules.players_max
              else f"{rules.players_min}..{rules.players_max}")
    rules.check_players(players, f"; use --players {counts}")


def players_fit_map(rules: Ruleset, game_map: GameMap, players: int, map_path: str | None) -> None:
    """Every player (and the neutral army) needs a territory, and every mission the continents it names: said
    before any game starts, naming the map file."""
    from conquista.rules.choices import Objective
    from conquista.rules.missions import check_map_supports

    if rules.objective is Objective.MISSIONS:
        try:
            check_map_supports(game_map, rules.missions)
        except ConquistaError as exc:
            raise ConquistaError(f"{map_path or game_map.name}: {exc} (ruleset {rules.name})") from None
    owners = players + rules.neutral_army
    if game_map.size < owners:
        most = game_map.size - rules.neutral_army
        fix = f"use --players {most} or fewer" if most >= rules.players_min else "use a bigger map"
        raise ConquistaError(f"{map_path or game_map.name}: the map has {game_map.size} territories, fewer than "
                             f"the {owners} {'owners' if rules.neutral_army else 'players'}, and every one needs "
                             f"a territory; {fix}")


def saved_games_dir(text: str) -> str:
    """argparse type of a --data-dir that is only read (`games`, `replay`): a directory (one not made yet has no
    games, which `games` lists as none), never a file."""
    if Path(text).exists() and not Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file, not a directory; give the directory the games were "
                                         "saved in (the one `conquista sim`/`play` were given)")
    return text


def games_dir_to_write(text: str) -> str:
    """argparse type of a --data-dir that games are saved into (`sim`, `play`): created if missing, never a file."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file, not a directory; give a directory for the saved games "
                                         "(it is created if missing)")
    return text


def number_in(low: float, high: float) -> Callable[[str], float]:
    """argparse type of a finite number in [low, high] (argparse names the option in its message).

    `float()` alone takes inf, nan and negatives, which made a bot think forever or the clock run backwards.
    """
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            raise argparse.ArgumentTypeError(f"give a number from {low:g} to {high:g}, not {text}")
        return value

    return parse


def rules_help(default: str = "italian", *, for_what: str = "") -> str:
    """The help of a --rules option: the rulesets to choose from."""
    return (f"ruleset{for_what}: {', '.join(SHIPPED_RULESETS)}, or a .toml file of your own (default: {default}; "
            f"`conquista rules NAME` shows one)")


BOTS_HELP = ("seats played by bots, by colour (e.g. blue,yellow) or by number from 0 (e.g. 1,2), each with an "
             "optional level after a colon: blue:hard,yellow:easy (easy: a beginner; normal: plays its mission with "
             "the exact odds; hard: looks a turn ahead; default normal; the kinds planner, greedy and random are "
             "also accepted)")


def parse_bot_seats(text: str, colours: tuple[str, ...], players: int, option: str = "--bots") -> dict[int, str]:
    """Seats named by colour ("blue") or by number from 0 ("1"), each with an optional bot level or kind ("blue:hard"),
    as {seat: kind} in seat order; a seat without a kind gets the default bot."""
    from conquista.bots import BOT_NAMES
    from conquista.bots.roster import DEFAULT_BOT

    in_play = colours[:players]
    seats: dict[int, str] = {}
    for item in (w.strip().lower() for w in text.split(",")):
        if not item:
            continue
        word, _, kind = (part.strip() for part in item.partition(":"))
        kind = kind or DEFAULT_BOT
        if kind not in BOT_NAMES:
            raise ConquistaError(f"{option}: {kind!r} is not a bot; known bots: {', '.join(BOT_NAMES)} "
                                 f"(e.g. {option} {in_play[-1]}:hard)")
        if word.isdigit() and int(word) < players:
            seats[int(word)] = kind
        elif word in in_play:
            seats[in_play.index(word)] = kind
        else:
            raise ConquistaError(f"{option}: {word!r} is not a seat of this {players}-player game; name seats by "
                                 f"colour ({', '.join(in_play)}) or number (0..{players - 1})")
    return dict(sorted(seats.items()))


def parse_seats(text: str, colours: tuple[str, ...], players: int, option: str = "--bots") -> tuple[int, ...]:
    """Seats named by colour ("blue,yellow") or by number from 0 ("1,2"), as a sorted tuple of seat indices (a
    bot kind after a colon is checked and left out)."""
    return tuple(parse_bot_seats(text, colours, players, option))


def add_dice_options(parser: argparse.ArgumentParser, default: str, physical: bool = True) -> None:
    from conquista.dice.sources import SOURCE_NAMES

    parser.add_argument("--dice", choices=SOURCE_NAMES, default=default,
                        help=f"where the dice come from (default: {default}): os = the operating system's "
                             "generator, seeded = from --seed (reproducible), committed = provably fair (the "
                             "commitment is shown at the start, the seed revealed at the end for "
                             "`conquista dice audit`)")
    if physical:
        parser.add_argument("--physical-dice", action="store_true",
                            help="roll real dice and enter them with the encoder (turn to set, ROLL confirms each "
                                 "die)")

