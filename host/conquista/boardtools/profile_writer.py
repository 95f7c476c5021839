"""A calibrated board written out as a profile: the base profile's settings, the calibrated wiring.

A small writer of our own rather than a TOML library: the file is for a builder to read and edit, so it keeps the
reference profile's layout (one line per territory, continents as comments), which a generic writer does not.
Whatever it writes is read back by the profile loader before it reaches the disk.
"""

from __future__ import annotations

import json
import os
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from conquista.errors import BoardToolError
from conquista.hardware.profile import BoardProfile, ProfileError, parse_profile
from conquista.rules.mapdata import GameMap

SETTINGS_SECTIONS = ("strip", "sensors", "buttons", "encoder", "buzzer")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} to a profile")


def profile_text(base: dict[str, Any], name: str, game_map: GameMap, territory_leds: list[list[int]],
                 cells: list[tuple[int, int]], attack: list[list[int]], defence: list[list[int]],
                 ring: list[int]) -> str:
    lines = ["# Written by `conquista board calibrate`: the wiring as calibrated, the settings of the base profile.",
             "# The format is described in hardware/README.md.", "",
             "format = 1", f"name = {_value(name)}", f"map = {_value(game_map.name)}"]
    for section in SETTINGS_SECTIONS:
        if section in base:
            lines += ["", f"[{section}]", *(f"{k} = {_value(v)}" for k, v in base[section].items())]
    lines += ["", "[dice]", "attack = [", *(f"    {_value(d)}," for d in attack), "]",
              "defence = [", *(f"    {_value(d)}," for d in defence), "]",
              "", "[ring]", f"leds = {_value(ring)}", "", "[territories]"]
    continent_of = {t: c.name_en for c in game_map.continents for t in c.territories}
    width = max(len(t.id) for t in game_map.territories)
    previous = None
    for index, territory in enumerate(game_map.territories):
        if continent_of.get(index) != previous:
            previous = continent_of.get(index)
            lines.append(f"# {previous}")
        row, col = cells[index]
        lines.append(f"{territory.id:<{width}} = {{ leds = {_value(territory_leds[index])}, cell = [{row}, {col}] }}")
    return "\n".join(lines) + "\n"


def write_profile(path: Path, text: str, game_map: GameMap) -> BoardProfile:
    """Check `text` with the profile loader, then put it at `path` in one rename: never a half-written profile."""
    try:
        profile = parse_profile(tomllib.loads(text), str(path), game_map)
    except tomllib.TOMLDecodeError as exc:  # a bug here, not the builder's: say so plainly
        raise ProfileError(f"{path}: the calibrated profile is not valid TOML ({exc}); please report it") from None
    write_atomically(path, text)
    return profile


def write_atomically(path: Path, text: str) -> None:
    """`path` holds either its old content or all of `text`, whatever happens in between."""
    temporary: str | None = None
    try:
        fd, temporary = tempfile.mkstemp(dir=path.resolve().parent, prefix=f".{path.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
        temporary = None
    except OSError as exc:
        raise BoardToolError(f"{path}: cannot write ({exc.strerror}); choose a writable path") from None
    finally:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
