"""The board's settings file: the LED palette kept for the next runs, validated on load."""

from __future__ import annotations

from pathlib import Path

import pytest

from conquista.app.board_settings import SETTINGS_NAME, BoardSettings, SettingsError, read_palette
from conquista.table.colours import Palette


def test_a_palette_is_kept_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "data" / SETTINGS_NAME
    settings = BoardSettings(path)
    assert settings.palette is Palette.STANDARD and not path.exists()
    settings.keep(Palette.STANDARD)
    assert not path.exists()                      # nothing changed: nothing written
    settings.keep(Palette.COLOUR_BLIND)
    assert read_palette(path) is Palette.COLOUR_BLIND
    assert BoardSettings.beside(tmp_path / "data" / "games.sqlite3").palette is Palette.COLOUR_BLIND


@pytest.mark.parametrize(("text", "words"), [
    ("{", "not JSON"),
    ("[1]", "must be a JSON object"),
    ('{"palette": "sepia"}', "key 'palette' must be one of standard, colour-blind, got 'sepia'"),
])
def test_a_damaged_file_is_refused_in_one_line(tmp_path: Path, text: str, words: str,
                                               caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / SETTINGS_NAME
    path.write_text(text)
    with pytest.raises(SettingsError) as refused:
        read_palette(path)
    message = str(refused.value)
    assert message.startswith(str(path)) and words in message and "\n" not in message
    assert BoardSettings(path).palette is Palette.STANDARD   # the board still starts
    assert words in caplog.text


def test_playing_md_names_the_file() -> None:
    playing = (Path(__file__).resolve().parents[2] / "docs" / "playing.md").read_text(encoding="utf-8")
    assert f"`{SETTINGS_NAME}`" in playing and '{"palette": "colour-blind"}' in playing
