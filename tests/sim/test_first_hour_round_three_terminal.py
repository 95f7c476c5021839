"""The simulated board at a real terminal (a pty), round three of the first hour (issue 39): the commitment of
committed dice stays on the screen until the end; a line per player; Enter and `map` redraw."""

from __future__ import annotations

import re
from pathlib import Path

from tests.terminal_session import CONQUISTA, TerminalSession

MAKE_RUN = ["sim", "--rules", "italian", "--players", "3", "--bots", "blue,yellow", "--seed", "7"]
RED_PLACES = r"· red · initial placement"


def _last_frame(text: str) -> str:
    """The last board drawn: from its map's top frame on."""
    return text[text.rindex("╭"):]


def test_the_commitment_stays_on_the_screen(tmp_path: Path) -> None:
    with TerminalSession([str(CONQUISTA), *MAKE_RUN, "--think", "0.05", "--no-web", "--dice", "committed",
                          "--data-dir", str(tmp_path)]) as t:
        commitment = t.wait_for(r"commitment ([0-9a-f]{64})").group(1)
        t.wait_for(RED_PLACES)
        since = len(t.text)
        t.type("log 1\n")
        t.type("wait 1\n")
        t.wait_for(r"> $", since=since)
        t.read_for(0.5)
        assert f"commitment {commitment}" in _last_frame(t.text)
        t.type("quit\n")
        assert t.finish() == 0
    assert re.search(r"the seed stays secret", t.text)


def test_a_line_per_player_and_enter_or_map_redraws(tmp_path: Path) -> None:
    """Issue 39 §7: under the board a line per player (territories, armies, cards, income, what plays it); an empty
    Enter and `map` redraw the board instead of printing the help."""
    with TerminalSession([str(CONQUISTA), *MAKE_RUN, "--bots", "blue:hard,yellow", "--think", "0.05", "--no-web",
                          "--data-dir", str(tmp_path)]) as t:
        t.wait_for(RED_PLACES)
        t.read_for(0.5)
        frame = _last_frame(t.text)
        assert re.search(r"■R red +\d+ territories · +\d+ armies · 0 cards · income \d+ · person", frame), frame
        assert re.search(r"■B blue .* · hard bot", frame) and re.search(r"■Y yellow .* · normal bot", frame)
        for typed in ("\n", "map\n"):
            since = len(t.text)
            t.type(typed)
            t.wait_for(r"╰", since=since)       # the board's frame drawn again
            t.read_for(0.3)
            assert "commands: a territory name" not in t.text[since:]
        t.type("quit\n")
        assert t.finish() == 0


CLEAR = "\x1b[2J"


def test_each_frame_is_drawn_in_place(tmp_path: Path) -> None:
    """Issue 39 §7: a new frame clears the screen first, so the old frame's bottom never shows above it."""
    with TerminalSession([str(CONQUISTA), *MAKE_RUN, "--think", "0.05", "--no-web", "--data-dir", str(tmp_path)]) as t:
        t.wait_for(RED_PLACES)
        t.read_for(0.5)
        since = len(t.raw)
        t.type("map\n")
        t.wait_for(r"╰", since=len(t.text))
        t.read_for(0.3)
        drawn = t.raw[since:].decode("utf-8", "replace")    # the escape codes too
        assert CLEAR in drawn and drawn.index(CLEAR) < drawn.index("╭"), repr(drawn[:200])
        t.type("quit\n")
        assert t.finish() == 0


CLASSIC_DUO = ["sim", "--rules", "classic", "--players", "2", "--bots", "blue", "--seed", "7", "--think", "0.05",
               "--no-web"]


def test_next_says_what_is_left_and_the_last_army_starts_the_attack(tmp_path: Path) -> None:
    """Issue 39 §5 and §6 at the terminal: NEXT in the initial placement says how many armies are left (not "finish
    this step first"); the last army of the reinforcements starts the attack with no NEXT, and says so."""
    with TerminalSession([str(CONQUISTA), *CLASSIC_DUO, "--data-dir", str(tmp_path)]) as t:
        left = int(t.wait_for(r"· red · initial placement\nplace (\d+) armies: tap your territories").group(1))
        t.wait_for(r"> $", since=len(t.text) - 2)
        since = len(t.text)
        t.type("next\n")
        t.wait_for(rf"! place your {left} remaining armies first", since=since)
        _command(t, "quebec")
        since = len(t.text)
        t.type(f"+{left - 1}\n")
        income = int(t.wait_for(r"· red · reinforce\nplace (\d+) armies", since=since).group(1))
        _command(t, "quebec")
        since = len(t.text)
        t.type(f"+{income - 1}\n")
        t.wait_for(r"· red · attack\ntap a territory to attack from, or NEXT to fortify\n"
                   r"every army is placed: the attack begins \(CANCEL takes the last one back\)", since=since)
        t.type("quit\n")
        assert t.finish() == 0


def _command(t: TerminalSession, line: str) -> None:
    """Type `line` once the prompt is up, and wait for the prompt after it."""
    since = len(t.text)
    t.type(f"{line}\n")
    t.wait_for(r"> $", since=since)
