"""`conquista replay LOG|ID`: replay a game log file or a saved game and print how it went (its state with --json,
or step by step on the simulated board's terminal view with --step)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conquista.cli.common import saved_games_dir
from conquista.cli.program import as_typed
from conquista.dice.luck import luck_report
from conquista.errors import ConquistaError
from conquista.journal import JournalStore, default_data_dir, journal_path
from conquista.rules.actions import Deal, Draw
from conquista.rules.engine import Game
from conquista.rules.gamelog import parse_log_lines, read_log
from conquista.rules.mapdata import load_map

if TYPE_CHECKING:
    from rich.console import Console
from conquista.table.inputs import Note, ShowGame
from conquista.table.logview import describe_event, describe_game
from conquista.table.wording import readable

HIDDEN_NOTE = ("the game is not finished: missions, hands and the digest are hidden "
               "(--reveal shows them, to everyone who can see this screen)")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("replay", help="replay a game log file (JSON Lines) or a saved game and print it")
    p.add_argument("log", help="a game log written by `simulate --save-logs` or the referee, or a saved game's id "
                               "(`conquista games` lists them)")
    p.add_argument("--json", action="store_true", help="print the final state and its digest as JSON")
    p.add_argument("--step", action="store_true",
                   help="show the board after every action (on a terminal: Enter steps, +N jumps N actions on, "
                        "-N back, `turn N` to turn N, `end` to the end; piped, every step prints)")
    p.add_argument("--map", metavar="PATH", help="the map file the game was played on, if not the classic 42")
    p.add_argument("--data-dir", metavar="DIR", type=saved_games_dir,
                   help=f"where saved games are (default: {default_data_dir()})")
    p.add_argument("--reveal", action="store_true",
                   help="also show what is secret while the game is unfinished: every player's mission and "
                        "cards in hand (and with --json the deck and the digest, which would give them away); "
                        "a finished game shows them anyway")
    p.set_defaults(handler=run)


def _load(args: argparse.Namespace) -> tuple[Game, tuple[str, ...] | None]:
    """The game, and its seats as the journal saved them ("human" or a bot's kind; None from a log file, or a
    game saved before seats were)."""
    game_map = load_map(args.map) if args.map else None
    if args.log.isdigit() and not Path(args.log).exists():
        store = JournalStore(journal_path(args.data_dir), create=False)
        try:
            lines = store.log_lines(int(args.log))
            seats = store.info(int(args.log)).seats
        finally:
            for warning in store.warnings:      # e.g. the game was restored from the backup
                sys.stderr.write(f"conquista replay: {as_typed(warning)}\n")
            store.close()
        return parse_log_lines(lines, f"{store.path}, game {args.log}", game_map)[1], seats
    return read_log(args.log, game_map)[1], None


def public_state(game: Game) -> dict[str, Any]:
    """The state without what the players keep secret while the game goes on: the missions, the cards in each
    hand and the deck (only their counts)."""
    state = game.snapshot()
    state["missions"] = None
    state["hands"] = [len(hand) for hand in game.hands]
    state["deck"] = len(game.deck)
    return state


def run(args: argparse.Namespace) -> int:
    game, seats = _load(args)
    reveal = args.reveal or game.over
    if args.step:
        step(game, reveal=reveal, seats=seats)
        return 0
    if args.json:
        if reveal:
            out = {"state": game.snapshot(), "digest": game.digest(), "actions": len(game.log)}
            if game.over:
                out["luck"] = luck_report(game).to_json()
            print(json.dumps(out))
        else:
            # No digest either: with everything else known, the few possible missions and hands could be tried
            # against it.
            print(json.dumps({"state": public_state(game), "digest": None, "actions": len(game.log),
                              "hidden": HIDDEN_NOTE}))
        return 0
    for line in describe_game(game, reveal=reveal):
        print(line)
    if game.over:   # the luck report closes every finished game, its missions revealed
        for line in luck_report(game).lines():
            print(as_typed(line))
    print(f"digest {game.digest()}" if reveal else HIDDEN_NOTE)
    return 0


STEP_HELP = "Enter: next action · +N / -N: N actions on or back · turn N · end · q: quit "


@dataclass(frozen=True)
class Jump:
    """Where `replay --step` goes next: up to action `action`, or to the start of turn `turn`; quit when asked."""

    action: int = 0
    turn: int = 0
    quit: bool = False


def parse_jump(text: str, number: int, total: int, last_turn: int | None = None) -> Jump:
    """What was typed at the step prompt, at action `number` of `total`; `last_turn`: the turn the log ends in (a
    turn after it is refused, not taken for the end)."""
    words = text.strip().lower().split()
    if not words:
        return Jump(action=number + 1)
    if words == ["q"] or words == ["quit"]:
        return Jump(quit=True)
    if words == ["end"]:
        return Jump(action=total)
    if len(words) == 1 and words[0].startswith("+") and words[0][1:].isdigit() and int(words[0][1:]) > 0:
        return Jump(action=min(total, number + int(words[0][1:])))
    if len(words) == 1 and words[0].startswith("-") and words[0][1:].isdigit() and int(words[0][1:]) > 0:
        return Jump(action=max(1, number - int(words[0][1:])))
    if len(words) == 2 and words[0] == "turn" and words[1].isdigit():
        if last_turn is not None and int(words[1]) > last_turn:
            raise ConquistaError(f"the game ends in turn {last_turn}: there is no turn {words[1]} "
                                 f"(`end` shows the last action)")
        return Jump(turn=int(words[1]))
    raise ConquistaError(f"cannot understand {text.strip()!r}: {STEP_HELP.strip()}")


def step(game: Game, board: str | None = None, read: Callable[[str], str] | None = None,
         console: Console | None = None, reveal: bool = True, seats: Sequence[str] | None = None) -> None:
    """Replay `game` action by action on the simulated board (nobody plays: chance steps show the logged dice,
    and the legend names each seat by its colour and, from `seats` when the journal saved them, what played it).
    With `read` (a terminal's input), each step waits for a command that may also jump ahead. Without `reveal`
    (an unfinished game), the card each draw gave and the final digest stay hidden, as the players' hands are."""
    from rich.console import Console

    from conquista_sim.board_view import render
    from conquista_sim.table import SimulatedTable

    if read is None and sys.stdin.isatty() and sys.stdout.isatty():
        read = input
    console = console if console is not None else Console()
    deal = game.log[0]
    assert isinstance(deal, Deal)
    replayed = Game(game.rules, game.map, game.players, deal)
    total = len(game.log) - 1
    jump = Jump(action=1)
    replay_seats = tuple(seats) if seats is not None else (None,) * game.players
    with SimulatedTable(game=replayed.clone(), board=board) as table:
        referee = table.referee
        number = 0
        while number < total:
            if (jump.action and jump.action <= number) or (jump.turn and jump.turn <= replayed.turn):
                # A step back (or to the start of this turn or an earlier one): replayed again from the deal.
                replayed, number = Game(game.rules, game.map, game.players, deal), 0
                referee.step(ShowGame(replayed.clone(), fresh_log=True), table.clock.now())
            number += 1
            action = game.log[number]
            described = ("draw a card" if isinstance(action, Draw) and not reveal
                         else readable(replayed.describe(action), replayed.map, replayed.rules.colours))
            for event in replayed.apply(action):
                line = describe_event(replayed, event)
                if line:
                    referee.step(Note(line.strip()), table.clock.now())
            if number < total and (number < jump.action or (jump.turn and replayed.turn < jump.turn)):
                continue  # jumping: only the board where the jump ends is drawn
            referee.step(ShowGame(replayed.clone()), table.clock.now())
            table.advance(0.05)
            console.print(render(table, *console.size, replay_seats=replay_seats))
            console.print(f"action {number}/{total}: {described} · turn {replayed.turn}", style="bold")
            if read is None or number >= total:
                jump = Jump(action=number + 1)
                continue
            jump = _ask(read, console, number, total, game.turn)
            if jump.quit:
                break
    if replayed.over:
        for line in luck_report(replayed).lines():
            console.print(as_typed(line))
    console.print(f"digest {replayed.digest()}" if reveal else HIDDEN_NOTE)


def _ask(read: Callable[[str], str], console: Console, number: int, total: int, last_turn: int) -> Jump:
    while True:
        try:
            return parse_jump(read(STEP_HELP), number, total, last_turn)
        except EOFError:
            return Jump(quit=True)
        except ConquistaError as exc:
            console.print(str(exc), style="yellow")
