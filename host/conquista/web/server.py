"""The Starlette app: pages, the public JSON view, and one WebSocket per screen.

Everything here runs on the server's event loop. Snapshots and claim answers arrive from the board's loop through
`Hub.deliver` (thread-safe, `call_soon_threadsafe`); phone commands leave through `Companion.submit`. A connection
is public until its first message carries a valid seat token; it then also receives that seat's private view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from importlib import resources
from itertools import count
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.websockets import WebSocket

from conquista.errors import BadMessage
from conquista.table.seat_claims import ClaimState
from conquista.web.companion import Companion
from conquista.web.messages import keys, parse, to_command
from conquista.web.qr import qr_svg
from conquista.web.view_diff import diff_between
from conquista.web.wire import (
    ClaimSeat,
    HintAnswer,
    Outgoing,
    Refusal,
    ScreenClosed,
    SeatNotice,
    Snapshot,
    Unseated,
)

HELLO_TIMEOUT_S = 10.0
RATE_PER_S = 10.0          # a person taps a few times a second; a flood is refused, not queued
RATE_BURST = 20.0
FLOOD_CLOSE = 200          # messages refused in a row before the connection is closed
# One-off frames waiting for a screen: a screen that lets this many pile up is not reading (its socket's buffer
# is full), so the rest are dropped and it is closed when it next speaks; views are one per kind anyway.
MAX_FRAMES = 64
CLOSE_WAIT_S = 1.0         # a close frame to a screen that does not read would wait for ever
POLICY_VIOLATION = 1008
SECURITY_HEADERS = [
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; connect-src 'self'; "
                                 b"frame-ancestors 'none'"),
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# The pages and their scripts, styles and map may be kept by a browser, which asks each time whether its copy is
# still the one served (their ETag: a 304 without a body when it is); the game's views are never kept.
REVALIDATE = b"no-cache"
NO_STORE = b"no-store"
CACHED_PATHS = ("/static/", "/favicon.ico")
CACHED_PAGES = ("/", "/board", "/qr.svg")    # the QR code: made once, its join address fixed while served
GZIP_MIN_BYTES = 500       # a smaller answer gains less from compression than its headers cost


def cache_control(path: str) -> bytes:
    """The static files, the two pages and the QR code are revalidated; anything else (the public view) not kept."""
    return REVALIDATE if path.startswith(CACHED_PATHS) or path in CACHED_PAGES else NO_STORE


class SecurityHeaders:
    """No referrer leaves a page (a seat link's fragment never does anyway); only static files are cached."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        cache = (b"cache-control", cache_control(scope.get("path", "")))

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS, cache]
            await send(message)

        await self.app(scope, receive, with_headers)


@dataclass
class RateLimit:
    """A token bucket per connection."""

    rate: float = RATE_PER_S
    burst: float = RATE_BURST
    tokens: float = RATE_BURST
    stamp: float = field(default_factory=time.monotonic)
    dropped: int = 0          # messages refused in a row

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass
class Connection:
    id: int
    ws: WebSocket
    # The board's clock now: sent with each public view, so the page counts the turn's time from the board's.
    board_now: Callable[[], float] = lambda: 0.0
    seat: int = -1
    limit: RateLimit = field(default_factory=RateLimit)
    # Views are whole states, so only the newest of each kind is worth sending; one-off frames all go out.
    views: dict[str, str] = field(default_factory=dict)
    frames: deque[str] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    claimed: bool = False     # it asked for a seat: when it closes, the board forgets its claim
    # It asked for differences (its hello's `diffs`): after the first whole view of each kind (public, and a seated
    # phone's seat and host views), each goes as the difference from the last one of its kind sent to it
    # (view_diff.py, "<kind>_diff"), or whole when that is shorter.
    diffs: bool = False
    sent: dict[str, str] = field(default_factory=dict)

    stalled: bool = False     # frames were dropped: the screen does not read

    def frame(self, payload: dict[str, Any]) -> None:
        if len(self.frames) >= MAX_FRAMES:
            self.stalled = True
            return
        self.frames.append(json.dumps(payload))
        self.wake.set()

    def offer(self, snapshot: Snapshot) -> None:
        self.views["public"] = snapshot.public
        if 0 <= self.seat < len(snapshot.seats):
            self.views["seat"] = snapshot.seats[self.seat]
            if self.seat == snapshot.host_seat:
                self.views["host"] = snapshot.host
        self.wake.set()

    async def write_loop(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.frames:
                await self.ws.send_text(self.frames.popleft())
            views, self.views = self.views, {}
            for kind, text in views.items():
                await self.ws.send_text(self.view_frame(kind, text))

    def view_frame(self, kind: str, view: str) -> str:
        """A view as this screen is sent it: whole, or as the difference from the last one of its kind it was sent.
        The public view carries the board's clock."""
        now = f',"now":{self.board_now():.2f}' if kind == "public" else ""
        last = self.sent.get(kind)
        ops = diff_between(last, view) if self.diffs and last is not None else None
        self.sent[kind] = view
        if ops is not None:
            return f'{{"type":"{kind}_diff"{now},"ops":{ops}}}'
        return f'{{"type":"{kind}"{now},"view":{view}}}'


class Hub:
    """The connections, on the server's event loop."""

    def __init__(self, companion: Companion) -> None:
        self.companion = companion
        self.loop: asyncio.AbstractEventLoop | None = None
        self.connections: dict[int, Connection] = {}
        self._ids = count(1)

    def deliver(self, item: Outgoing) -> None:
        """From the board's loop (any thread): hand a snapshot or a claim's answer to the event loop."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._receive, item)

    def _receive(self, item: Outgoing) -> None:
        if isinstance(item, Snapshot):
            for conn in self.connections.values():
                conn.offer(item)
            return
        if isinstance(item, SeatNotice):
            for conn in self.connections.values():
                if conn.seat == item.seat:
                    conn.frame({"type": "seat_asked", "seat": item.seat, "text": item.text})
            return
        if isinstance(item, Unseated):
            # The seat changed hands: its connections stop receiving its private view now, and are told why.
            for conn in self.connections.values():
                if conn.seat == item.seat:
                    self._unseat(conn)
                    conn.frame({"type": "unseated", "seat": item.seat, "reason": item.reason})
            return
        target = self.connections.get(item.connection)
        if target is None:
            return
        if isinstance(item, HintAnswer):   # only while the connection still holds the seat that asked
            if target.seat == item.seat:
                target.frame({"type": "hint", "seat": item.seat, "text": item.text,
                              "territories": list(item.territories), "given": item.given,
                              "state": str(item.state)})
            return
        conn = target
        if not isinstance(item, Refusal) and item.state is not ClaimState.ASKED:
            conn.claimed = False   # answered: no claim of its is waiting any more
        if isinstance(item, Refusal):
            conn.frame({"type": "error", "error": item.reason})
            return
        if item.grant is not None and item.state is ClaimState.REMOTE:
            # Only the host's connection asked; the link is theirs to hand to the remote player.
            conn.frame({"type": "remote_link", "seat": item.seat, "token": item.grant.token})
        elif item.grant is not None:
            conn.frame({"type": "granted", "seat": item.seat, "token": item.grant.token, "host": item.grant.host})
            self._bind(conn, item.seat)
        else:
            conn.frame({"type": "claim", "seat": item.seat, "state": item.state.value, "reason": item.reason})

    def _bind(self, conn: Connection, seat: int) -> None:
        # The newest connection for a seat takes over; the older one is told and becomes a public screen.
        for other in self.connections.values():
            if other is not conn and other.seat == seat:
                self._unseat(other)
                other.frame({"type": "taken_over", "seat": seat,
                             "reason": "this seat was opened on another screen, which plays it now"})
        if conn.seat != seat:
            conn.sent.pop("seat", None)   # another seat's private view: sent whole first
            conn.sent.pop("host", None)
        conn.seat = seat
        if self.companion.latest is not None:
            conn.offer(self.companion.latest)

    @staticmethod
    def _unseat(conn: Connection) -> None:
        """The connection becomes a public screen: no private view is queued for it any more."""
        conn.seat = -1
        for kind in ("seat", "host"):
            conn.views.pop(kind, None)
            conn.sent.pop(kind, None)   # a seat it plays again starts from a whole view

    def open(self, ws: WebSocket) -> Connection:
        conn = Connection(next(self._ids), ws, self.companion.board_now)
        self.connections[conn.id] = conn
        return conn

    def close(self, conn: Connection) -> None:
        self.connections.pop(conn.id, None)
        if conn.claimed:
            self.companion.submit(ScreenClosed(conn.id))   # a claim it may have left waiting goes

    def hello(self, conn: Connection, text: str) -> None:
        """The first message: optionally a seat token. Then the map and the current views."""
        data = parse(text)
        if data.get("type") != "hello":
            raise BadMessage("the first message must be a hello")
        keys(data, {"type", "token", "diffs"})
        conn.diffs = data.get("diffs") is True
        conn.frame({"type": "map", "map": json.loads(self.companion.map_json or "null")})
        token = data.get("token")
        if token is not None:
            if not isinstance(token, str) or not token or len(token) > 200:
                raise BadMessage("token must be a non-empty string")
            seat = self.companion.seats.seat_of(token)
            if seat < 0:
                conn.frame({"type": "error", "error": "this seat link is no longer valid: ask for your seat "
                                                      "again (the board grants it when ROLL and NEXT are pressed "
                                                      "together)", "code": "bad_token"})
            else:
                conn.frame({"type": "welcome", "seat": seat, "host": seat == self.companion.host_seat})
                self._bind(conn, seat)
                return
        if self.companion.latest is not None:
            conn.offer(self.companion.latest)

    def message(self, conn: Connection, text: str) -> None:
        """Any later message: validated here, then queued for the board's loop, which checks it again. A ping is
        answered here: a page that hears no pong for a few seconds knows its connection is dead (a dropped Wi-Fi
        leaves a socket open for a minute or more)."""
        data = parse(text)
        if data.get("type") == "ping":
            keys(data, {"type"})
            conn.frame({"type": "pong", "now": round(self.companion.board_now(), 2)})
            return
        command = to_command(data, conn.id, conn.seat, self.companion.host_seat, self.companion.territory_ids)
        conn.claimed = conn.claimed or isinstance(command, ClaimSeat)
        self.companion.submit(command)


def same_origin(headers: MutableMapping[str, str] | Any) -> bool:
    """A WebSocket from another site's page (its Origin differs from the Host it reached) is refused."""
    origin = headers.get("origin")
    host = headers.get("host")
    if not origin or not host:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def _static(name: str) -> str:
    return str(resources.files("conquista.web").joinpath("static", name))


def create_app(companion: Companion, allowed_hosts: list[str], join_url: str = "") -> tuple[Starlette, Hub]:
    """The app and its hub. `allowed_hosts` guards against DNS rebinding; `join_url` is what the QR encodes."""
    hub = Hub(companion)
    companion.send = hub.deliver

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        yield
        hub.loop = None

    async def page(request: Request) -> Response:
        name = "board.html" if request.url.path == "/board" else "phone.html"
        path = _static(name)
        response = FileResponse(path, media_type="text/html", stat_result=os.stat(path))
        # As the static files: a page the browser still holds is answered 304, its ETag checked.
        etag = response.headers.get("etag", "")
        if etag and etag in request.headers.get("if-none-match", ""):
            return NotModifiedResponse(response.headers)
        return response

    async def favicon(_request: Request) -> Response:
        return FileResponse(_static("favicon.svg"), media_type="image/svg+xml")

    async def public(_request: Request) -> Response:
        latest = companion.latest
        if latest is None:
            return JSONResponse({"error": "the board has not started yet"}, status_code=503)
        return Response(latest.public, media_type="application/json")

    async def qr(request: Request) -> Response:
        # Made once (the join address does not change while the app serves): a TV that reloads gets a 304.
        svg, etag = qr_svg(join_url or "http://127.0.0.1/")
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers={"etag": etag})
        return Response(svg, media_type="image/svg+xml", headers={"etag": etag})

    async def join(_request: Request) -> Response:
        # The address the QR code encodes, in words beside it on the TV (for a phone that cannot scan it).
        return JSONResponse({"url": join_url or "http://127.0.0.1/"})

    async def socket(ws: WebSocket) -> None:
        if not same_origin(ws.headers):
            await ws.close(code=POLICY_VIOLATION)
            return
        await ws.accept()
        conn = hub.open(ws)
        writer = asyncio.create_task(conn.write_loop())
        try:
            await _serve(hub, conn, ws)
        finally:
            hub.close(conn)
            await asyncio.sleep(0)  # let the writer flush what is already queued
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    routes = [
        Route("/", page), Route("/board", page), Route("/api/public", public), Route("/qr.svg", qr),
        Route("/join", join),
        Route("/favicon.ico", favicon),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=_static("")), name="static"),
    ]
    # Compressed inside the headers' middleware: the map's SVG goes out at a third of its size.
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts), Middleware(SecurityHeaders),
                  Middleware(GZipMiddleware, minimum_size=GZIP_MIN_BYTES)]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan), hub


async def _serve(hub: Hub, conn: Connection, ws: WebSocket) -> None:
    first = True
    while True:
        try:
            message = await (asyncio.wait_for(ws.receive(), HELLO_TIMEOUT_S) if first else ws.receive())
        except TimeoutError:
            await ws.close(code=POLICY_VIOLATION, reason="no hello")
            return
        if message["type"] == "websocket.disconnect":
            return
        if conn.stalled:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ws.close(code=POLICY_VIOLATION, reason="not reading"), CLOSE_WAIT_S)
            return
        text = message.get("text")
        if not conn.limit.allow():
            # Told once per flood (an error frame for each would echo the flood back); a flood that goes on ends
            # the connection.
            conn.limit.dropped += 1
            if conn.limit.dropped == 1:
                conn.frame({"type": "error", "error": "too many messages: slow down"})
            elif conn.limit.dropped >= FLOOD_CLOSE:
                await ws.close(code=POLICY_VIOLATION, reason="flood")
                return
            continue
        conn.limit.dropped = 0
        try:
            if text is None:
                raise BadMessage("send JSON text, not binary")
            if first:
                first = False
                hub.hello(conn, text)
            else:
                hub.message(conn, text)
        except BadMessage as exc:
            conn.frame({"type": "error", "error": str(exc)})
