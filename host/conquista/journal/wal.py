"""Spotting a torn last write in an SQLite write-ahead log, so recovery can say so.

SQLite itself recovers from a torn write: on opening, it keeps the WAL's frames up to the last commit frame whose
checksum chain is intact and ignores the rest. It says nothing about it, though, and the referee must warn that the
game resumes before the action whose write was cut. This reads the WAL the way SQLite's recovery does
(https://sqlite.org/fileformat2.html#the_write_ahead_log) and answers one question: does the log end in bytes of a
write that never completed? Call it while holding the database's write lock (no writer can be mid-write then).
"""

from __future__ import annotations

import struct
from pathlib import Path

WAL_HEADER_SIZE = 32
FRAME_HEADER_SIZE = 24
_MAGIC_LITTLE, _MAGIC_BIG = 0x377F0682, 0x377F0683
_MASK = 0xFFFFFFFF


def _checksum(data: bytes, big_endian: bool, s0: int, s1: int) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & _MASK
        s1 = (s1 + words[i + 1] + s0) & _MASK
    return s0, s1


def torn_tail(wal: Path) -> bool:
    """True if `wal` ends in a partly written transaction: a short header or frame, a frame whose checksum fails,
    or whole frames with no commit frame after them. Frames left over from an earlier generation of the file
    (other salts) are normal and not torn."""
    try:
        data = wal.read_bytes()
    except FileNotFoundError:
        return False
    if not data:
        return False
    if len(data) < WAL_HEADER_SIZE:
        return True
    magic, _version, page_size, _seq, salt1, salt2, c1, c2 = struct.unpack_from(">8I", data, 0)
    if magic not in (_MAGIC_LITTLE, _MAGIC_BIG):
        return True
    big = magic == _MAGIC_BIG
    sums = _checksum(data[:24], big, 0, 0)
    if sums != (c1, c2):
        return True
    frame_size = FRAME_HEADER_SIZE + page_size
    pos = WAL_HEADER_SIZE
    uncommitted = False
    while pos < len(data):
        if pos + FRAME_HEADER_SIZE > len(data):
            return True                     # a frame header cut short
        _page, commit, f1, f2, fc1, fc2 = struct.unpack_from(">6I", data, pos)
        if (f1, f2) != (salt1, salt2):
            break                           # a stale frame of an earlier generation: the log ended before it
        if pos + frame_size > len(data):
            return True                     # a frame cut short
        sums = _checksum(data[pos:pos + 8] + data[pos + FRAME_HEADER_SIZE:pos + frame_size], big, *sums)
        if sums != (fc1, fc2):
            return True                     # a frame only partly written
        uncommitted = commit == 0
        pos += frame_size
    return uncommitted
