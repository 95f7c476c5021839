"""`conquista sim-mcu --listen 127.0.0.1:PORT`: the firmware's own modules on a simulated Pico, served on loopback.

Reads `press N`, `release N`, `bounce N` (and `tap N`, `quit`) on stdin; N is a key index (row * cols + col).
"""

from __future__ import annotations

import argparse
import sys

from conquista.errors import ConquistaError, SimMcuUsageError
from conquista_sim.pico import SimulatedPico

# hardware/PROTOCOL.md: HELLO and CONFIG carry the debounce in one byte, and 0 would report every bounce.
DEBOUNCE_MS_RANGE = range(1, 256)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("sim-mcu", help="run the Pico firmware on a simulated board, served on loopback")
    p.add_argument("--listen", default="127.0.0.1:0", help="HOST:PORT on loopback (port 0: any free port)")
    p.add_argument("--rows", type=int, default=6)
    p.add_argument("--cols", type=int, default=7)
    p.add_argument("--debounce", type=int, default=10, metavar="MS",
                   help="debounce in ms, 1..255 as the protocol carries it (default 10)")
    p.set_defaults(handler=run)


def parse_listen(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise SimMcuUsageError(f"--listen {text!r}: expected HOST:PORT, e.g. 127.0.0.1:7000")
    return host.strip("[]"), int(port)


def run(args: argparse.Namespace) -> int:
    host, port = parse_listen(args.listen)
    if not (1 <= args.rows and 1 <= args.cols and args.rows * args.cols <= 128):
        raise SimMcuUsageError(f"a {args.rows} x {args.cols} matrix: rows and cols must be >= 1, at most 128 keys")
    if args.debounce not in DEBOUNCE_MS_RANGE:
        raise SimMcuUsageError(f"--debounce {args.debounce}: the debounce is 1..255 ms (the protocol sends it in one "
                               "byte); e.g. --debounce 10")
    pico = SimulatedPico(host, port, rows=args.rows, cols=args.cols, debounce_ms=args.debounce)
    with pico:
        print(
            f"simulated Pico on {pico.url} ({args.rows} x {args.cols} keys); commands: press N, release N, "
            "bounce N, tap N, quit",
            flush=True,
        )
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] in ("quit", "exit"):
                break
            if len(words) != 2 or not words[1].isdigit() or words[0] not in ("press", "release", "bounce", "tap"):
                print(
                    f"sim-mcu: cannot understand {line.strip()!r}: use press N, release N, bounce N, tap N",
                    file=sys.stderr,
                    flush=True,
                )
                continue
            key = int(words[1])
            try:
                if words[0] == "tap":
                    pico.press(key)
                    pico._schedule([(60, key, 0)])
                else:
                    getattr(pico, words[0])(key)
            except ConquistaError as exc:
                print(f"sim-mcu: {exc}", file=sys.stderr, flush=True)
    return 0
