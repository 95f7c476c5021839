"""`--web [HOST:]PORT` / `--no-web` for `play` and `sim`, and starting the table's web app for them."""

from __future__ import annotations

import argparse
import socket
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from conquista.app.host_setup import HostSetUp
    from conquista.web.companion import Companion
    from conquista.web.service import WebAddress, WebService


def add_web_options(p: argparse.ArgumentParser, where: str,
                    what: str = "serve the table's web app (phones, the public board)") -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--web", metavar="[HOST:]PORT", help=f"{what} there (default: {where})")
    group.add_argument("--no-web", action="store_true", help="do not serve the web app")


def reserve_web(args: argparse.Namespace, *, default_host: str) -> tuple[WebAddress, socket.socket]:
    """The address `--web` asks for, bound now: a busy port is a one-line error before the board starts, while
    the web app itself (its imports, its thread) can wait until the first frame is shown."""
    from conquista.web.service import DEFAULT_PORT, WebAddress, bind, parse_web_address

    address = (parse_web_address(args.web, default_host) if args.web
               else WebAddress(default_host, DEFAULT_PORT, explicit=False))
    return address, bind(address)


def start_web(args: argparse.Namespace, *, default_host: str, players: int, bots: frozenset[int],
              out: TextIO | None, set_up: HostSetUp | None = None,
              reserved: tuple[WebAddress, socket.socket] | None = None) -> tuple[WebService, Companion]:
    """Start the server in a thread and print its join URL with the QR code phones scan. With `set_up` (a game not
    set up on the command line) the first seat granted is the host, whose phone sets up games through it.
    `reserved`: what `reserve_web` bound before. `out=None`: nothing printed; the caller prints
    `join_text(service.url)` when it chooses."""
    from conquista.bots.roster import DEFAULT_BOT
    from conquista.web.companion import Companion
    from conquista.web.seats import SeatBook
    from conquista.web.service import WebService

    address, sock = reserved if reserved is not None else reserve_web(args, default_host=default_host)
    companion = Companion(SeatBook(players, bots, first_seat_hosts=set_up is not None), new_game=set_up,
                          saved_games=set_up.saved if set_up is not None else tuple,
                          bot_kinds=dict.fromkeys(bots, DEFAULT_BOT))
    service = WebService(companion, address, sock)
    url = service.start()
    if out is not None:
        out.write(join_text(url))
        out.flush()
    return service, companion


def join_text(url: str) -> str:
    """The join URL, the public board's, and the QR code phones scan."""
    from conquista.web.service import qr_text

    return f"join from a phone: {url}   (the public board: {url}board)\n{qr_text(url)}"
