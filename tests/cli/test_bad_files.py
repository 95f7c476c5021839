"""Files that load but cannot make a game (issue 21 §3): a map smaller than the table, a ruleset whose seats share a
colour, one that extends an unknown ruleset or lists a mission twice. Each is one line naming the file and the key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.errors import MapError
from conquista.rules.actions import Deal
from conquista.rules.engine import Game
from conquista.rules.mapdata import parse_map
from conquista.rules.rulesets import COLOUR_ALIASES, PLAYER_COLOURS, builtin_rulesets, load_ruleset
from conquista.table.colours import PLAYER_RGB, WHITE_ALIAS

TWO_TERRITORIES = {
    "name": "tiny", "description": "two territories",
    "continents": [{"id": "c", "name_en": "C", "name_it": "C", "bonus": 1, "territories": ["a", "b"]}],
    "territories": [{"id": "a", "name_en": "A", "name_it": "A", "card": "infantry"},
                    {"id": "b", "name_en": "B", "name_it": "B", "card": "cavalry"}],
    "links": [{"a": "a", "b": "b", "sea": False}],
}


def one_error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_map_with_fewer_territories_than_players_is_one_line_naming_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TWO_TERRITORIES))
    err = one_error_line(capsys, ["simulate", "--rules", "classic", "--map", str(path), "--players", "3",
                                  "--games", "1"])
    assert f"{path}: the map has 2 territories, fewer than the 3 players" in err
    assert "--players 2 or fewer" in err
    assert main(["simulate", "--rules", "classic", "--map", str(path), "--players", "2", "--games", "1"]) == 0


@pytest.mark.parametrize("rules", ["classic", "lamorisse-1954", "french-1976-domination"])
def test_the_engine_refuses_a_table_bigger_than_the_map(rules: str) -> None:
    """Every way into a game (sim, play, a script), not only `simulate`: no player may be dealt nothing."""
    game_map = parse_map(TWO_TERRITORIES, "tiny.json")
    with pytest.raises(MapError, match="map 'tiny' has 2 territories, fewer than the 3 players"):
        Game(load_ruleset(rules), game_map, 3, Deal(territory_order=(0, 1), first_player=0))


def _ruleset(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(("text", "expected"), [
    ('extends = "italian"\ncolours = ["red", "red", "yellow", "green", "purple", "black"]\n',
     "'colours' gives seats 1 and 2 the same colour"),
    ('extends = "italian"\ncolours = ["red", "blue", "yellow", "green", "white", "black"]\n',
     "'colours' gives seats 5 and 6 the same colour ('white' and 'black' light alike)"),
    ('extends = "italian"\ncolours = ["red", "orange", "yellow", "green", "purple", "black"]\n',
     "'colours' has 'orange', which the board cannot light"),
    ('extends = "nosuch"\n', "'extends' names unknown ruleset 'nosuch'; known rulesets: classic"),
    ('extends = [' + "1, " * 500 + '1]\n', "'extends' must name a ruleset"),
    ('extends = "italian"\nmissions = [1, 2, 3, 4, 5, 6, 7, 1]\n',
     "'missions' lists mission 1 more than once"),
])
def test_a_bad_ruleset_file_is_one_line_naming_the_file_and_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str) -> None:
    path = _ruleset(tmp_path, text)
    err = one_error_line(capsys, ["rules", str(path)])
    assert f"ruleset {path}: {expected}" in err
    assert len(err) < 400, err


def test_the_ruleset_colours_are_the_ones_the_board_can_light() -> None:
    assert set(PLAYER_COLOURS) == set(PLAYER_RGB)
    assert COLOUR_ALIASES == {WHITE_ALIAS: "black"}
    for name in builtin_rulesets():
        load_ruleset(name)  # every shipped ruleset passes its own checks
