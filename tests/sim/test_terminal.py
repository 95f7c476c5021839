"""The terminal view: name lookup, command parsing, scripted sessions, the demo, and the `sim` command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from conquista.errors import ConquistaError
from conquista.rules.mapdata import load_map
from conquista_sim import SimulatedTable
from conquista_sim.board_view import render
from conquista_sim.names import NameIndex
from conquista_sim.terminal import parse_command, run_interactive, run_script

NAMES = NameIndex(load_map())


@pytest.mark.parametrize(
    ("typed", "territory"),
    [("alaska", "alaska"), ("Perù", "peru"), ("PERU", "peru"), ("Stati Uniti Orientali", "eastern_us"),
     ("Territori del Nord Ovest", "northwest_territory"), ("madag", "madagascar"), ("Groenlandia", "greenland")],
)
def test_names_in_english_or_italian(typed: str, territory: str) -> None:
    assert NAMES.resolve(typed) == territory


def test_ambiguous_and_unknown_names() -> None:
    with pytest.raises(ConquistaError, match="could be"):
        NAMES.resolve("western")
    with pytest.raises(ConquistaError, match="no territory or command 'atlantis'"):
        NAMES.resolve("atlantis")


def test_commands() -> None:
    assert parse_command("roll", NAMES).kind == "press"
    assert parse_command("blitz", NAMES).arg == "roll" and parse_command("blitz", NAMES).kind == "hold"
    assert parse_command("+3", NAMES).number == 3 and parse_command("-2", NAMES).number == -2
    assert parse_command("long brasile", NAMES).arg == "brazil"
    assert parse_command("wait 2.5", NAMES).number == 2.5
    assert parse_command("push", NAMES).arg == "encoder"


def test_script_plays_the_persons_moves() -> None:
    lines: list[str] = []
    with SimulatedTable("french-1976", 2, seed=3, bots=(1,), think_time=0.2) as table:
        while table.game.current != 0:
            table.advance(0.2)
        mine = table.game.map.id(table.game.owner.index(0))
        pool = table.game.pool
        run_script(table, [f"{mine}   # tap my territory", f"+{pool - 1}", "next"], lines.append)
        assert table.game.armies[table.game.map.index(mine)] >= pool  # the whole setup reserve went there
        # The bot then placed its own; back at the person's reinforcement, NEXT is refused with a reason.
        assert table.game.phase.value == "reinforce" and table.game.current == 0
        assert any(line.startswith("[line 3: next]") for line in lines)


def test_script_errors_name_the_line() -> None:
    with SimulatedTable("classic", 2, seed=3) as table, pytest.raises(ConquistaError, match="script line 2"):
        run_script(table, ["wait 1", "atlantis"], print)


def test_render_shows_every_territory_and_the_panel() -> None:
    with SimulatedTable("italian", 3, seed=1) as table:
        console = Console(width=160, record=True, color_system="truecolor")
        console.print(render(table))
        text = console.export_text()
        assert "Alaska" in text and "Madagas" in text and "dice" in text and "ring" in text
        assert "place 3 armies" in text


def test_interactive_session_with_typed_lines() -> None:
    with SimulatedTable("classic", 2, seed=8, bots=(1,), think_time=0.2) as table:
        typed = iter(["help", "atlantis", "quit"])
        console = Console(width=160, record=True)
        run_interactive(table, console, read=lambda prompt: next(typed), speed=0)
        out = console.export_text()
        assert "commands:" in out and "no territory or command 'atlantis'" in out


def test_sim_command_without_terminal_plays_a_demo(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "conquista", "sim", "--players", "2", "--rules", "classic",
                           "--seed", "3", "--think", "0.1"], capture_output=True, text=True, check=False,
                          stdin=subprocess.DEVNULL, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "bots play every seat" in proc.stderr and "wins: world domination" in proc.stdout


def test_sim_command_script(tmp_path: Path) -> None:
    script = tmp_path / "session.txt"
    script.write_text("wait 1\nnext\n")
    proc = subprocess.run([sys.executable, "-m", "conquista", "sim", "--script", str(script), "--seed", "2",
                           "--bots", "1,2"], capture_output=True, text=True, check=False, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "[line 2: next]" in proc.stdout
    missing = subprocess.run([sys.executable, "-m", "conquista", "sim", "--script", str(tmp_path / "no.txt")],
                             capture_output=True, text=True, check=False)
    assert missing.returncode == 2 and "cannot read the script" in missing.stderr
