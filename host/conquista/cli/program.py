"""How the person started conquista, so that every command the program prints works as printed from where they
are: after `make run` only `.venv/bin/conquista` exists, and a hint naming `conquista sim --resume 1` would fail.

Messages name commands as "`conquista ...`" wherever they are made (the rules, the journal and the table know
nothing of how the process was started); `as_typed` rewrites them when the program is printed: the cli's error and
warning lines, what a command prints, and the simulated board's terminal (handed `as_typed`)."""

from __future__ import annotations

import functools
import os
import sys
from typing import TextIO

NAME = "conquista"
_started: list[str] = []   # argv[0] of the process's own command line (main() without argv: not a caller's)


def started_as(argv0: str) -> None:
    """The process was started by `argv0` (main() tells, for its own command line only)."""
    _started[:] = [argv0]
    program.cache_clear()


@functools.cache
def program() -> str:
    """`conquista` when that name on PATH runs this very program; else the path it was started by (as typed, so
    relative to where the person is), or `python -m conquista` with the interpreter as typed."""
    argv0 = _started[0] if _started and _started[0] else NAME
    if os.path.basename(argv0) == "__main__.py":    # python -m conquista
        python = getattr(sys, "orig_argv", [sys.executable])[0] or sys.executable
        return f"{_quoted(python)} -m {NAME}"
    if os.sep not in argv0:
        return argv0 if os.path.basename(argv0) == NAME else NAME
    import shutil  # only once a command is printed: shutil loads bz2 and lzma

    found = shutil.which(NAME)
    if found is not None and _same_file(found, argv0):
        return NAME
    return _quoted(argv0)


def as_typed(text: str) -> str:
    """`text` with each "`conquista " command it names written as the person can run it from here."""
    name = program()
    return text if name == NAME else text.replace(f"`{NAME} ", f"`{name} ")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _quoted(path: str) -> str:
    import shlex

    return shlex.quote(path)


def fitted(text: str, stream: TextIO, prefix: str = "") -> str:
    """`prefix` and `text` as a terminal `stream` should show them: wrapped between words at its width (the terminal
    itself would cut a word in two, "asks fo / r"), a path or command longer than a line kept whole; unchanged
    for a file or a pipe."""
    line = prefix + text
    if not stream.isatty():
        return line
    import shutil
    import textwrap

    width = shutil.get_terminal_size().columns
    return textwrap.fill(line, width, break_long_words=False, break_on_hyphens=False)
