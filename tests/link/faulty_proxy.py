"""A TCP proxy on loopback that damages the link between the host and the simulated Pico.

Each byte, in each direction, is with probability `rate` dropped, corrupted (XOR with a random non-zero value)
or duplicated, in equal shares, from a seeded generator. cut(seconds) makes the link silent both ways (bytes
are swallowed, connections stay up or are accepted, as a glitching USB cable leaves the tty open).
"""

from __future__ import annotations

import random
import select
import socket
import threading
import time


class FaultyProxy:
    def __init__(self, upstream: tuple[str, int], rate: float = 0.05, seed: int = 1) -> None:
        self.upstream = upstream
        self.rate = rate
        self.rng = random.Random(seed)
        self.rng_lock = threading.Lock()
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(4)
        self.cut_until = 0.0
        self.restored_at: float | None = None
        self.damaged = 0
        self.swallowed = 0
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._pairs: list[tuple[socket.socket, socket.socket]] = []

    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self.server.getsockname()[1]}"

    def start(self) -> FaultyProxy:
        t = threading.Thread(target=self._accept_loop, daemon=True)
        t.start()
        self._threads.append(t)
        return self

    def cut(self, seconds: float) -> float:
        """Silence the link from now for `seconds`; returns the monotonic time at which it comes back."""
        now = time.monotonic()
        self.cut_until = now + seconds
        self.restored_at = self.cut_until
        return self.cut_until

    def stop(self) -> None:
        self._stop.set()
        self.server.close()
        for a, b in self._pairs:
            a.close()
            b.close()
        for t in self._threads:
            t.join(2)

    def _accept_loop(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.server], [], [], 0.05)
            if not ready:
                continue
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            up = socket.create_connection(self.upstream)
            for s in (client, up):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._pairs.append((client, up))
            for src, dst in ((client, up), (up, client)):
                t = threading.Thread(target=self._pump, args=(src, dst), daemon=True)
                t.start()
                self._threads.append(t)

    def _damage(self, data: bytes) -> bytes:
        out = bytearray()
        with self.rng_lock:
            for b in data:
                if self.rng.random() >= self.rate:
                    out.append(b)
                    continue
                self.damaged += 1
                kind = self.rng.randrange(3)
                if kind == 1:
                    out.append(b ^ self.rng.randrange(1, 256))
                elif kind == 2:
                    out.append(b)
                    out.append(b)
        return bytes(out)

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([src], [], [], 0.05)
                if not ready:
                    continue
                data = src.recv(4096)
            except (OSError, ValueError):
                break
            if not data:
                break
            if time.monotonic() < self.cut_until:
                self.swallowed += len(data)
                continue
            try:
                dst.sendall(self._damage(data))
            except OSError:
                break
        for s in (src, dst):
            try:
                s.close()
            except OSError:
                pass
