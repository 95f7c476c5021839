"""The board's own settings, kept beside its journal for the next games and the next runs: today the seats' LED
palette the host chose (at the set-up menu or on the host's phone). A file `board-settings.json` in the data
directory, `{"palette": "colour-blind"}`; a missing file is the standard colours. Validated on load: a damaged file
is refused in one line that names it and the key, and the board starts with the standard colours meanwhile."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from conquista.rules.textdata import BadText, load_json, shown
from conquista.table.colours import Palette

if TYPE_CHECKING:
    import logging


def _log() -> logging.Logger:
    """This module's logger: `logging` loads when there is something to say, not before a board's first frame."""
    import logging

    return logging.getLogger(__name__)

SETTINGS_NAME = "board-settings.json"


class SettingsError(ValueError):
    """A settings file that cannot be used (the message names the file, the key and what to do)."""


def read_palette(path: Path) -> Palette:
    """The palette saved in `path`; the standard one when there is no file. Raises SettingsError."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Palette.STANDARD
    except OSError as exc:
        raise SettingsError(f"{path}: cannot be read ({exc.strerror}); delete it to start from the standard "
                            f"colours") from None
    try:
        data = load_json(text)
    except BadText as exc:
        raise SettingsError(f"{path}: not JSON ({exc}); delete it to start from the standard colours") from None
    if not isinstance(data, dict):
        raise SettingsError(f"{path}: must be a JSON object like {{\"palette\": \"standard\"}}; delete it to start "
                            f"afresh")
    value = data.get("palette", Palette.STANDARD.value)
    choices = ", ".join(p.value for p in Palette)
    if not isinstance(value, str) or value not in {p.value for p in Palette}:
        raise SettingsError(f"{path}: key 'palette' must be one of {choices}, got {shown(value)}; fix or delete "
                            f"the file")
    return Palette(value)


class BoardSettings:
    """The settings of the board whose data directory holds `path`; `keep(palette)` saves a palette that changed
    (the runner calls it as time passes, so every way of choosing one is kept)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.palette = read_palette(path)
        except SettingsError as exc:
            _log().warning("%s", exc)
            self.palette = Palette.STANDARD
        self._saved = self.palette

    @classmethod
    def beside(cls, journal_path: Path) -> BoardSettings:
        return cls(journal_path.parent / SETTINGS_NAME)

    def keep(self, palette: Palette) -> None:
        if palette is self._saved:
            return
        self._saved = self.palette = palette   # once: a disk that refuses is not asked again every frame
        import json

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(self.path.name + ".new")
            temporary.write_text(json.dumps({"palette": palette.value}) + "\n", encoding="utf-8")
            temporary.replace(self.path)
        except OSError as exc:
            _log().warning("%s: the LED colours chosen are not saved for the next run (%s)", self.path, exc.strerror)
