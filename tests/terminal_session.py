"""`conquista` run in a real pseudo-terminal of a given size, as a person runs it: what it writes is read as it
comes (escape codes and all), lines are typed into it, and Ctrl-C is the terminal's own interrupt character."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parents[1]
CONQUISTA = Path(sys.executable).parent / "conquista"
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


class TerminalSession:
    """`argv` in a pty `columns`×`rows`, from `cwd`; `env` added to the environment (PATH without the venv's bin
    unless given, as for a person who never activated the venv)."""

    def __init__(self, argv: Sequence[str], *, columns: int = 134, rows: int = 40, cwd: Path = ROOT,
                 env: dict[str, str] | None = None) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "CI_NO_TTY")}
        environment.update({"TERM": "xterm-256color", "PYTHONUNBUFFERED": "1"}, **(env or {}))
        self.process = subprocess.Popen(list(argv), stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
                                        env=environment, start_new_session=True, close_fds=True,
                                        preexec_fn=_controlling)
        os.close(slave)
        self.master = master
        self.raw = b""

    def __enter__(self) -> TerminalSession:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    @property
    def text(self) -> str:
        """Everything written so far, without the escape codes."""
        return ESCAPES.sub("", self.raw.decode("utf-8", "replace")).replace("\r", "")

    def read_for(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0 and self._read_some(left):
            pass

    def wait_for(self, pattern: str, timeout: float = 60.0, since: int = 0) -> re.Match[str]:
        """Read until `pattern` (a regular expression) appears in the text after offset `since`."""
        end = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.text[since:])
            if found is not None:
                return found
            left = end - time.monotonic()
            if left <= 0 or (not self._read_some(left) and self.process.poll() is not None):
                raise AssertionError(f"{pattern!r} did not appear in {timeout:g} s; the screen ended:\n"
                                     f"{self.text[-3000:]}")

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def interrupt(self) -> None:
        """Ctrl-C, as typed: the terminal sends SIGINT to the program in the foreground."""
        os.write(self.master, b"\x03")

    def finish(self, timeout: float = 30.0) -> int:
        """Read until the program exits; its exit code."""
        end = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < end:
            self._read_some(0.2)
        self.read_for(0.2)
        code = self.process.wait(timeout=max(0.1, end - time.monotonic()))
        return code

    def _read_some(self, timeout: float) -> bool:
        """Read what is there within `timeout`; False once the pty is closed (the program exited)."""
        ready, _, _ = select.select([self.master], [], [], min(timeout, 0.5))
        if not ready:
            return True
        try:
            chunk = os.read(self.master, 65536)
        except OSError:   # the program exited and the pty closed
            return False
        self.raw += chunk
        return bool(chunk)

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        os.close(self.master)


def _controlling() -> None:
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)   # the pty (its stdin) is the program's terminal: Ctrl-C reaches it
