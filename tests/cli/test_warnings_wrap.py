"""Issue 39 §12: a warning printed at a terminal wraps between words ("asks fo / r" was the terminal cutting a word),
keeps a path or a command whole, and goes to a file or a pipe as one line."""

from __future__ import annotations

import io
import os

import pytest

from conquista.cli.program import fitted

WARNING = ("/home/someone/games/games.sqlite3: unfinished game 3 (italian, 4 players) is not the game "
           "--rules classic asks for, so a new one starts; `--resume 3` plays it on")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_at_a_terminal_a_warning_wraps_between_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shutil.get_terminal_size", lambda fallback=(80, 24): os.terminal_size((40, 24)))
    lines = fitted(WARNING, Terminal(), "conquista sim: ").split("\n")
    assert len(lines) > 1
    words = ("conquista sim: " + WARNING).split()
    assert [w for line in lines for w in line.split()] == words     # no word cut in two
    assert all(len(line) <= 40 or " " not in line for line in lines)
    assert "/home/someone/games/games.sqlite3:" in lines[1]           # too long for a line: kept whole


def test_to_a_file_a_warning_is_one_line() -> None:
    assert fitted(WARNING, io.StringIO(), "conquista sim: ") == "conquista sim: " + WARNING
