"""Runs the web app with uvicorn in a thread of the referee's process, and says where phones find it.

The socket is bound here, before uvicorn starts, so a busy port is known at once: a port given explicitly is a
one-line error naming it; the default moves on to the next free one. uvicorn serves WebSockets through the
`websockets` library, with messages capped at 64 KiB and no per-message compression.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import socket
import struct
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

from conquista.errors import WebError as WebError
from conquista.rules.records import frozen_record

if TYPE_CHECKING:
    from conquista.web.companion import Companion
    from conquista.web.server import Hub

DEFAULT_PORT = 8080
PORT_TRIES = 20
START_TIMEOUT_S = 10.0
SWITCH_INTERVAL_S = 0.0005
# uvicorn >= 0.35 (the floor in pyproject.toml): the websockets library's Sans-I/O core, not its legacy server.
WS_PROTOCOL = "websockets-sansio"
SIOCGIFADDR = 0x8915      # Linux ioctl: an interface's address


@frozen_record
class WebAddress:
    host: str
    port: int
    explicit: bool          # given with --web: busy is an error rather than a move to the next port


def parse_web_address(text: str, default_host: str) -> WebAddress:
    """`--web [HOST:]PORT`."""
    host, _, port_text = text.rpartition(":")
    try:
        port = int(port_text)
    except ValueError:
        raise WebError(f"--web takes [HOST:]PORT, e.g. 8080 or 0.0.0.0:8080, not {text!r}") from None
    if not 0 <= port < 65536:
        raise WebError(f"--web port {port} is out of range (1–65535, or 0 for any free port)")
    return WebAddress(host or default_host, port, explicit=True)


def lan_address() -> str:
    """The address other devices on the table's network reach this one by (phones resolve .local names badly).
    Connecting a UDP socket sends nothing; it only picks the interface a route would use. A board on its own
    Wi-Fi (an access point, no internet) may have no default route: then one of its own interfaces' addresses."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))   # TEST-NET-1: never routed anywhere, only used to choose an interface
        address: str = probe.getsockname()[0]
        if _reachable(address):
            return address
    found = board_addresses()
    return found[0] if found else "127.0.0.1"


def _reachable(address: str) -> bool:
    """An IPv4 address another device could use to reach this one (not loopback, not unspecified)."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_multicast)


def _interface_addresses() -> list[str]:
    """Each network interface's IPv4 address (Linux: SIOCGIFADDR), with the standard library only."""
    try:
        import fcntl
    except ImportError:  # not on Linux: the host name's addresses are all there is
        return []
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in socket.if_nameindex():
            with contextlib.suppress(OSError):   # an interface that is down has no address
                request = struct.pack("256s", name.encode()[:15])
                answer = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, request)
                found.append(socket.inet_ntoa(answer[20:24]))
    return found


def board_addresses() -> list[str]:
    """This machine's IPv4 addresses that other devices can reach, private (the table's Wi-Fi) first and
    link-local (a network with no DHCP) last."""
    found: list[str] = []
    with contextlib.suppress(OSError):
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    found += _interface_addresses()
    usable = [a for a in dict.fromkeys(found) if _reachable(a)]
    return sorted(usable, key=lambda a: (ipaddress.IPv4Address(a).is_link_local,
                                         not ipaddress.IPv4Address(a).is_private))


def allowed_hosts(bind_host: str, public_address: str) -> list[str]:
    """Host names a request may carry (TrustedHostMiddleware): this machine's own, never a stranger's domain.
    Served on every network, that is each of the board's addresses (a phone may reach it by any of them)."""
    hosts = {"127.0.0.1", "localhost", public_address}
    if bind_host not in ("0.0.0.0", "::", ""):
        hosts.add(bind_host)
    else:
        name = socket.gethostname()
        hosts |= {name, f"{name}.local", *board_addresses()}
    return sorted(hosts)


def bind(address: WebAddress) -> socket.socket:
    ports = [address.port] if address.explicit else range(address.port, address.port + PORT_TRIES)
    last: OSError | None = None
    for port in ports:
        # IPPROTO_TCP named, not left 0: asyncio sets TCP_NODELAY only on accepted sockets whose proto says TCP, and
        # without it a screen's second view in a row waits for the first one's delayed ACK (about 40 ms).
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((address.host, port))
            sock.listen(64)
        except OSError as exc:
            sock.close()
            if exc.errno not in (errno.EADDRINUSE, errno.EACCES):
                raise WebError(f"--web {address.host}:{port}: cannot listen there ({exc.strerror})") from None
            last = exc
            continue
        sock.setblocking(False)
        return sock
    if address.explicit:
        raise WebError(f"--web {address.host}:{address.port}: the port is busy; choose another with "
                       f"--web PORT, or turn the web app off with --no-web")
    raise WebError(f"no free port from {address.port} to {address.port + PORT_TRIES - 1} on {address.host} "
                   f"({last.strerror if last else 'busy'}); choose one with --web PORT or use --no-web")


class WebService:
    """The server in a thread. `start()` returns the URL at once: the socket already listens, so a phone that
    connects early waits in its backlog while the thread imports Starlette and uvicorn, off the board's start-up."""

    def __init__(self, companion: Companion | None, address: WebAddress, sock: socket.socket | None = None) -> None:
        """`sock`: the listening socket `bind(address)` made earlier (a busy port is an error before the board's
        first frame, while the server starts after it); else it is bound now. `companion`: None only in a
        subclass that serves another app (`_app`)."""
        self.companion = companion
        self.address = address
        self.sock = sock if sock is not None else bind(address)
        self.port: int = self.sock.getsockname()[1]
        shown = lan_address() if address.host in ("0.0.0.0", "") else address.host
        self.url = f"http://{shown}:{self.port}/"
        self.hosts = allowed_hosts(address.host, shown)
        self.error = ""
        self.hub: Hub | None = None
        self._server: Any = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> str:
        # The board's loop is the thread that must not wait: with the server's thread busy sending, the default
        # 5 ms between GIL hand-overs would show as a late frame after a tap.
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_S))
        self._thread = threading.Thread(target=self._serve, name="conquista-web", daemon=True)
        self._thread.start()
        return self.url

    def _serve(self) -> None:
        try:
            import uvicorn

            from conquista.web.messages import MAX_MESSAGE

            config = uvicorn.Config(self._app(), ws=WS_PROTOCOL, ws_max_size=MAX_MESSAGE,
                                    ws_per_message_deflate=False, lifespan="on", log_level="warning",
                                    access_log=False)
            self._server = uvicorn.Server(config)
            if not self._stopping.is_set():
                self._server.run(sockets=[self.sock])
        except Exception as exc:  # reported by wait_ready and on stderr; the board plays on without phones
            self.error = f"the web app on port {self.port} stopped: {exc}"
            sys.stderr.write(f"conquista: {self.error}\n")

    def _app(self) -> Any:
        """The ASGI app served: the table's (a subclass serves another page, e.g. the calibration's)."""
        from conquista.web.server import create_app

        if self.companion is None:
            raise WebError("the table's web app needs its companion")
        app, self.hub = create_app(self.companion, self.hosts, self.url)
        return app

    def wait_ready(self, timeout: float = START_TIMEOUT_S) -> None:
        """Block until the server accepts connections (tests, benchmarks)."""
        deadline = time.monotonic() + timeout
        while self._server is None or not self._server.started:
            if self.error or time.monotonic() > deadline or self._thread is None or not self._thread.is_alive():
                raise WebError(self.error or f"the web app on port {self.port} did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            deadline = time.monotonic() + 5
            while self._thread.is_alive() and time.monotonic() < deadline:
                if self._server is not None:
                    self._server.should_exit = True
                self._thread.join(timeout=0.05)
        self.sock.close()

    def __enter__(self) -> WebService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def qr_text(url: str) -> str:
    """The join URL as a QR code for a terminal (segno's make_qr, never a Micro QR), in half blocks."""
    from conquista.web.qr import qr_lines

    return "".join(f"{line}\n" for line in qr_lines(url))
