"""`conquista games`: the saved games of a data directory; `conquista games show ID` one game's state."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime

from conquista.cli.common import saved_games_dir
from conquista.cli.program import as_typed
from conquista.cli.replay_cmd import HIDDEN_NOTE, public_state
from conquista.errors import ConquistaError
from conquista.journal import JournalError, JournalStore, default_data_dir, journal_path
from conquista.journal.resume import says_the_same
from conquista.rules.cards import JOLLY, card_symbol
from conquista.rules.engine import Game
from conquista.table.logview import mission_as_it_stands


def add_data_dir_option(parser: argparse.ArgumentParser, default: object = None) -> None:
    parser.add_argument("--data-dir", metavar="DIR", default=default, type=saved_games_dir,
                        help=f"where games are saved (default: {default_data_dir()})")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("games", help="list saved games (the journal), or show one with `games show ID`")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    add_data_dir_option(p)
    actions = p.add_subparsers(dest="games_command", metavar="show|delete")
    show = actions.add_parser("show", help="print a saved game's state and its digest")
    show.add_argument("id", type=int, help="the game's id (`conquista games` lists them)")
    # SUPPRESS: the subcommand must not reset options given before it (`games --data-dir D show 3`).
    show.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print the state as JSON")
    show.add_argument("--reveal", action="store_true",
                      help="also show what is secret while the game is unfinished: every player's mission and "
                           "cards in hand (and with --json the deck and the digest, which would give them away); "
                           "a finished game shows them anyway")
    add_data_dir_option(show, argparse.SUPPRESS)
    delete = actions.add_parser("delete", help="remove a saved game (asks first; --yes does not)")
    delete.add_argument("id", type=int, help="the game's id (`conquista games` lists them)")
    delete.add_argument("--yes", action="store_true", help="delete without asking (for scripts)")
    add_data_dir_option(delete, argparse.SUPPRESS)
    p.set_defaults(handler=run)


def seats_words(ruleset: str, seats: tuple[str, ...] | None, players: int) -> str:
    """Who played which seat: "red person, blue hard, yellow normal" (the seat's number when the ruleset is not
    one this conquista knows; "?" for games saved before seats were)."""
    from conquista.bots.roster import HUMAN
    from conquista.rules.rulesets import load_ruleset

    if seats is None:
        return "?"
    try:
        colours: tuple[str, ...] = tuple(load_ruleset(ruleset).colours)
    except ConquistaError:
        colours = ()
    names = [colours[seat] if seat < len(colours) else f"seat {seat}" for seat in range(players)]
    return ", ".join(f"{name} {'person' if kind == HUMAN else kind}" for name, kind in zip(names, seats, strict=False))


def _delete(args: argparse.Namespace) -> int:
    from conquista.journal.deletion import delete_game
    from conquista.journal.paths import data_dir_option

    path = journal_path(args.data_dir)
    store = JournalStore(path, create=False)
    try:
        info = store.info(args.id)
        seats = seats_words(info.ruleset, info.seats, info.players)
        what = (f"game {info.id} ({info.ruleset}, {info.players} players, turn {info.turn}, "
                f"{'finished' if info.finished else info.status}; {seats})")
        if not args.yes:
            if not sys.stdin.isatty():
                raise ConquistaError(f"delete {what}? nobody at a terminal to ask: add --yes to delete it")
            answer = input(f"delete {what}? it cannot be undone [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                print("not deleted")
                return 1
        delete_game(store, args.id)
    finally:
        _warn(store)
        store.close()
    print(as_typed(f"deleted {what}; `conquista games{data_dir_option(path)}` lists the rest"))
    return 0


def _print_board(game: Game, phase: str, reveal: bool) -> None:
    """Who acts, and each seat's (and the neutral army's) territories, armies and cards."""
    to_move = game.to_move  # the seat acting: in the duel's neutral turn, the current player's opponent
    print(f"phase {phase} · {game.rules.colours[to_move if isinstance(to_move, int) else game.current]} to play")
    for seat in range(game.players):
        owned = [t for t in range(game.map.size) if game.owner[t] == seat]
        print(f"  {game.rules.colours[seat]:<8} {len(owned):>2} territories, "
              f"{sum(game.armies[t] for t in owned):>3} armies, {len(game.hands[seat])} cards"
              f"{' (out)' if game.eliminated[seat] else ''}{' (winner)' if game.winner == seat else ''}")
        if reveal:
            _print_secrets(game, seat)
    if game.neutral is not None:
        owned = [t for t in range(game.map.size) if game.owner[t] == game.neutral]
        print(f"  {'neutral':<8} {len(owned):>2} territories, {sum(game.armies[t] for t in owned):>3} armies")


def run(args: argparse.Namespace) -> int:
    path = journal_path(args.data_dir)
    if args.games_command == "delete":
        return _delete(args)
    if args.games_command == "show":
        store = JournalStore(path, create=False)
        error = ""
        try:
            info = store.info(args.id)
            _header, game = store.load(args.id)
        except JournalError as exc:
            error = str(exc)
            raise
        finally:
            _warn(store, error)
            store.close()
        reveal = args.reveal or game.over
        state = game.snapshot()
        if args.json:
            if reveal:
                print(json.dumps({**info.to_json(), "state": state, "digest": game.digest()}))
            else:
                print(json.dumps({**info.to_json(), "state": public_state(game), "digest": None,
                                  "hidden": HIDDEN_NOTE}))
            return 0
        print(f"game {info.id} · {info.ruleset} · {info.players} players · turn {info.turn} · "
              f"{info.actions} actions · {info.status}")
        _print_board(game, state["phase"], reveal)
        print(f"digest {game.digest()}" if reveal else HIDDEN_NOTE)
        return 0
    if not path.exists():
        games = []
    else:
        store = JournalStore(path, create=False)
        try:
            games = store.games()
        finally:
            _warn(store)
            store.close()
    if args.json:
        print(json.dumps([g.to_json() for g in games]))
        return 0
    if not games:
        print(f"no saved games in {path.parent}")
        return 0
    print(f"{'id':>4}  {'ruleset':<24} {'players':>7} {'turn':>5}  {'last played':<16}  {'status':<9} seats")
    for g in games:
        when = datetime.fromtimestamp(g.last_played).strftime("%Y-%m-%d %H:%M")
        print(f"{g.id:>4}  {g.ruleset:<24} {g.players:>7} {g.turn:>5}  {when:<16}  "
              f"{'finished' if g.finished else g.status:<9} {seats_words(g.ruleset, g.seats, g.players)}")
    return 0


def _warn(store: JournalStore, error: str = "") -> None:
    for warning in store.warnings:          # a game restored from the backup, or refused as damaged
        if not (error and says_the_same(warning, error)):     # the error itself is printed after
            sys.stderr.write(f"conquista games: {as_typed(warning)}\n")


def _print_secrets(game: Game, seat: int) -> None:
    if game.missions:
        # As `replay` and the phones word it: a destroy mission that cannot be met reads as its fallback.
        print(f"           mission: {mission_as_it_stands(game, seat)}")
    if game.hands[seat]:
        cards = [f"{game.map.territories[c].name_en} ({card_symbol(game.map, c)})" if c < game.map.size else JOLLY
                 for c in sorted(game.hands[seat])]
        print(f"           hand: {', '.join(cards)}")
