"""Reading the text files a user hands the referee (maps, rulesets, board profiles, game logs, scripts) without
letting a damaged one end in a traceback or a hang.

`json` and `tomllib` alone raise RecursionError on input nested 100,000 deep, ValueError for an integer of more
than 4,300 digits (Python's int_max_str_digits), and TOML's dotted keys can build a table nested deeper than
anything can print. Every loader here raises `BadText` (a ValueError) with a short reason instead, and each
caller turns that reason into its own one-line error naming the file.
"""

from __future__ import annotations

import importlib
import marshal
import math
import reprlib
from pathlib import Path
from typing import Any, TypeGuard

MAX_DEPTH = 32           # deeper than any file of the project needs (a map is 4 levels deep, a log line 3)
MAX_DIGITS = 30          # digits of a whole number in a script line or a key: far above any real count

_short = reprlib.Repr()
_short.maxstring = 40
_short.maxother = 40
_short.maxlist = _short.maxdict = _short.maxtuple = 6
_short.maxlevel = 3


def is_whole(value: object, low: int, high: int) -> TypeGuard[int]:
    """A whole number from low to high: an int, and not a bool (JSON's and TOML's true would pass as 1)."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


class BadText(ValueError):
    """Text that is not what its loader reads; str() is the reason (without the file's name)."""


def shown(value: object) -> str:
    """A value as an error message quotes it: short, whatever its size or depth."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_DIGITS:
        return f"a number of about {round(math.log10(abs(value)))} digits"   # str() may refuse it
    return _short.repr(value)


def read_utf8(path: str | Path) -> str:
    """The file's text. OSError when it cannot be read; BadText when it is not UTF-8."""
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadText(f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
                      f"save it as UTF-8 text") from None


def decode_utf8(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadText(f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None


def package_text(package: str, name: str) -> str:
    """The text of data file `name` shipped in `package`, as `importlib.resources` reads it (UTF-8, universal
    newlines), through the package's loader (a file, or a zip member): importlib.resources' readers load zipfile and
    tempfile, about 5 ms of a board's start. OSError when it cannot be read."""
    module = importlib.import_module(package)
    loader = module.__spec__.loader if module.__spec__ is not None else None
    if module.__file__ is None or loader is None or not hasattr(loader, "get_data"):
        raise FileNotFoundError(f"{package}: its data files cannot be read (no file or loader)")
    # What pkgutil.get_data does, without loading pkgutil: the loader reads a path beside the package's __init__.
    data: bytes = loader.get_data(str(Path(module.__file__).parent.joinpath(*name.split("/"))))
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def package_files(package: str) -> list[str]:
    """The names of the files in `package`'s directory (listed by importlib.resources when the package is not a
    directory, e.g. in a zip)."""
    folder = Path(str(importlib.import_module(package).__file__)).parent
    if folder.is_dir():
        return [path.name for path in folder.iterdir()]
    from importlib import resources

    return [path.name for path in resources.files(package).iterdir()]


def _no_constant(name: str) -> Any:
    raise BadText(f"{name} is not a number JSON allows; write a plain number")


# The package's own data files parsed ahead (conquista/data/parsed.py), by their exact text: loaded on first use.
_shipped: dict[str, tuple[bytes, str]] | None = None


def _parsed_ahead(text: str) -> tuple[bytes, str] | None:
    """(value as marshal bytes, SHA-256) when `text` is exactly one of the package's data files as parsed ahead;
    None for any other text, an edited file included (it is parsed as any file is)."""
    global _shipped
    if _shipped is None:
        from conquista.data.parsed import SHIPPED

        _shipped = {file_text: (value, sha256) for _name, file_text, value, sha256 in SHIPPED}
    return _shipped.get(text)


def text_sha256(text: str) -> str:
    """The SHA-256 of `text` as UTF-8, in hex (a map's identity): the package's own maps' are known ahead, so a
    board starts without loading hashlib's OpenSSL."""
    known = _parsed_ahead(text)
    if known is not None:
        return known[1]
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_json(text: str, *, one_line: bool = False) -> Any:
    """One JSON value; BadText for bad syntax, NaN/Infinity, a number of thousands of digits, deep nesting.
    `one_line`: the text is a line of a file (the caller names the line)."""
    known = None if one_line else _parsed_ahead(text)
    if known is not None:
        return marshal.loads(known[0])
    import json  # here: a start that reads only the package's own files never needs it

    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise BadText(f"not valid JSON ({exc.msg})" if one_line
                      else f"not valid JSON at line {exc.lineno}: {exc.msg}") from None
    except RecursionError:
        raise BadText(f"nested too deeply (more than {MAX_DEPTH} levels)") from None
    except BadText:
        raise
    except ValueError:   # int_max_str_digits
        raise BadText("a number has thousands of digits; write a number in the allowed range") from None
    check_depth(value)
    return value


def load_toml(text: str) -> dict[str, Any]:
    """A TOML document; BadText for bad syntax, a number of thousands of digits or deep nesting."""
    known = _parsed_ahead(text)
    if known is not None:
        return dict(marshal.loads(known[0]))
    import tomllib  # here: a start that reads only the package's own files never needs it

    try:
        value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BadText(f"not valid TOML: {exc}; fix the syntax at that line") from None
    except RecursionError:
        raise BadText(f"nested too deeply (more than {MAX_DEPTH} levels)") from None
    except ValueError:   # int_max_str_digits
        raise BadText("a number has thousands of digits; write a number in the allowed range") from None
    check_depth(value)
    return value


def check_depth(value: Any, limit: int = MAX_DEPTH) -> None:
    """Refuse lists and tables nested deeper than `limit` (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Any
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            raise BadText(f"nested too deeply (more than {limit} levels)")
        stack.extend((child, depth + 1) for child in children)


def whole_number(text: str, limit: int) -> int | None:
    """`text` as a whole number 0..limit if it is one written in ASCII digits (at most MAX_DIGITS), else None."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_DIGITS:
        return None
    value = int(text)
    return value if value <= limit else None
