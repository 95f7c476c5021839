"""What a television showing /board receives (issue 40), or with --phone a phone showing seat 0's private view:
the WebSocket bytes and frames over 60 s of a bots' game played in real time, as the browser's network layer counts
them (each frame's payload), with how many of them were whole views and how many differences from the last one;
and, with --redraw, the tap→8 boards redrawn p99 (bench_web's measure, alone).

Real time, not simulated: the server keeps only the newest view for a screen that has not read the last one yet,
so a game advanced faster than it is played would send fewer frames than a table does.

    nice -n 10 .venv/bin/python benchmarks/bench_tv_bytes.py [seconds] [--redraw] [--phone [--whole]]

--phone: the phone (390×844) of seat 0 (a bot plays it; its private view is sent all the same) instead of the TV;
--whole: patch.js refused to the page, so it asks for whole views (the phone before issue 40's differences).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from typing import Any

from conquista.web.companion import Companion
from conquista.web.seats import SeatBook
from conquista.web.service import WebAddress, WebService
from conquista_sim.table import SimulatedTable

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
STEP_S = 0.05


def tv_bytes(seconds: float, phone: bool = False, whole: bool = False) -> dict[str, Any]:
    """A bots' game (4 bots, italian) played in real time for `seconds` while one TV page (1920×1080) watches, or
    seat 0's phone (390×844); `whole`: without patch.js, so the page takes every view whole."""
    from playwright.sync_api import sync_playwright

    bots = frozenset({0, 1, 2, 3})
    table = SimulatedTable("italian", 4, 9, bots, think_time=0.3)
    companion = Companion(SeatBook(4, bots))
    table.add_phones(companion)
    got: list[str] = []
    with WebService(companion, WebAddress("127.0.0.1", 0, explicit=True)) as service, sync_playwright() as p:
        url = service.start()
        service.wait_ready()
        table.advance(0.1)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        size = {"width": 390, "height": 844} if phone else {"width": 1920, "height": 1080}
        page = browser.new_context(viewport=size).new_page()
        if whole:
            page.route("**/static/patch.js", lambda route: route.abort())
        if phone:
            page.goto(url + f"#t={companion.seats.grant(0).token}", wait_until="networkidle")
            page.wait_for_selector("#title .swatch")
        else:
            page.goto(url + "board", wait_until="networkidle")
            page.wait_for_selector(".badge .armies")
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.webSocketFrameReceived", lambda e: got.append(e["response"]["payloadData"]))
        end = time.monotonic() + seconds
        while time.monotonic() < end and not table.game.over:
            table.advance(STEP_S)
            time.sleep(STEP_S)
        page.wait_for_timeout(500)
        cdp.detach()
        browser.close()
    table.close()
    kinds: dict[str, list[int]] = {}
    for payload in got:
        kind = str(json.loads(payload).get("type"))
        kinds.setdefault(kind, []).append(len(payload.encode()))
    return {"bytes": sum(len(p.encode()) for p in got), "frames": len(got), "kinds": kinds}


def main() -> int:
    if not os.access(CHROMIUM, os.X_OK):
        print(f"skipped: no Chromium at {CHROMIUM}")
        return 0
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    seconds = float(args[0]) if args else 60.0
    phone, whole = "--phone" in sys.argv, "--whole" in sys.argv
    out = tv_bytes(seconds, phone, whole)
    screen = ("seat 0's phone" if phone else "a TV") + (" (views whole)" if whole else "")
    print(f"{screen} over {seconds:.0f} s of a 4-bot game: {out['bytes'] / 1024:.1f} KiB in {out['frames']} frames "
          f"({out['bytes'] / max(1, out['frames']):.0f} B a frame)")
    for kind, sizes in sorted(out["kinds"].items()):
        print(f"  {kind:<12} {len(sizes):5} frames {sum(sizes) / 1024:8.1f} KiB  mean {statistics.mean(sizes):6.0f} B"
              f"  max {max(sizes)} B")
    if "--redraw" in sys.argv:
        sys.path.insert(0, os.path.dirname(__file__))
        from bench_web import browser_redraws, p99

        redraws = browser_redraws()
        if redraws:
            print(f"tap→8 boards redrawn p99 {p99(redraws) * 1000:.1f} ms (p50 {statistics.median(redraws) * 1000:.1f}"
                  f" ms, {len(redraws)} taps, load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
