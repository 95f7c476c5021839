"""The `conquista` command. Each subcommand lives in its own module with `register(subparsers)`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from conquista import __version__
from conquista.errors import ConquistaError
from conquista.errors import UsageError as UsageError  # raised by the command modules

# Modules under conquista.cli that each add one subcommand (in the order `--help` lists them).
COMMAND_MODULES = (
    "rules_cmd",
    "simulate_cmd",
    "replay_cmd",
    "games_cmd",
    "sim_cmd",
    "play_cmd",
    "odds_cmd",
    "dice_cmd",
    "link_cmd",
    "sim_mcu_cmd",
    "firmware_cmd",
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # One line on stderr and exit code 2, the same shape as every other user error.
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="conquista", description="Electronic referee for a physical conquest board.")
    parser.add_argument("--version", action="version", version=f"conquista {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(f"conquista.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except ConquistaError as exc:
        sys.stderr.write(f"conquista: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("conquista: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
