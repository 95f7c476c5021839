"""How much product code one input runs (issue 36): the calls into `conquista` (host/conquista), the files they
are in, and how many times the table's status and the router's `route` run, for

- one tap at the board: a placement through the runner as the board's loop takes it (gesture → referee → effects
  routed → scene → frame on the strip), and
- one tap from a phone: the seat's message checked and queued by the server, taken by the companion on the board's loop
  (referee, routing) and every view built and serialised for three seated phones (the public view, each seat's
  own, the host's).

Counted with `sys.setprofile` over Python functions whose code lives under host/conquista (C functions, the
standard library and the simulator are not counted), so the figure is the same on every machine: it is a count,
not a time. Run: `.venv/bin/python benchmarks/bench_calls.py` (prints both figures; `--json` for one line of
JSON).
"""

from __future__ import annotations

import collections
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

PRODUCT = str(Path(__file__).resolve().parents[1] / "host" / "conquista")
# Runs counted apart: the status worked out in words (its one home, table/referee_lights.py; the methods and
# properties that hand it on are not counted again), and every `route` (the router's, the runner's, the phones').
WATCHED = {"status": "status()", "route": "route"}
COUNTED_AT = {"status": "referee_lights.py"}


def count_calls(work: Callable[[], None]) -> dict[str, Any]:
    """Run `work` once under a profile hook; the calls into product code, their files, the watched names."""
    calls = 0
    files: collections.Counter[str] = collections.Counter()
    watched: collections.Counter[str] = collections.Counter()

    def hook(frame: FrameType, event: str, _arg: object) -> None:
        nonlocal calls
        if event != "call":
            return
        code = frame.f_code
        path = code.co_filename
        if not path.startswith(PRODUCT):
            return
        calls += 1
        files[path] += 1
        name = code.co_name
        if name in WATCHED and path.endswith(COUNTED_AT.get(name, "")):
            watched[WATCHED[name]] += 1

    sys.setprofile(hook)
    try:
        work()
    finally:
        sys.setprofile(None)
    return {"calls": calls, "files": len(files), **{label: watched[label] for label in WATCHED.values()}}


def board_tap() -> dict[str, Any]:
    """One placement tapped at the board (press, rest, release), to its frame on the strip."""
    import random

    from conquista.app.build import build_table
    from conquista.devices.events import Edge, SensorEvent
    from conquista.dice.chance import new_game
    from conquista.dice.sources import SeededDice
    from conquista.hardware.profile import load_profile
    from conquista.rules.mapdata import load_map
    from conquista.rules.rulesets import load_ruleset
    from conquista.table.dealt import NewlyDealt
    from conquista_sim.devices import MemoryStrip

    game_map = load_map()
    profile = load_profile(None, game_map)
    game = new_game(load_ruleset("classic"), game_map, 3, random.Random(4))
    strip = MemoryStrip.from_profile(profile)
    table = build_table(game, profile, SeededDice(seed=4), strip)
    table.referee.dealt = NewlyDealt()   # nothing blinks
    runner = table.runner
    mine = game.owner.index(game.current)
    now = 1.0
    for _ in range(2):   # warm: the first taps import and cache what every later tap finds ready
        runner.on_sensor(SensorEvent(mine, Edge.PRESS, now))
        runner.on_sensor(SensorEvent(mine, Edge.RELEASE, now + 0.05))
        runner.advance(now + 0.06)
        runner.show_pass(now + 0.06)
        now += 1.0
    placed = len(game.log)
    runner.on_sensor(SensorEvent(mine, Edge.PRESS, now))

    def release() -> None:   # as the board loop's pass takes it: the input, time passing, the frame
        runner.on_sensor(SensorEvent(mine, Edge.RELEASE, now + 0.05))
        runner.advance(now + 0.06)
        runner.show_pass(now + 0.06)

    figures = count_calls(release)
    assert len(game.log) == placed + 1, "the measured tap placed nothing"
    return figures


def phone_tap() -> dict[str, Any]:
    """One placement tapped on the phone of the seat to move, with three seated phones, to every view built."""
    from tests.web.helpers import make_board, seat_phone

    from conquista.table.gestures import Tap
    from conquista.web.messages import parse, to_command
    from conquista.web.wire import SeatGesture

    board = make_board(3)
    for seat in range(3):
        seat_phone(board, seat, connection=seat + 1)
    game = board.referee.game
    for _ in range(2):   # warm, as at the board
        seat = game.current
        board.companion.submit(SeatGesture(seat, Tap(game.owner.index(seat))))
        board.step()
    seat = game.current
    placed = len(game.log)
    companion = board.companion
    text = json.dumps({"type": "tap", "territory": game.map.id(game.owner.index(seat))})

    def tapped() -> None:   # the server's part (the message checked, queued), then the board loop's
        companion.submit(to_command(parse(text), seat + 1, seat, companion.host_seat, companion.territory_ids))
        board.step()

    figures = count_calls(tapped)
    assert len(game.log) == placed + 1, "the measured phone tap placed nothing"
    return figures


def main(argv: list[str]) -> int:
    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)   # tests.web.helpers builds the phone's board
    figures = {"board tap": board_tap(), "phone tap": phone_tap()}
    if "--json" in argv:
        print(json.dumps(figures))
        return 0
    for name, got in figures.items():
        print(f"{name}: {got['calls']} calls into product code in {got['files']} files; "
              f"status() {got['status()']} times, route {got['route']} times")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
