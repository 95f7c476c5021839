"""`conquista link monitor [URL] [--json]`: print every event of the Pico link and its counters.

The tool a board builder uses to check wiring: press each territory and watch its key index, row and column.
"""

from __future__ import annotations

import argparse
import json
import time

from conquista.cli.common import number_in
from conquista.link.session import HealthEvent, KeyEvent, LinkCounters, LinkEvent
from conquista.link.source import SerialSensorSource


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("link", help="inspect the serial link to the Pico")
    sub = p.add_subparsers(dest="link_command", metavar="ACTION", required=True)
    m = sub.add_parser("monitor", help="print each key event and the link counters")
    m.add_argument(
        "url",
        nargs="?",
        help="a device path, socket://HOST:PORT or loop://; default: find the Pico by its USB id",
    )
    m.add_argument("--json", action="store_true", help="one JSON object a line")
    m.add_argument("--duration", type=number_in(0.01, 1e7), default=None,
                   help="stop after this many seconds (default: never)")
    m.add_argument("--counters-every", type=number_in(0.1, 86400.0), default=5.0,
                   help="print the counters this often (s, 0.1..86400; default 5)")
    m.set_defaults(handler=run)


def _event_dict(event: LinkEvent, cols: int | None) -> dict[str, object]:
    if isinstance(event, KeyEvent):
        d: dict[str, object] = {"event": "key", "key": event.key}
        if cols:
            d["row"], d["col"] = divmod(event.key, cols)
        d.update(pressed=event.pressed, origin=event.origin.value, fw_ms=event.fw_ms, seq=event.seq, t=event.host_time)
        return d
    assert isinstance(event, HealthEvent)
    return {"event": "health", "health": event.health.value, "reason": event.reason, "t": event.host_time}


def _print_event(event: LinkEvent, cols: int | None, as_json: bool) -> None:
    d = _event_dict(event, cols)
    if as_json:
        print(json.dumps(d), flush=True)
    elif d["event"] == "key":
        where = f" (row {d['row']}, col {d['col']})" if "row" in d else ""
        state = "down" if d["pressed"] else "up"
        print(f"key {d['key']:>3}{where} {state:<4} {d['origin']:<8} fw {d['fw_ms']} ms", flush=True)
    else:
        print(f"link {d['health']}: {d['reason']}", flush=True)


def _print_counters(counters: LinkCounters, as_json: bool) -> None:
    c = counters.as_dict()
    if as_json:
        print(json.dumps({"event": "counters", **c}), flush=True)
    else:
        print("counters: " + ", ".join(f"{k} {v}" for k, v in c.items() if v or k == "frames"), flush=True)


def run(args: argparse.Namespace) -> int:
    sensors = SerialSensorSource(args.url)
    sensors.start()  # a LinkError names the port and what to do; main() prints it
    try:
        hello = sensors.firmware
        if hello is not None and not args.json:
            v = ".".join(map(str, hello.firmware_version))
            print(
                f"{sensors.port}: firmware {v}, {hello.rows} x {hello.cols} keys, debounce {hello.debounce_ms} ms",
                flush=True,
            )
        cols = hello.cols if hello is not None else None
        start = time.monotonic()
        next_counters = start + args.counters_every
        while args.duration is None or time.monotonic() - start < args.duration:
            event = sensors.get(timeout=0.05)
            if event is not None:
                _print_event(event, cols, args.json)
            if time.monotonic() >= next_counters:
                _print_counters(sensors.counters(), args.json)
                next_counters += args.counters_every
        for event in sensors.drain():
            _print_event(event, cols, args.json)
    finally:
        counters = sensors.counters()
        sensors.close()
    _print_counters(counters, args.json)
    return 0
