"""`mission` and `cards` at the terminal: a lone player sees their own secrets; with several people at the
terminal, the secrets stay on their phones."""

from __future__ import annotations

from rich.console import Console

from conquista.rules.cards import card_symbol
from conquista.rules.missions import mission_text
from conquista_sim import SimulatedTable
from conquista_sim.terminal import TerminalBoard, parse_command
from tests.rules.helpers import edited
from tests.sim.test_terminal import NAMES


def _typed(table: SimulatedTable, line: str) -> str:
    console = Console(width=100, height=40, record=True, color_system=None)
    board = TerminalBoard(table, console, speed=0, join_url="http://192.168.1.20:8080/")
    assert board.handle(line)
    return console.export_text()


def test_the_commands_parse() -> None:
    assert (parse_command("mission", NAMES).kind, parse_command("Cards", NAMES).arg) == ("secret", "cards")


def test_a_lone_player_sees_their_mission_and_cards() -> None:
    with SimulatedTable("italian", 3, seed=4, bots=(1, 2)) as table:
        game = table.game
        table.referee.reset(edited(game, hands=[[3, 17], [5], []]), table.clock.now())
        game = table.game
        mission = _typed(table, "mission")
        assert mission_text(game.missions[0], game.rules.colours) in mission
        assert mission_text(game.missions[1], game.rules.colours) not in mission.replace(
            mission_text(game.missions[0], game.rules.colours), "")
        cards = _typed(table, "cards")
        assert f"{game.map.territories[3].name_en} · {card_symbol(game.map, 3)}" in cards
        assert game.map.territories[17].name_en in cards and game.map.territories[5].name_en not in cards


def test_with_several_people_the_secrets_stay_on_the_phones() -> None:
    with SimulatedTable("italian", 3, seed=4, bots=(2,)) as table:
        game = table.game
        out = _typed(table, "mission")
        assert "several people play at this terminal" in out and "http://192.168.1.20:8080/" in out
        assert not any(mission_text(m, game.rules.colours) in out for m in game.missions)


def test_a_seat_handed_to_a_bot_is_told_at_once_and_its_secrets_go() -> None:
    with SimulatedTable("italian", 3, seed=4, bots=(1, 2)) as table:
        game = table.game
        console = Console(width=100, height=40, record=True, color_system=None)
        board = TerminalBoard(table, console, speed=0)
        board.draw()
        assert "now played by" not in console.export_text(clear=False)
        table.bot_kinds = {0: "hard", 1: "normal", 2: "normal"}   # the host's phone hands red to a bot
        board.draw()
        said = console.export_text()
        assert "red is now played by the hard bot: this terminal no longer types for it" in said
        assert said.count("now played by") == 1
        assert board.handle("mission")
        out = console.export_text()
        assert mission_text(game.missions[0], game.rules.colours) not in out
        assert "no seat is played from this terminal (bots play them all): there is no mission to show" in out
        board.draw()
        assert "now played by" not in console.export_text()   # said once
        table.bots = {1: "normal", 2: "normal"}
        board.draw()
        assert "red is played from this terminal again" in console.export_text()
