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


def data_dir_option(journal_file: Path) -> str:
    """The ` --data-dir DIR` a printed command needs to find the journal `journal_file` (nothing for the default
    one), so that every command the program prints runs as printed."""
    if journal_file == journal_path():
        return ""
    import shlex

    return f" --data-dir {shlex.quote(str(journal_file.parent))}"


def make_private_dir(path: Path) -> None:
    """Create the data directory (and missing parents) readable by its owner only: it holds unfinished games'
    missions and hands. chmod after mkdir, because mkdir's mode is filtered through the umask. A directory that
    already exists is left as it is (the user chose it)."""
    if path.is_dir():
        return
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path, 0o700)


def make_private_file(path: Path) -> None:
    """Create `path` empty and 0600 if it does not exist, or take it back to 0600 if others may read it. SQLite
    creates the -wal and -shm files with the database file's mode, so this covers the journal's side files."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        try:
            if path.stat().st_mode & 0o077:
                os.chmod(path, 0o600)
        except OSError:
            pass            # not ours to change (another user's journal, read-only media): read it as it is
        return
    try:
        os.fchmod(fd, 0o600)     # a umask such as 0277 would leave even the owner without write access
    finally:
        os.close(fd)


def side_files(path: Path) -> list[Path]:
    """The journal's side files SQLite may create next to it."""
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-journal")]
