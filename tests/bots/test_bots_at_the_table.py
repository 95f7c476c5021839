"""Bots by kind on the command line, and their moves explained at the table."""

from __future__ import annotations

import pytest

from conquista.bots.roster import seats_of
from conquista.cli import main
from conquista.cli.common import parse_bot_seats, parse_seats
from conquista.cli.sim_cmd import bot_kinds, saved_kinds
from conquista.cli.simulate_cmd import parse_bots
from conquista.errors import ConquistaError
from conquista.rules.actions import Blitz, Fortify
from conquista.rules.events import Phase
from conquista.table.bot_words import explain
from conquista_sim.table import SimulatedTable
from tests.rules.helpers import position, tid

COLOURS = ("red", "blue", "yellow", "green", "purple", "black")


def test_bots_take_an_optional_kind_per_seat() -> None:
    assert parse_bot_seats("blue:planner,yellow", COLOURS, 3) == {1: "planner", 2: "normal"}
    assert parse_bot_seats("0:random, Blue : Planner", COLOURS, 3) == {0: "random", 1: "planner"}
    assert parse_bot_seats("", COLOURS, 3) == {}
    assert parse_seats("blue:planner,yellow", COLOURS, 3) == (1, 2)  # the old question, same answer


def test_an_unknown_kind_names_the_known_ones() -> None:
    known = "known bots: easy, normal, hard, planner, greedy, random"
    with pytest.raises(ConquistaError, match=f"--bots: 'clever' is not a bot; {known}"):
        parse_bot_seats("blue:clever", COLOURS, 3)
    with pytest.raises(ConquistaError, match="unknown bot 'clever'; known bots: easy, normal, hard, planner"):
        parse_bots("planner,clever")
    assert parse_bots("planner,greedy,random") == ["planner", "greedy", "random"]


def test_levels_are_accepted_everywhere_a_bot_is_chosen(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_bot_seats("blue:hard,yellow:easy,red", COLOURS, 3) == {0: "normal", 1: "hard", 2: "easy"}
    assert parse_bots("easy,normal,hard") == ["easy", "normal", "hard"]
    for command in ("play", "sim", "simulate"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        help_text = " ".join(capsys.readouterr().out.split())
        assert all(level in help_text for level in ("easy", "normal", "hard")), command
        assert "a beginner" in help_text and "looks a turn ahead" in help_text, command


def test_demo_seats_every_bot_and_saves_each_kind() -> None:
    kinds = bot_kinds("red:planner", COLOURS, 3, demo=True)
    assert kinds == {0: "planner", 1: "normal", 2: "normal"}
    assert seats_of(4, {1: "planner"}) == ("human", "planner", "human", "human")
    assert saved_kinds(("human", "planner", "greedy")) == {1: "planner", 2: "greedy"}


def test_unknown_kind_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--demo", "--bots", "red:clever", "--seed", "1"]) != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "known bots: easy, normal, hard, planner, greedy, random" in err


def test_a_planner_at_the_simulated_table_explains_its_attacks() -> None:
    with SimulatedTable("italian", 3, seed=4, bots=(0, 1, 2), bot_kinds={0: "planner"}, think_time=0.05) as table:
        table.play_bots_until_over(max_seconds=20_000)
        assert table.game.over
        lines = table.log
    assert any(line.startswith("red attacks ") and "% to take it" in line for line in lines)
    assert any(line.startswith("red moves ") for line in lines)


def test_explanations_in_words() -> None:
    game = position("italian", 2, owners={"ural": 0, "afghanistan": 0}, armies={"ural": 9, "ukraine": 2,
                                                                                  "afghanistan": 3})
    line = explain(game, Blitz(tid("ural"), tid("ukraine"), 1))
    assert line is not None and line.startswith("red attacks Ukraine from Ural: ") and line.endswith("% to take it")
    fortify = position("italian", 2, owners={"ural": 0, "afghanistan": 0}, phase=Phase.FORTIFY,
                       armies={"ural": 9})
    assert explain(fortify, Fortify(tid("ural"), tid("afghanistan"), 8)) == "red moves 8 armies from Ural to " \
                                                                           "Afghanistan"
