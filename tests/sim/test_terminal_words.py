"""The terminal's words and layout (issue 21 §3): a terminal too narrow for the grid lists the map by continent
instead of wrapping its rows into each other; `log` wraps between words; no engine name reaches a person; "turn
to change" only where turning changes something; no chance short of certain reads 100%."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from conquista.cli import main
from conquista.rules.events import Phase
from conquista.rules.ruleset import SET_KINDS
from conquista.table.gestures import Button, Press, Tap
from conquista.table.wording import percent, phase_words, set_words
from conquista_sim import SimulatedTable
from conquista_sim.board_view import render
from conquista_sim.names import CODES
from conquista_sim.terminal import TerminalBoard
from tests.rules.helpers import position, tid

ENGINE_NAME = re.compile(r"\b[a-z]+_[a-z_]+\b")


def shown(table: SimulatedTable, width: int, height: int) -> list[str]:
    console = Console(width=width, height=height, record=True, color_system=None, file=open("/dev/null", "w"))
    console.print(render(table, width, height))
    return console.export_text().rstrip("\n").split("\n")


@pytest.mark.parametrize(("width", "height"), [(60, 20), (40, 15), (78, 30)])
def test_a_narrow_terminal_lists_the_map_by_continent(width: int, height: int) -> None:
    with SimulatedTable("italian", 3, seed=1, bots=(1, 2)) as table:
        lines = shown(table, width, height)
    text = "\n".join(lines)
    assert f"this terminal is {width}×{height}" in text
    assert max(len(line) for line in lines) <= width
    board = [line for line in lines if line.startswith("│")]
    for code in CODES.values():           # every territory once, whole, with its count
        assert len(re.findall(rf"\b{code} +[A-Z]\d+\b", "\n".join(board))) == 1, code


def test_log_wraps_between_words() -> None:
    console = Console(width=80, record=True, color_system=None, file=open("/dev/null", "w"))
    with SimulatedTable("italian", 3, seed=2, bots=(0, 1, 2)) as table:
        table.play_bots_until_over(max_seconds=60)
        TerminalBoard(table, console).show_log(40)
        log = table.log[-40:]
    printed = console.export_text()
    assert max(len(line) for line in printed.splitlines()) <= 80
    assert printed.split() == " ".join(log).split()      # the same words, none cut in two


def test_no_phase_or_set_is_shown_by_its_engine_name() -> None:
    for phase in Phase:
        assert "_" not in phase_words(phase.value), phase
    for kind in (*SET_KINDS, "eagle", "four_figures"):
        assert "_" not in set_words(kind), kind
    assert set_words("jolly_mixed") == "a jolly and two different cards"


@pytest.mark.parametrize(("rules", "players"), [("french-1976-duel", 2), ("lamorisse-1954", 3), ("italian", 3),
                                                   ("french-1976", 4)])
def test_a_game_log_in_words_names_nothing_by_its_engine_name(rules: str, players: int,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--rules", rules, "--players", str(players), "--games", "2", "--seed", "3",
                 "--show-log"]) == 0
    words = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    found = sorted({m for line in words for m in ENGINE_NAME.findall(line)})
    assert found == []
    assert not any("jolly mixed" in line or "trades four figures" in line for line in words)


def test_turn_to_change_only_where_turning_changes_the_dice() -> None:
    for defending, expected in ((1, False), (4, True)):
        game = position("french-1976", players=3, owners={"alaska": 0},
                        armies={"alaska": 5, "kamchatka": defending}, automatic_defence=False)
        with SimulatedTable(game=game) as table:
            ref = table.referee
            ref.handle(Tap(tid("alaska")), 1.0)
            ref.handle(Tap(tid("kamchatka")), 1.1)
            ref.handle(Press(Button.ROLL), 1.2)
            if ref.game.phase is not Phase.DEFEND:
                continue                  # a defender without a choice is not asked at all (the rules' change)
            assert ("(turn to change)" in ref.status().pending) is expected, ref.status().pending


def test_no_chance_short_of_certain_reads_100_percent() -> None:
    assert percent(0.996) == ">99%" and percent(0.9999) == ">99%" and percent(1.0) == "100%"
    assert percent(0.004) == "<1%" and percent(0.0) == "0%" and percent(0.5) == "50%"
    assert percent(0.996, " ") == ">99 %"      # a bot's line: "red attacks Quebec from Greenland: >99 % to take it"
