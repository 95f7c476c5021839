"""The calibration's page: a phone at the board follows `conquista board calibrate` (the question, what was read,
what is left, the errors, the end) and may press NEXT or CANCEL from afar.

The calibration runs on its own thread and publishes its view (`CalibrationFeed.publish`, thread-safe); the page
gets each view over a WebSocket, or by polling `/api/calibration` when it has none. A phone's button only queues a
command (`CalibrationFeed.commands`), which the calibration takes like a press of the board's button: the server
never changes the calibration.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import threading
from collections.abc import AsyncIterator
from typing import Any

from conquista.web.service import WebAddress, WebService

COMMANDS = ("next", "cancel")
MAX_QUEUED = 32           # commands not yet taken: a phone that taps faster than the board reads is refused
MAX_TEXT = 200            # a command's frame is tiny; anything longer is not one


class CalibrationFeed:
    """Between the calibration's thread (views out, commands in) and the server's event loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest = '{"phase": "starting"}'
        self._version = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watchers: set[asyncio.Event] = set()     # one per open page, touched on the event loop only
        self._commands: queue.Queue[str] = queue.Queue(maxsize=MAX_QUEUED)

    # -- the calibration's side (any thread) -------------------------------------------------------------------

    def publish(self, view: dict[str, Any]) -> None:
        text = json.dumps(view)
        with self._lock:
            self._latest, self._version = text, self._version + 1
            loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake)

    def commands(self) -> list[str]:
        """The phones' commands since the last call, in order."""
        out: list[str] = []
        while True:
            try:
                out.append(self._commands.get_nowait())
            except queue.Empty:
                return out

    # -- the server's side -------------------------------------------------------------------------------------

    def latest(self) -> tuple[int, str]:
        with self._lock:
            return self._version, self._latest

    def press(self, command: str) -> str:
        """Queue a phone's command; the reason it is refused, or ''."""
        if command not in COMMANDS:
            return f"unknown command {command[:40]!r}: use {' or '.join(COMMANDS)}"
        try:
            self._commands.put_nowait(command)
        except queue.Full:
            return "too many presses at once: wait for the board"
        return ""

    def attach(self, loop: asyncio.AbstractEventLoop | None) -> None:
        with self._lock:
            self._loop = loop

    def watch(self) -> asyncio.Event:
        """An event set at each new view, for one page (on the event loop)."""
        event = asyncio.Event()
        self._watchers.add(event)
        return event

    def unwatch(self, event: asyncio.Event) -> None:
        self._watchers.discard(event)

    def _wake(self) -> None:
        for event in self._watchers:
            event.set()


def create_calibration_app(feed: CalibrationFeed, allowed_hosts: list[str]) -> Any:
    """The page, its live view (`/ws`), the same view for polling (`/api/calibration`) and the shared stylesheet."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocket

    from conquista.web.server import SecurityHeaders, _static

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        feed.attach(asyncio.get_running_loop())
        yield
        feed.attach(None)

    async def page(_request: Request) -> Response:
        return FileResponse(_static("calibrate.html"), media_type="text/html")

    async def favicon(_request: Request) -> Response:
        return FileResponse(_static("favicon.svg"), media_type="image/svg+xml")

    async def view(_request: Request) -> Response:
        return Response(feed.latest()[1], media_type="application/json")

    async def press(request: Request) -> Response:
        from conquista.web.server import same_origin

        if not same_origin(request.headers):
            return JSONResponse({"error": "a press must come from this page"}, status_code=403)
        body = await request.body()
        command = body.decode("utf-8", "replace").strip()[:MAX_TEXT]
        refused = feed.press(command)
        return JSONResponse({"error": refused} if refused else {"ok": True}, status_code=400 if refused else 200)

    async def socket(ws: WebSocket) -> None:
        await _live(feed, ws)

    routes = [Route("/", page), Route("/favicon.ico", favicon), Route("/api/calibration", view),
              Route("/api/press", press, methods=["POST"]), WebSocketRoute("/ws", socket),
              Mount("/static", StaticFiles(directory=_static("")), name="static")]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts), Middleware(SecurityHeaders)]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)


async def _live(feed: CalibrationFeed, ws: Any) -> None:
    """Send the newest view at once and then each newer one; the page speaks only to close (its presses POST)."""
    from conquista.web.server import POLICY_VIOLATION, same_origin

    if not same_origin(ws.headers):
        await ws.close(code=POLICY_VIOLATION)
        return
    await ws.accept()

    async def until_closed() -> None:
        while (await ws.receive())["type"] != "websocket.disconnect":
            pass

    closed = asyncio.create_task(until_closed())
    changed = feed.watch()
    sent = -1
    try:
        while not closed.done():
            version, text = feed.latest()
            if version != sent:
                await ws.send_text(text)
                sent = version
            woken = asyncio.create_task(changed.wait())
            await asyncio.wait({woken, closed}, return_when=asyncio.FIRST_COMPLETED)
            woken.cancel()
            changed.clear()
    except Exception:   # the page went away while a view was on its way
        return
    finally:
        feed.unwatch(changed)
        closed.cancel()


class CalibrationService(WebService):
    """The calibration's page served in a thread, as `play` serves the table's web app (same port rules, same
    address printed with its QR code)."""

    def __init__(self, feed: CalibrationFeed, address: WebAddress, sock: Any = None) -> None:
        super().__init__(None, address, sock)
        self.feed = feed

    def _app(self) -> Any:
        return create_calibration_app(self.feed, self.hosts)
