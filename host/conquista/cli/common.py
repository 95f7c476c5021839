"""Options and checks shared by several subcommands."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from conquista.errors import ConquistaError
from conquista.rules.mapdata import GameMap, load_map
from conquista.rules.rulesets import Ruleset, load_ruleset


def add_map_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--map", metavar="PATH", help="a map file of your own board (default: the classic 42)")


def load_rules_and_map(rules_name: str, map_path: str | None) -> tuple[Ruleset, GameMap]:
    return load_ruleset(rules_name), load_map(map_path)


def players_in_range(rules: Ruleset, players: int) -> None:
    rules.check_players(players, f"; use --players {rules.players_min}..{rules.players_max}")


def parse_seats(text: str, colours: tuple[str, ...], players: int, option: str = "--bots") -> tuple[int, ...]:
    """Seats named by colour ("blue,yellow") or by number from 0 ("1,2"), as a sorted tuple of seat indices."""
    in_play = colours[:players]
    seats: set[int] = set()
    for word in (w.strip().lower() for w in text.split(",")):
        if not word:
            continue
        if word.isdigit() and int(word) < players:
            seats.add(int(word))
        elif word in in_play:
            seats.add(in_play.index(word))
        else:
            raise ConquistaError(f"{option}: {word!r} is not a seat of this {players}-player game; name seats by "
                                 f"colour ({', '.join(in_play)}) or number (0..{players - 1})")
    return tuple(sorted(seats))


def add_dice_options(parser: argparse.ArgumentParser, default: str, physical: bool = True) -> None:
    parser.add_argument("--dice", choices=("os", "seeded", "committed"), default=default,
                        help=f"where the dice come from (default: {default}): os = the operating system's "
                             "generator, seeded = from --seed (reproducible), committed = provably fair (the "
                             "commitment is shown at the start, the seed revealed at the end for "
                             "`conquista dice audit`)")
    if physical:
        parser.add_argument("--physical-dice", action="store_true",
                            help="roll real dice and enter them with the encoder (turn to set, ROLL confirms each "
                                 "die)")


def announce_committed(dice: object, out: Callable[[str], None]) -> None:
    """Committed dice: the commitment is shown at the start (the seed stays secret until the end)."""
    from conquista.dice.sources import CommittedDice

    if isinstance(dice, CommittedDice):
        out(f"committed dice: commitment {dice.commitment} (the seed is revealed when the game ends)")


def reveal_committed(dice: object, over: bool, out: Callable[[str], None]) -> None:
    """At the end of a finished game the committed seed is revealed, so anyone can re-derive every roll."""
    from conquista.dice.sources import CommittedDice

    if isinstance(dice, CommittedDice):
        if over:
            out(f"committed dice: the seed was {dice.reveal()}; check every roll with "
                f"`conquista dice audit ID --verify-seed {dice.reveal()}`")
        else:
            out("committed dice: the game is not over, so the seed stays secret")
