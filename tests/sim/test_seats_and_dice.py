"""Seats by colour, missions as they stand, dice sources on the command line, auditing a saved game and jumping
ahead in `replay --step` (issue 13 §4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console

from conquista.cli import main
from conquista.cli.common import parse_seats
from conquista.cli.replay_cmd import Jump, parse_jump, step
from conquista.errors import ConquistaError
from conquista.journal import open_store
from conquista.rules.actions import Deal
from conquista.rules.engine import Game
from conquista.rules.rulesets import load_ruleset
from conquista.table.logview import describe_game, mission_as_it_stands
from tests.rules.helpers import MAP

COLOURS = ("red", "blue", "yellow", "green", "purple", "black")


def test_seats_by_colour_or_number() -> None:
    assert parse_seats("blue,yellow", COLOURS, 3) == (1, 2)
    assert parse_seats("1, 2", COLOURS, 3) == (1, 2) and parse_seats("Blue,0", COLOURS, 3) == (0, 1)
    assert parse_seats("", COLOURS, 3) == ()
    with pytest.raises(ConquistaError, match=r"'green' is not a seat of this 3-player game; name seats by colour "
                                             r"\(red, blue, yellow\) or number \(0..2\)"):
        parse_seats("green", COLOURS, 3)
    with pytest.raises(ConquistaError, match="'3' is not a seat"):
        parse_seats("3", COLOURS, 3)


def test_sim_takes_bots_by_colour(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.txt"
    script.write_text("wait 1\n")
    assert main(["sim", "--script", str(script), "--seed", "3", "--bots", "red,yellow", "--think", "0.1"]) == 0
    out = capsys.readouterr().out
    # Red (a bot) placed its first armies; blue, the person, is now to place them.
    assert "red places 3 armies" in out and "blue places" not in out
    assert out.endswith("# place 3 armies: tap your territories\n")
    assert main(["sim", "--script", str(script), "--bots", "purple"]) == 2
    assert "'purple' is not a seat of this 3-player game" in capsys.readouterr().err


def test_simulate_names_seats_by_colour(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--rules", "italian", "--players", "3", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "(3 players: red normal, blue normal, yellow normal; seed 1)" in out
    assert re.search(r"wins per seat +red \d+ +blue \d+ +yellow \d+", out)


def test_missions_as_they_stand() -> None:
    rules = load_ruleset("italian")
    # Mission 12 destroys the fourth colour (green), not in play with three players; 9 is red's own colour.
    game = Game(rules, MAP, 3, Deal(tuple(range(42)), 0, (12, 9, 10)))
    assert mission_as_it_stands(game, 0) == \
        "Conquer 24 territories (instead of destroying green: that colour is not in play)"
    assert mission_as_it_stands(game, 1) == "Destroy every red army"
    assert mission_as_it_stands(game, 2) == "Destroy every blue army"
    game = Game(rules, MAP, 3, Deal(tuple(range(42)), 0, (9, 1, 2)))
    lines = list(describe_game(game))
    assert "  secret mission of red: Conquer 24 territories (instead of destroying red: that is its own colour)" \
        in lines
    assert not any("destroy" in line.lower() and "green" in line for line in lines)


def test_simulate_show_log_never_names_a_colour_out_of_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--rules", "italian", "--players", "3", "--games", "12", "--seed", "2",
                 "--show-log"]) == 0
    missions = [line for line in capsys.readouterr().out.splitlines() if "secret mission" in line]
    assert len(missions) == 36
    for line in missions:
        assert not re.search(r"Destroy every (green|purple|black) army", line), line


def test_committed_dice_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.txt"
    script.write_text("wait 600\n")
    data = tmp_path / "data"
    assert main(["sim", "--script", str(script), "--seed", "4", "--bots", "red,blue,yellow", "--think", "0.05",
                 "--dice", "committed", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    commitment = re.search(r"committed dice: commitment ([0-9a-f]{64}) \(the seed is revealed", out)
    assert commitment
    revealed = re.search(r"committed dice: the seed was ([0-9a-f]{64})", out)
    assert revealed and revealed.group(1) not in out.split("committed dice: the seed was")[0]  # secret until then
    store = open_store(data)
    rolls = [line for line in store.log_lines(1) if '"roll"' in line or '"Roll"' in line]
    store.close()
    assert rolls and all("committed" in line for line in rolls)
    # The saved game carries the commitment (never the seed): the revealed seed re-derives every roll.
    assert main(["dice", "audit", "1", "--data-dir", str(data), "--verify-seed", revealed.group(1)]) == 0
    audit = capsys.readouterr().out
    assert "the seed (--verify-seed) matches the commitment" in audit and audit.rstrip().endswith("PASS")
    assert main(["dice", "audit", "1", "--data-dir", str(data), "--verify-seed", "00" * 32]) != 0


def test_physical_dice_need_a_person(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.txt"
    script.write_text("wait 1\n")
    assert main(["sim", "--script", str(script), "--demo", "--physical-dice"]) == 2
    assert "--physical-dice needs a person at the board" in capsys.readouterr().err


def test_physical_dice_reach_the_simulated_referee(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import conquista_sim.table

    tables: list[conquista_sim.table.SimulatedTable] = []

    class Recording(conquista_sim.table.SimulatedTable):
        def __enter__(self) -> conquista_sim.table.SimulatedTable:
            tables.append(self)
            return self

    monkeypatch.setattr(conquista_sim.table, "SimulatedTable", Recording)
    script = tmp_path / "s.txt"
    script.write_text("wait 1\n")
    assert main(["sim", "--script", str(script), "--bots", "blue", "--physical-dice", "--dice", "os"]) == 0
    assert tables[0].referee.physical_dice and tables[0].referee.dice.name == "os"


def test_dice_audit_of_a_saved_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.txt"
    script.write_text("wait 300\n")
    data = tmp_path / "data"
    assert main(["sim", "--script", str(script), "--seed", "5", "--bots", "0,1,2", "--think", "0.05",
                 "--data-dir", str(data)]) == 0
    capsys.readouterr()
    assert main(["dice", "audit", "1", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert f"{data / 'games.sqlite3'}, game 1: ruleset italian" in out and "PASS" in out
    assert re.search(r"(\d+) rolls \(seeded \1\)", out)
    assert main(["dice", "audit", "7", "--data-dir", str(data)]) == 2
    assert "no saved game 7" in capsys.readouterr().err


def test_replay_step_jumps_ahead() -> None:
    assert parse_jump("", 4, 100) == Jump(action=5)
    assert parse_jump("+10", 4, 100) == Jump(action=14) and parse_jump("+500", 4, 100) == Jump(action=100)
    assert parse_jump("turn 7", 4, 100) == Jump(turn=7) and parse_jump("end", 4, 100) == Jump(action=100)
    assert parse_jump("q", 4, 100).quit
    with pytest.raises(ConquistaError, match="cannot understand 'sideways'"):
        parse_jump("sideways", 4, 100)
    rules = load_ruleset("classic")
    from conquista.bots.simulate import play_game

    game = play_game(rules, MAP, 2, ["greedy"], "jump", turn_cap=0).game
    assert game is not None
    typed = iter(["+5", "nonsense", "turn 3", "end"])
    console = Console(width=140, height=40, record=True, color_system=None)
    step(game, read=lambda prompt: next(typed), console=console)
    text = console.export_text()
    shown = [int(n) for n in re.findall(r"action (\d+)/\d+:", text)]
    total = len(game.log) - 1
    assert shown[:2] == [1, 6] and shown[-1] == total and len(shown) == 4
    turns = [int(t) for t in re.findall(r"· turn (\d+)", text)]
    assert turns[2] == 3 and "cannot understand 'nonsense'" in text


@pytest.mark.parametrize(("option", "value", "says"), [("--think", "0", "--think takes 0.01 to 60"),
                                                       ("--think", "nan", "--think takes 0.01 to 60"),
                                                       ("--speed", "-1", "--speed takes 0 (no pause) to 1000")])
def test_pace_options_are_bounded(option: str, value: str, says: str, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.txt"
    script.write_text("wait 1\n")
    assert main(["sim", "--script", str(script), option, value]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_replay_step_of_an_unfinished_game_hides_the_cards_drawn_and_the_digest() -> None:
    from conquista.bots.simulate import play_game
    from conquista.rules.actions import Draw

    game = play_game(load_ruleset("classic", {"automatic_defence": True}), MAP, 2, ["greedy"], "hidden",
                     turn_cap=12).game
    assert game is not None and not game.over
    drawn = [MAP.territories[a.card].name_en for a in game.log if isinstance(a, Draw) and a.card < MAP.size]
    assert drawn
    hidden = Console(width=140, height=40, record=True, color_system=None)
    step(game, console=hidden, reveal=False)
    text = hidden.export_text()
    assert "draw a card" in text and not any(f"draw card {name}" in text for name in drawn)
    assert "digest " + game.digest() not in text and "the game is not finished" in text
    shown = Console(width=140, height=40, record=True, color_system=None)
    step(game, console=shown, reveal=True)
    assert f"draw card {drawn[0]}" in shown.export_text()
