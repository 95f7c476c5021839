"""Tests build positions through `Game.from_snapshot()` (tests.rules.helpers.position / edited), never by writing
into the engine's fields: a field written by hand skips the engine's own checks and its undo history."""

from __future__ import annotations

import re
from pathlib import Path

from conquista.rules.state import FIELD_NAMES

TESTS = Path(__file__).resolve().parents[1]
# `game.pool = 5`, `ref.game.hands[0] = [...]`, `game.phase, game.pool = ...`: an attribute of something named
# game that is a state field, assigned (not compared).
WRITE = re.compile(r"\bgame\.(\w+)(\[[^\]]*\])?\s*(,[^=\n]*)?=(?!=)")


def test_no_test_writes_into_the_engines_fields() -> None:
    found = []
    for path in sorted(p for p in TESTS.rglob("*.py") if p != Path(__file__).resolve()):
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            for match in WRITE.finditer(line):
                if match.group(1) in FIELD_NAMES:
                    found.append(f"{path.relative_to(TESTS)}:{number}: {line.strip()}")
    assert found == []


def test_the_pattern_sees_a_write() -> None:
    assert WRITE.search("    game.pool = 5") and WRITE.search("ref.game.hands[0] = cards")
    assert WRITE.search("game.phase, game.pool = Phase.REINFORCE, 0")
    assert not WRITE.search("assert game.pool == 5")
