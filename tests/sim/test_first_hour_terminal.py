"""The simulated board at a real terminal (a pty), as a newcomer meets it after `make run` (issue 30): the commands
it prints run as printed, --speed speeds the bots at the prompt, the prompt comes back under the board, no half QR
code, and Ctrl-C says where the game is saved."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from tests.terminal_session import CONQUISTA, ROOT, TerminalSession

# Seed 7 deals blue and yellow the first two placements, so the bots play before the person's first prompt.
MAKE_RUN = ["sim", "--rules", "italian", "--players", "3", "--bots", "blue,yellow", "--seed", "7"]
RED_PLACES = r"· red · initial placement"


def _started_as_make_run_does() -> str:
    """The venv's conquista by the path `make run` uses, relative to the project."""
    return os.path.relpath(CONQUISTA, ROOT)


def _without_the_venv(tmp_path: Path) -> dict[str, str]:
    """A person's environment: the venv never activated (its bin not on PATH), games saved under `tmp_path`."""
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                           if Path(p).resolve() != CONQUISTA.parent.resolve())
    return {"PATH": path, "XDG_DATA_HOME": str(tmp_path / "data")}


def test_quit_names_a_command_that_resumes_the_game_as_printed(tmp_path: Path) -> None:
    env = _without_the_venv(tmp_path)
    with TerminalSession([_started_as_make_run_does(), *MAKE_RUN, "--think", "0.05", "--no-web"], env=env) as t:
        t.wait_for(RED_PLACES)
        t.type("quit\n")
        assert t.finish() == 0
        said = t.wait_for(r"`([^`]*sim --resume 1[^`]*)` goes on with it").group(1)
    assert said.startswith(".venv/bin/conquista ") or said.startswith(_started_as_make_run_does())
    with TerminalSession(shlex.split(said), env=env) as again:
        again.wait_for(RED_PLACES)
        assert "yellow places 3 armies" in again.text   # the saved game, not a new one
        again.type("quit\n")
        assert again.finish() == 0


def test_speed_speeds_the_bots_at_the_prompt(tmp_path: Path) -> None:
    """Bots thinking a minute a gesture at --speed 1000: their placements take moments, not minutes (real time
    would pass at least two minutes before the person's first placement)."""
    with TerminalSession([str(CONQUISTA), *MAKE_RUN, "--think", "60", "--speed", "1000", "--no-web",
                          "--data-dir", str(tmp_path)]) as t:
        t.wait_for(RED_PLACES, timeout=60)
        assert "blue places 3 armies" in t.text and "yellow places 3 armies" in t.text
        t.type("quit\n")
        assert t.finish() == 0


def test_the_prompt_comes_back_under_the_board_after_the_bots_turns(tmp_path: Path) -> None:
    with TerminalSession([str(CONQUISTA), *MAKE_RUN, "--think", "0.05", "--speed", "100",
                          "--data-dir", str(tmp_path)]) as t:
        t.wait_for(RED_PLACES)
        t.read_for(1.5)
        screen_ends = t.text.rstrip("\n").splitlines()[-1]
        assert screen_ends == "> ", f"the screen ends with {screen_ends!r}"
        t.type("alas")       # typed half-way when the board is redrawn: still there under it
        t.type("ka\n")
        t.wait_for(r"Alaska is not yours")   # yellow's: the whole name came through
        t.type("quit\n")
        assert t.finish() == 0


@pytest.mark.parametrize(("columns", "rows", "whole"), [(134, 40, False), (200, 70, True)])
def test_a_qr_code_is_shown_whole_or_not_at_all(tmp_path: Path, columns: int, rows: int, whole: bool) -> None:
    with TerminalSession([str(CONQUISTA), *MAKE_RUN, "--think", "0.05", "--web", "127.0.0.1:0",
                          "--data-dir", str(tmp_path)], columns=columns, rows=rows) as t:
        t.wait_for(RED_PLACES)
        t.read_for(0.5)
        t.type("quit\n")
        assert t.finish() == 0
    codes = [line for line in t.text.splitlines() if "█" in line]
    if whole:
        assert codes and "a larger terminal shows its QR code" not in t.text
    else:
        assert not codes, "\n".join(codes)
        assert "a larger terminal shows its QR code" in t.text


def test_ctrl_c_says_where_the_game_is_saved(tmp_path: Path) -> None:
    with TerminalSession([str(CONQUISTA), *MAKE_RUN, "--think", "0.05", "--no-web",
                          "--data-dir", str(tmp_path)]) as t:
        t.wait_for(RED_PLACES)
        t.read_for(0.3)
        t.interrupt()
        assert t.finish() == 130
    assert re.search(r"the game is saved in .* as game 1; `\S*conquista sim --resume 1 --data-dir \S*` goes on with it",
                     t.text), t.text[-2000:]
    assert "conquista: interrupted" in t.text
