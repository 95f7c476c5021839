"""Where saved games live: `--data-dir DIR`, else the XDG data directory ($XDG_DATA_HOME/conquista, by default
~/.local/share/conquista)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

JOURNAL_NAME = "games.sqlite3"


def default_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME", "")
    # The XDG spec says a relative $XDG_DATA_HOME is invalid and must be ignored.
    root = Path(base) if base and os.path.isabs(base) else Path(env.get("HOME") or Path.home()) / ".local" / "share"
    return root / "conquista"


def journal_path(data_dir: str | Path | None = None) -> Path:
    return Path(data_dir if data_dir is not None else default_data_dir()) / JOURNAL_NAME
