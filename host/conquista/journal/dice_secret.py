"""The secret seed of a committed game in play, kept so that the game can go on with the same stream after a power
cut. One file per game, `dice-secrets/<game key>` beside the journal, readable by the board's user only (directory
0700, file 0600): never in the journal's rows, the log header or any log line. It is written (and synced) before the
game's first row reaches the journal and removed once the game is over and its seed revealed.

The file holds the seed as hex on one line. It is keyed by the game's journal key (a random id fixed when the game
starts, before the journal gives it a number), which a restored backup keeps too.
"""

from __future__ import annotations

import os
from pathlib import Path

from conquista.journal.paths import make_private_dir

SECRETS_DIR = "dice-secrets"


def secret_path(journal_file: Path, key: str) -> Path:
    return journal_file.parent / SECRETS_DIR / key


def write_secret(path: Path, seed: bytes) -> None:
    """Write `seed` durably: a private temporary file, synced, renamed into place, the directory synced."""
    make_private_dir(path.parent)
    temporary = path.with_name(path.name + ".new")
    fd = os.open(temporary, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600)
    try:
        os.fchmod(fd, 0o600)     # whatever the umask
        os.write(fd, (seed.hex() + "\n").encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, path)
    _sync_dir(path.parent)


def read_secret(path: Path) -> bytes | None:
    """The seed kept at `path`, or None if there is none (or it is not a hex seed)."""
    try:
        text = path.read_text("ascii").strip()
        return bytes.fromhex(text) or None
    except (OSError, ValueError):
        return None


def remove_secret(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        return
    _sync_dir(path.parent)


def _sync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass             # some file systems cannot sync a directory; the rename is still atomic
    finally:
        os.close(fd)
