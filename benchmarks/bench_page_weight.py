"""The web app's page weight (issue 29): the bytes a browser transfers to load /board and a seat's page the first
time and on a reload, and the bytes of the WebSocket frames the board receives while a game is played.

Chromium (Playwright) against a simulated table served for real; the figures are what the network layer counted
(`encodedDataLength` of every response, headers included, as the browser's network panel shows them). A reload
that finds its static files still valid in the cache transfers only the 304 answers' headers.

    .venv/bin/python benchmarks/bench_page_weight.py
"""

from __future__ import annotations

import os
import sys
from itertools import pairwise
from typing import Any

from conquista.web.companion import Companion
from conquista.web.seats import SeatBook
from conquista.web.service import WebAddress, WebService
from conquista_sim.table import SimulatedTable

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def transferred(page: Any, url: str, reload: bool = False) -> tuple[int, int]:
    """Bytes over the network (responses, headers included) and the number of responses, for one load."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    sizes: dict[str, int] = {}
    cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
    if reload:
        page.reload(wait_until="networkidle")
    else:
        page.goto(url, wait_until="networkidle")
    page.wait_for_timeout(300)
    cdp.detach()
    return sum(sizes.values()), len(sizes)


def frames(page: Any, table: SimulatedTable, seconds: float) -> tuple[int, int]:
    """The WebSocket bytes and frames a board receives while bots play `seconds` of the game."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    got: list[int] = []
    cdp.on("Network.webSocketFrameReceived", lambda e: got.append(len(e["response"]["payloadData"])))
    table.advance(seconds)
    page.wait_for_timeout(500)
    cdp.detach()
    return sum(got), len(got)


def difference(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What a public view would send as a difference from the last one: the keys that changed, and of the
    territories only those that changed (by index)."""
    out: dict[str, Any] = {}
    for key, value in after.items():
        if key == "territories":
            changed = {i: t for i, t in enumerate(value) if before["territories"][i] != t}
            if changed:
                out[key] = changed
        elif before.get(key) != value:
            out[key] = value
    return out


def view_differences(seconds: float) -> tuple[int, int, int]:
    """Over `seconds` of a bots' game: the public views' bytes whole, and as differences (their count too)."""
    import json

    table = SimulatedTable("italian", 3, 9, frozenset({0, 1, 2}), think_time=0.2)
    companion = Companion(SeatBook(3, frozenset({0, 1, 2})))
    views: list[str] = []
    companion.send = lambda item: views.append(item.public) if hasattr(item, "public") else None
    table.add_phones(companion)
    table.advance(seconds)
    table.close()
    parsed = [json.loads(v) for v in views]
    whole = sum(len(v) for v in views[1:])
    diffs = sum(len(json.dumps(difference(a, b), separators=(",", ":"))) for a, b in pairwise(parsed))
    return whole, diffs, len(views) - 1


def main() -> int:
    whole, diffs, count = view_differences(60.0)
    print(f"public views in 60 s of a bots' game: {count} views, {whole / 1024:.1f} KB whole; as differences from "
          f"the last one {diffs / 1024:.1f} KB ({100 * (1 - diffs / max(1, whole)):.0f} % less; not sent so: an "
          "estimate)")
    if not os.access(CHROMIUM, os.X_OK):
        print(f"skipped: no Chromium at {CHROMIUM}")
        return 0
    from playwright.sync_api import sync_playwright

    table = SimulatedTable("italian", 3, 9, frozenset({0, 1, 2}), think_time=0.2)
    companion = Companion(SeatBook(3, frozenset({0, 1, 2})))
    table.add_phones(companion)
    with WebService(companion, WebAddress("127.0.0.1", 0, explicit=True)) as service, sync_playwright() as p:
        url = service.start()
        service.wait_ready()
        table.advance(0.1)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name, path in (("/board", "board"), ("a seat's page", "")):
            page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
            first, n_first = transferred(page, url + path)
            again, n_again = transferred(page, url + path, reload=True)
            print(f"{name:<14} first load {first / 1024:7.1f} KB ({n_first} responses)   "
                  f"reload {again / 1024:7.1f} KB ({n_again} responses)")
            if path == "board":
                total, count = frames(page, table, 60.0)
                print(f"{'':<14} 60 s of a bots' game: {count} WebSocket frames, {total / 1024:.1f} KB "
                      f"({total / max(1, count):.0f} B a frame)")
            page.context.close()
        browser.close()
    table.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
