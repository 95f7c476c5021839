"""The table's web app against issue 10's targets.

- 8 browsers connected (3 seated phones, 5 public screens, real WebSockets through uvicorn): a tap at the board
  reaches every connected view (public and private) in p99 ≤ 30 ms
- the board's own tap→frame p99 with the server no worse than 1.1× without it, measured in the same run
- the server adds ≤ 25 MB RSS and ≤ 0.2 s to start-up (fresh processes, with and without it)
- issues 20 and 40: with 8 public boards open in Chromium (the world map), a tap is redrawn on every one in p99 ≤
  30 ms (issue 20 asked 50): tap → the end of the main thread's work on the next animation frame after the page
  changed the territory's count, over 200 taps, inputs 0.15 s apart; skipped without Chromium

    python benchmarks/bench_web.py            # everything
    python benchmarks/bench_web.py --redraw   # only the 8 Chromium boards (about a minute)
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from conquista.rules.events import Phase
from conquista.web.companion import Companion
from conquista.web.seats import SeatBook
from conquista.web.service import WebAddress, WebService
from conquista_sim import SimulatedTable

CLIENTS = 8
SEATED = 3
TAPS = 200          # per round: taps that place armies (NEXT moves on when none are left to place)
ROUNDS = 3
START = """
import resource, sys, time
t0 = time.perf_counter()
from conquista_sim import SimulatedTable
table = SimulatedTable("italian", 3, seed=1)
if sys.argv[1] == "web":
    from conquista.web.companion import Companion
    from conquista.web.seats import SeatBook
    from conquista.web.service import WebAddress, WebService
    companion = Companion(SeatBook(3))
    service = WebService(companion, WebAddress("127.0.0.1", 0, explicit=True))
    service.start()
    table.add_phones(companion)
table.advance(0.1)
first_frame = time.perf_counter() - t0
ready = first_frame
if sys.argv[1] == "web":
    service.wait_ready()
    ready = time.perf_counter() - t0
try:  # this process's own peak (ru_maxrss would include the parent's, which forked it)
    with open("/proc/self/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
except OSError:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(first_frame, ready, peak)
if sys.argv[1] == "web":
    service.stop()
"""


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


class Clients:
    """8 WebSocket clients in a process of their own (as browsers are), on one event loop, noting when each view
    of each version arrives (perf_counter is the system's monotonic clock, shared by both processes)."""

    def __init__(self, port: int, tokens: list[str]) -> None:
        self.port = port
        self.tokens = tokens
        # (client, view kind) → (version, arrival) in order; a client may skip a version that a newer one replaced
        self.arrivals: dict[tuple[int, str], list[tuple[int, float]]] = defaultdict(list)
        self.stop = False

    async def _client(self, number: int, token: str | None, connected: list[int]) -> None:
        from websockets.asyncio.client import connect

        async with connect(f"ws://127.0.0.1:{self.port}/ws", origin=f"http://127.0.0.1:{self.port}",  # type: ignore[arg-type]
                           compression=None) as ws:
            await ws.send(json.dumps({"type": "hello", **({"token": token} if token else {})}))
            connected.append(1)
            while not self.stop:
                try:
                    text = await asyncio.wait_for(ws.recv(), 0.2)
                except TimeoutError:
                    continue
                arrived = time.perf_counter()
                frame = json.loads(text)
                if frame["type"] in ("public", "seat"):
                    self.arrivals[number, frame["type"]].append((frame["view"]["version"], arrived))

    async def run(self) -> None:
        connected: list[int] = []
        tasks = [asyncio.create_task(self._client(i, self.tokens[i] if i < len(self.tokens) else None,
                                                  connected)) for i in range(CLIENTS)]
        while len(connected) < CLIENTS:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)   # the bench says stop
        self.stop = True
        await asyncio.gather(*tasks)
        print(json.dumps([[k[0], k[1], v] for k, v in self.arrivals.items()]), flush=True)


def reached(arrivals: list[list[Any]], version: int) -> list[float]:
    """When each view first showed `version` or a newer one."""
    return [next((when for v, when in seen if v >= version), float("inf")) for _client, _kind, seen in arrivals]


def next_move(table: SimulatedTable) -> tuple[str, str]:
    game = table.game
    if game.phase in (Phase.SETUP, Phase.REINFORCE) and game.pool:
        return "tap", game.map.id(game.owner.index(game.current))
    return "press", "next"


def frame_latencies(table: SimulatedTable, taps: int) -> list[float]:
    """Tap → the frame on the strip, for taps that place an army."""
    shown: list[float] = []
    strip_show = table.board.strip.show

    def timed_show(frame: bytearray) -> None:
        strip_show(frame)
        shown.append(time.perf_counter())

    table.board.strip.show = timed_show  # type: ignore[method-assign]
    out = []
    while len(out) < taps and not table.game.over:
        kind, what = next_move(table)
        if kind == "press":
            table.press(what)
            continue
        shown.clear()
        started = time.perf_counter()
        table.tap(what)
        out.append(shown[-1] - started)
        time.sleep(0.02)   # paced as in the run with the server
    table.board.strip.show = strip_show  # type: ignore[method-assign]
    return out


def web_run() -> tuple[list[float], list[float], int]:
    table = SimulatedTable("italian", 3, seed=9)
    companion = Companion(SeatBook(3))
    table.add_phones(companion)
    with WebService(companion, WebAddress("127.0.0.1", 0, explicit=True)) as service:
        service.start()
        service.wait_ready()
        tokens = [companion.seats.grant(seat).token for seat in range(SEATED)]
        table.advance(0.1)
        clients = subprocess.Popen([sys.executable, __file__, "--clients", str(service.port), *tokens],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert clients.stdin is not None and clients.stdout is not None
        if clients.stdout.readline().strip() != "ready":
            raise SystemExit("the 8 clients did not connect")
        views = SEATED + CLIENTS              # every client's public view, and the seated phones' own views
        sent: dict[int, float] = {}
        frames = []
        while len(sent) < TAPS and not table.game.over:
            kind, what = next_move(table)
            if kind == "press":
                table.press(what)
                continue
            started = time.perf_counter()
            frames += frame_latencies_one(table, what, started)
            latest = companion.latest
            assert latest is not None
            sent[latest.version] = started
            time.sleep(0.02)                  # one pass of the board's loop; a person taps far slower
        time.sleep(0.5)
        clients.stdin.write("stop\n")
        clients.stdin.flush()
        arrivals = json.loads(clients.stdout.readline())
        clients.wait(10)
    table.close()
    latencies = []
    incomplete = 0
    for version, started in sent.items():
        times = reached(arrivals, version)
        if len(times) < views or max(times) == float("inf"):
            incomplete += 1
            continue
        latencies.append(max(times) - started)
    return latencies, frames, incomplete


def frame_latencies_one(table: SimulatedTable, territory_id: str, started: float) -> list[float]:
    shown: list[float] = []
    strip_show = table.board.strip.show

    def timed_show(frame: bytearray) -> None:
        strip_show(frame)
        shown.append(time.perf_counter())

    table.board.strip.show = timed_show  # type: ignore[method-assign]
    try:
        table.tap(territory_id)
    finally:
        table.board.strip.show = strip_show  # type: ignore[method-assign]
    return [shown[-1] - started]


CHROMIUM = "/usr/bin/chromium"
REDRAW_TAPS = 200   # p99 of 60 taps was their slowest: one late frame in 60 decided it
# Between one input and the next (a tap, or NEXT when a turn's armies are all placed): faster than anyone taps a
# board. The pages draw the words beside the map 40 ms after the count (board.js); at 0.1 s after NEXT, as before,
# the tap after it met the 8 pages' words for NEXT still being drawn (the note of issue 40 gives both).
INPUT_GAP_S = 0.15
# Each page notes, per territory, when it first painted a change to its count: the end of the main thread's part of
# the next animation frame after the DOM changed (style, layout, paint and the hand-over to the compositor, all done
# before a task posted from the frame's callback runs), so work the page does in that frame counts. Epoch
# milliseconds, as the bench's clock.
PAINTED = """
window.__painted = {};
new MutationObserver((records) => {
  const ids = new Set();
  for (const r of records) {
    const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    const badge = node && node.closest && node.closest('[data-id]');
    if (badge) ids.add(badge.dataset.id);
    for (const added of r.addedNodes) if (added.dataset && added.dataset.id) ids.add(added.dataset.id);
  }
  if (ids.size) requestAnimationFrame(() => {
    const after = new MessageChannel();
    after.port1.onmessage = () => {
      const now = performance.timeOrigin + performance.now();
      for (const id of ids) window.__painted[id] = now;
    };
    after.port2.postMessage(null);
  });
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def browser_redraws() -> list[float] | None:
    """Tap → every one of 8 public boards in Chromium has painted the new count; None without Chromium."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not os.access(CHROMIUM, os.X_OK):
        return None
    table = SimulatedTable("italian", 3, seed=9)
    companion = Companion(SeatBook(3))
    table.add_phones(companion)
    out: list[float] = []
    with WebService(companion, WebAddress("127.0.0.1", 0, explicit=True)) as service, sync_playwright() as p:
        url = service.start()
        service.wait_ready()
        table.advance(0.1)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        pages = []
        for _ in range(CLIENTS):
            page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
            page.add_init_script(PAINTED)
            page.goto(url + "board")
            page.wait_for_function("() => document.querySelectorAll('[data-id] .armies').length > 0")
            pages.append(page)
        time.sleep(0.5)
        while len(out) < REDRAW_TAPS and not table.game.over:
            kind, what = next_move(table)
            if kind == "press":   # NEXT, paced as a tap: an input INPUT_GAP_S after the last one
                table.press(what)
                time.sleep(INPUT_GAP_S)
                continue
            started = time.time() * 1000
            table.tap(what)
            # The pages note the time themselves, so they are read once they are done: asking them while they draw
            # (a poll every frame on each page, 16 DevTools calls a tap) loaded the 2 cores the pages draw on.
            time.sleep(INPUT_GAP_S)
            painted = []
            for page in pages:
                when = page.evaluate("([id, t]) => ((window.__painted[id] || 0) > t ? window.__painted[id] : null)",
                                     [what, started])
                if when is None:   # not yet: wait for it (a page that never paints fails the run after 5 s)
                    page.wait_for_function("([id, t]) => (window.__painted[id] || 0) > t", arg=[what, started],
                                           timeout=5000)
                    when = page.evaluate("id => window.__painted[id]", what)
                painted.append(when)
            out.append((max(painted) - started) / 1000)
        browser.close()
    table.close()
    return out


def main(redraw_only: bool = False) -> int:
    missed = []

    def report(name: str, value: float, unit: str, limit: float, note: str = "") -> None:
        ok = value <= limit
        missed.extend([] if ok else [name])
        print(f"{name:<34} {value:8.3f} {unit:<3} target ≤ {limit} {unit}   {'ok' if ok else 'MISSED'}  {note}")

    if redraw_only:
        return redraw_report(report, missed)
    runs: dict[str, list[tuple[float, float, float]]] = {"plain": [], "web": []}
    for _ in range(5):   # interleaved, best of 5: other work on the machine only ever slows a run
        for mode in runs:
            out = subprocess.run([sys.executable, "-c", START, mode], check=True, capture_output=True, text=True)
            first, ready, rss = (float(x) for x in out.stdout.split())
            runs[mode].append((first, ready, rss))
    plain = min(runs["plain"])
    web = min(runs["web"])
    # Rounds without and with the server interleaved, pooled: load from other work on the machine falls on both.
    alone: list[float] = []
    latencies: list[float] = []
    with_web: list[float] = []
    incomplete = 0
    for _ in range(ROUNDS):
        with SimulatedTable("italian", 3, seed=9) as table:
            table.advance(0.1)
            alone += frame_latencies(table, TAPS)
        views, frames, missing = web_run()
        latencies += views
        with_web += frames
        incomplete += missing
    report("tap→every view p99 (8 clients)", p99(latencies) * 1000, "ms", 30.0,
           f"(p50 {statistics.median(latencies) * 1000:.2f} ms, {len(latencies)} taps, {incomplete} incomplete)")
    ratio = p99(with_web) / p99(alone)
    report("board tap→frame p99, web/alone", ratio, "×", 1.1,
           f"({p99(with_web) * 1000:.3f} ms with the server, {p99(alone) * 1000:.3f} ms without)")
    report("start-up added (to the first frame)", web[0] - plain[0], "s", 0.2,
           f"({plain[0]:.3f} s → {web[0]:.3f} s, best of 5; the server accepts phones at {web[1]:.3f} s)")
    report("RSS added by the server", web[2] - plain[2], "MB", 25.0, f"({plain[2]:.1f} MB → {web[2]:.1f} MB)")
    redraw_report(report, missed)
    return 1 if missed or incomplete else 0


def redraw_report(report: Callable[..., None], missed: list[str]) -> int:
    redraws = browser_redraws()
    if redraws is None:
        print(f"{'tap→8 boards redrawn (Chromium)':<34} skipped: no Chromium at {CHROMIUM} or no playwright")
    else:
        # The machine's load goes with the figure: 8 browsers on a shared 2-core machine feel every other job.
        # Issue 20 asked for 50 ms; issue 40 for 30 ms.
        report("tap→8 boards redrawn p99", p99(redraws) * 1000, "ms", 30.0,
               f"(p50 {statistics.median(redraws) * 1000:.1f} ms, slowest {max(redraws) * 1000:.1f} ms, "
               f"{len(redraws)} taps, 8 Chromium pages, load average {os.getloadavg()[0]:.2f} on "
               f"{os.cpu_count()} CPUs)")
    return 1 if missed else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--clients"]:
        asyncio.run(Clients(int(sys.argv[2]), sys.argv[3:]).run())
        sys.exit(0)
    sys.exit(main(redraw_only=sys.argv[1:2] == ["--redraw"]))
