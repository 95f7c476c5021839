"""The set-up menu on the simulated board: chosen with the encoder and the buttons, shown on the ring and in the
terminal's words; the game it returns starts with its bots seated; `sim --menu` from a script."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from conquista.app.setup import NewGameAtBoard
from conquista.dice.chance import new_game
from conquista.rules.events import Phase
from conquista.table.colours import OFF
from conquista_sim import SimulatedTable
from conquista_sim.board_view import render
from conquista_sim.terminal import run_interactive


def at_menu(table: SimulatedTable) -> None:
    import random

    def deal(rules, players):  # type: ignore[no-untyped-def]
        return new_game(rules, table.game.map, players, random.Random(9))

    NewGameAtBoard(deal, table.bot_seats, table.router, rules="italian", players=3).offer(table.referee)
    table.refresh()


def words(table: SimulatedTable) -> str:
    console = Console(width=134, height=40, record=True, color_system=None)
    console.print(render(table, 134, 40))
    return console.export_text()


def test_the_terminal_shows_the_menu_over_a_dark_map_and_no_stand_in_seats() -> None:
    # The game behind the menu is a stand-in: the terminal, like the board, shows no owner, count, turn or seat of it.
    with SimulatedTable("italian", 3, seed=2, think_time=0.05) as table:
        at_menu(table)
        shown = words(table)
        assert "Alaska" in shown and "R1" not in shown and "B1" not in shown and "Y1" not in shown
        assert "turn 0" not in shown and "you: " not in shown and "a new game is being set up" in shown
        for key in ("roll", "roll", "roll"):
            table.press(key)
        shown = words(table)
        assert table.referee.menu is None and "turn 0, round 0" in shown and "you: red" in shown
        assert any(f"{mark}1" in shown for mark in "RBY")


def test_the_menu_with_buttons_and_knob_starts_a_game_with_a_bot() -> None:
    with SimulatedTable("italian", 3, seed=2, think_time=0.05) as table:
        at_menu(table)
        assert {table.led(t.id) for t in table.game.map.territories} == {OFF}   # no game yet: the map is dark
        assert "set-up 1/3, the rules: italian" in words(table) and "ring: the set-up menu" in words(table)
        table.press("roll")
        table.turn(-1)
        assert "2 players" in table.status().pending
        table.press("next")
        assert table.status().pending.startswith("set-up 1/3")
        table.press("roll")
        table.press("roll")
        table.turn(1)
        table.press("cancel")
        assert "red person, blue bot" in words(table)
        table.press("roll")
        assert table.referee.menu is None and table.game.players == 2 and table.bots == {1}
        assert table.bot_seats.kinds == {1: "normal"}
        assert OFF not in {table.led(t.id) for t in table.game.map.territories}
        while table.game.to_move == 0 and table.game.phase is Phase.SETUP:
            table.tap(table.game.map.id(table.game.owner.index(0)))
        table.advance(1.0)
        assert any(line.startswith("blue places") for line in table.log)       # the bot plays its seat


def test_the_terminal_types_for_the_people_the_menu_chose() -> None:
    with SimulatedTable("italian", 3, seed=2, think_time=0.05) as table:
        at_menu(table)
        typed = iter(["roll", "roll", "+2", "cancel", "roll", "quit"])
        console = Console(width=160, record=True)
        board = run_interactive(table, console, read=lambda prompt: next(typed), speed=0)
        assert board.people == [0, 1] and table.bots == {2}


@pytest.mark.parametrize("extra", [[], ["--data-dir", "DATA"]])
def test_sim_menu_from_a_script(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]) -> None:
    from conquista.cli import main

    script = tmp_path / "menu.txt"
    script.write_text("+1\n-1\nroll\n+1\nroll\n+1\ncancel\nroll\nwait 3\n")
    args = [a.replace("DATA", str(tmp_path / "data")) for a in extra]
    assert main(["sim", "--menu", "--script", str(script), "--seed", "4", "--think", "0.1", *args]) == 0
    out = capsys.readouterr().out
    assert "a new game of italian for 4 players starts" in out and "# place 3 armies" in out


def test_menu_and_demo_do_not_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    from conquista.cli import main

    assert main(["sim", "--menu", "--demo"]) == 2
    assert "--menu and --demo" in capsys.readouterr().err


def test_under_sim_the_web_seats_follow_the_game_chosen_at_the_menu() -> None:
    import argparse

    from conquista.cli.sim_cmd import _menu
    from conquista.cli.table_dice import TableDice
    from conquista.web.companion import Companion
    from conquista.web.seats import SeatBook

    with SimulatedTable("italian", 3, seed=2, think_time=0.05) as table:
        seats = SeatBook(3)
        table.add_phones(Companion(seats))   # the web app: its seats follow the game's one GameStarted
        args = argparse.Namespace(rules="classic", players=4, dice="seeded")
        at_board = _menu(table, None, TableDice("seeded", 3, None, print), 3, args)
        at_board.offer(table.referee)
        for gesture in ("roll", "roll", "turn", "cancel", "roll"):   # classic, 4 players, blue a bot
            table.turn(1) if gesture == "turn" else table.press(gesture)
        assert table.referee.menu is None and table.game.players == 4
        assert (seats.players, seats.bots) == (4, frozenset({1}))
