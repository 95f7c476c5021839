"""The pictures in docs/playing.md are what the real scene code paints today."""

from __future__ import annotations

from pathlib import Path

from conquista_sim.pictures import pictures

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "img"
PLAYING = Path(__file__).resolve().parents[2] / "docs" / "playing.md"


def test_the_committed_pictures_are_up_to_date() -> None:
    fresh = pictures()
    stale = [name for name, text in fresh.items()
             if not (IMAGES / name).exists() or (IMAGES / name).read_text(encoding="utf-8") != text]
    assert stale == [], "regenerate them: .venv/bin/python -m conquista_sim.pictures docs/img"


def test_every_picture_is_shown_in_playing_md() -> None:
    text = PLAYING.read_text(encoding="utf-8")
    assert [name for name in pictures() if f"img/{name}" not in text] == []
