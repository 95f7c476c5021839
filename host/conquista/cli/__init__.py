"""The `conquista` command. Each subcommand lives in its own module with `register(subparsers)`."""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from conquista import __version__
from conquista.errors import ConquistaError
from conquista.errors import UsageError as UsageError  # raised by the command modules

# Every subcommand: its name, the module under conquista.cli that registers it with `register(subparsers)`, and
# the one-line help `conquista --help` lists (in this order). Only the module of the command being run is
# imported: `--help` and a light command such as `odds` must not pay for rich, gpiozero, sqlite3 or the simulator
# (tests/cli/test_startup.py checks both the imports and that this help matches what each module registers).
COMMANDS: dict[str, tuple[str, str]] = {
    "rules": ("rules_cmd", "list rulesets, or show one ruleset's parameters"),
    "simulate": ("simulate_cmd", "play whole bot games headless and report speed and results"),
    "replay": ("replay_cmd", "replay a game log file (JSON Lines) or a saved game and print it"),
    "games": ("games_cmd", "list saved games (the journal), or show one with `games show ID`"),
    "sim": ("sim_cmd", "play on the simulated board (terminal view, script or demo)"),
    "play": ("play_cmd", "referee a game on the real board (Raspberry Pi)"),
    "odds": ("odds_cmd", "chance that a blitz conquers, survivors and expected losses; or the N×N table"),
    "dice": ("dice_cmd", "dice tools: audit a game log's rolls"),
    "link": ("link_cmd", "inspect the serial link to the Pico"),
    "sim-mcu": ("sim_mcu_cmd", "run the Pico firmware on a simulated board, served on loopback"),
    "firmware": ("firmware_cmd", "manage the Pico firmware"),
    "service": ("service_cmd", "start the referee when the board is switched on (systemd)"),
    "board": ("board_cmd", "the builder's tools: calibrate a profile, self-test, draw the wiring"),
}


def help_width() -> int:
    """The width argparse formats help to: `shutil.get_terminal_size().columns - 2`, worked out as shutil does
    ($COLUMNS, else the terminal of stdout, else 80) without importing shutil, which loads bz2 and lzma."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
        columns = columns or 80
    return columns - 2


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter, given the width: argparse makes one for every option it registers (to check its
    metavar), and finding the width itself imported shutil, 2 % of a board's start (issue 22)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, help_width() if width is None else width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        # One line on stderr and exit code 2, the same shape as every other user error.
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def command_in(argv: Sequence[str]) -> str | None:
    """The subcommand `argv` runs: its first word that is not an option (the top-level options take no value).
    None when the top-level help is asked for first (`conquista -h odds` lists every command)."""
    for word in argv:
        if word in ("-h", "--help"):
            return None
        if not word.startswith("-"):
            return word
    return None


def build_parser(command: str | None = None, *, every_command: bool = False) -> argparse.ArgumentParser:
    """The parser with `command` registered in full, or every command; with no (or an unknown) command, every
    command listed by name and help only, so their modules and what they import stay unloaded."""
    parser = _Parser(prog="conquista", description="Electronic referee for a physical conquest board.")
    parser.add_argument("--version", action="version", version=f"conquista {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    if command in COMMANDS and not every_command:
        # Running one command: the others' parsers (a dozen ArgumentParsers) would never be read.
        importlib.import_module(f"conquista.cli.{COMMANDS[command][0]}").register(subparsers)
        return parser
    for name, (module, help_text) in COMMANDS.items():
        if every_command:
            importlib.import_module(f"conquista.cli.{module}").register(subparsers)
        else:
            subparsers.add_parser(name, help=help_text, add_help=False)
    return parser


# Commands that say when their start-up is over (`start_up_done()`, at their first frame); the others run with the
# garbage collector from the moment their command line is parsed.
FIRST_FRAME_COMMANDS = frozenset({"play", "sim"})
_paused: list[bool] = []    # while main() holds the garbage collector for a start-up: [whether to freeze then]


def start_up_done() -> None:
    """The command's start-up is over (`play`, `sim`: their first frame is shown): the garbage collector runs again
    if main() held it. A start creates thousands of objects that live as long as the process (modules, classes,
    rulesets); the collector's passes over them while they are made were about 5 % of a board's start (issue 22).
    In a process started for the command they are then frozen (`gc.freeze`): the collector never walks them again,
    so its first passes do not slow the web app's start, nor a later full pass a tap."""
    if _paused:
        if _paused.pop():
            gc.freeze()
        _paused.clear()
        gc.enable()


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    if argv is None:
        from conquista.cli.program import started_as

        started_as(sys.argv[0])   # the commands it prints name it as it was started
    if gc.isenabled():
        gc.disable()
        # Frozen only for the process's own command line: a caller of main(argv) (the tests) keeps its garbage
        # collectable.
        _paused.append(argv is None)
    try:
        return _run(words)
    finally:
        start_up_done()


def _run(words: list[str]) -> int:
    command = command_in(words)
    parser = build_parser(command)
    args = parser.parse_args(words)
    if command not in FIRST_FRAME_COMMANDS:
        start_up_done()
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except ConquistaError as exc:
        from conquista.cli.program import as_typed, fitted

        sys.stderr.write(fitted(as_typed(str(exc)), sys.stderr, "conquista: error: ") + "\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("conquista: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
