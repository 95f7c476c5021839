"""Writes conquista/data/parsed.py: the package's own data files (maps, rulesets, board profiles) parsed ahead.

`conquista play` and `sim` read six rulesets, the map and the board profile before their first frame; parsing
them (and importing tomllib and hashlib for it) was a sixth of the start-up (issue 22). textdata's loaders take
an entry only for the very text it was made from, so an edited file is simply parsed again; this module makes the
entries anew (`make parsed`), and tests/rules/test_parsed_data.py fails while they are behind the files.

Each entry: the file (relative to conquista/data), its text, its value as `marshal` bytes (a fresh copy at every
load, in C), and the SHA-256 of its UTF-8 text (a map's identity in saved games)."""

from __future__ import annotations

import hashlib
import json
import marshal
import sys
import tomllib
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent
OUTPUT = DATA / "parsed.py"
PATTERNS = ("maps/*.json", "rulesets/*.toml", "boards/*.toml")
MARSHAL_VERSION = 2      # no back-references (version 3 added them), so the bytes do not depend on object identity

HEADER = '''"""The package's data files parsed ahead, for a fast start: written by `make parsed`
(conquista/data/make_parsed.py says how they are used and kept right); do not edit."""
# ruff: noqa: E501

# (file, its text, its value as marshal bytes, SHA-256 of its UTF-8 text)
SHIPPED: tuple[tuple[str, str, bytes, str], ...] = (
'''


def parse(name: str, text: str) -> Any:
    return json.loads(text) if name.endswith(".json") else tomllib.loads(text)


def plain(value: Any, where: str) -> None:
    """Only what JSON and TOML give that marshal copies exactly (a TOML date would not round-trip as one)."""
    if isinstance(value, dict):
        for key, item in value.items():
            plain(key, where)
            plain(item, f"{where}.{key}")
    elif isinstance(value, list):
        for item in value:
            plain(item, where)
    elif not isinstance(value, str | int | float | bool):
        raise TypeError(f"{where}: {type(value).__name__} values are not kept in parsed.py")


def entries(data: Path = DATA) -> list[tuple[str, str, bytes, str]]:
    found = sorted(path for pattern in PATTERNS for path in data.glob(pattern))
    rows = []
    for path in found:
        name = path.relative_to(data).as_posix()
        text = path.read_text("utf-8")
        value = parse(name, text)
        plain(value, name)
        rows.append((name, text, marshal.dumps(value, MARSHAL_VERSION),
                     hashlib.sha256(text.encode("utf-8")).hexdigest()))
    return rows


def render(data: Path = DATA) -> str:
    lines = [HEADER]
    for name, text, blob, sha256 in entries(data):
        lines.append(f"    ({name!r},\n     {text!r},\n     {blob!r},\n     {sha256!r}),\n")
    lines.append(")\n")
    return "".join(lines)


def main() -> int:
    OUTPUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUTPUT} ({len(entries())} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
