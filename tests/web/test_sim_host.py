"""`conquista sim` and the host's phone: no host when the command line set the game up (as `make run` does),
and a bare `conquista sim` lets the first phone granted a seat set up games whose bots the simulated table plays."""

from __future__ import annotations

import pytest

from conquista.cli import build_parser
from conquista.cli.sim_cmd import _host_set_up, set_up_on_command_line
from conquista.dice.sources import CommittedDice, SeededDice
from conquista.web.companion import GameSetUp
from conquista_sim import SimulatedTable


@pytest.mark.parametrize(("argv", "command_line"), [
    (["sim"], False),
    (["sim", "--web", "8080"], False),
    (["sim", "--seed", "4", "--think", "0.1"], False),            # how it plays, not which game
    (["sim", "--rules", "italian", "--players", "3", "--bots", "blue,yellow"], True),   # `make run`
    (["sim", "--rules", "classic"], True),
    (["sim", "--players", "4"], True),
    (["sim", "--bots", "1"], True),
    (["sim", "--resume"], True),
    (["sim", "--new"], True),
    (["sim", "--demo"], True),
    (["sim", "--script", "moves.txt"], True),
])
def test_who_sets_the_game_up(argv: list[str], command_line: bool) -> None:
    assert set_up_on_command_line(build_parser("sim").parse_args(argv)) is command_line


def test_the_simulated_table_plays_the_bots_the_host_chose() -> None:
    args = build_parser("sim").parse_args(["sim"])
    with SimulatedTable("italian", 3, 1, think_time=0.05) as table:
        set_up = _host_set_up(args, table, None, None)
        started = set_up(GameSetUp("italian", 4, ((1, "random"), (2, "greedy"))))
        table.referee.reset(started.game, table.clock.now())        # what the companion does on the board loop
        assert isinstance(started.dice, SeededDice)
        assert table.bots == frozenset({1, 2}) and table.bot_kinds == {1: "random", 2: "greedy"}
        from conquista.bots import RandomBot

        assert isinstance(table.bot_seats._bots[1], RandomBot)                # seat 1 plays its kind
        game = started.game
        for _ in range(400):              # the people place their armies at the board; the bots play their turns
            if any(line.startswith("blue") for line in table.log):
                break
            if game.current in table.bots:
                table.advance(0.5)
            else:
                table.tap(game.map.id(game.owner.index(game.current)))
        assert any(line.startswith("blue") for line in table.log)            # the random bot made a move
        assert isinstance(set_up(GameSetUp("italian", 3, committed_dice=True)).dice, CommittedDice)
