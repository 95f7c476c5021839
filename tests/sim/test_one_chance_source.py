"""Every command deals from the game's own chance source (issue 9 §2): `play` and `sim` take the deal, the missions,
the cards and the dice from the source --dice names, never from a generator of their own."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import pytest

from conquista.cli import main
from conquista.dice.chance import GameChance, new_game
from conquista.dice.sources import SeededDice, committed_deal
from conquista.rules.rulesets import load_ruleset
from tests.rules.helpers import MAP

ITALIAN = load_ruleset("italian")
MISSIONS = tuple(ITALIAN.missions)


@pytest.fixture
def boards(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, GameChance]]:
    """`play` without a board: the game and the chance source it would be refereed with are recorded."""
    import conquista.app.board
    import conquista.cli.board_devices
    from conquista.table.referee import Referee

    seen: list[tuple[Any, GameChance]] = []

    def run_board(game: Any, profile: Any, dice: GameChance, *, journal: Any = None, **_: Any) -> Referee:
        referee = Referee(game, dice)
        if journal is not None:
            journal.attach(referee)
        seen.append((game, dice))
        return referee

    monkeypatch.setattr(conquista.app.board, "run_board", run_board)
    monkeypatch.setattr(conquista.cli.board_devices, "open_board",  # no board to open
                        lambda *_: types.SimpleNamespace(close=lambda: None, open_deferred=lambda: None))
    return seen


def test_play_deals_from_committed_dice(boards: list[tuple[Any, GameChance]], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--dice", "committed", "--new", "--no-web", "--data-dir", str(tmp_path)]) == 0
    (game, chance), = boards
    committed = chance.committed()
    assert committed is not None and committed.commitment in capsys.readouterr().out
    assert game.log[0] == committed_deal(committed.secret(), MAP.size, 3, MISSIONS)


def test_play_deals_from_seeded_dice(boards: list[tuple[Any, GameChance]], tmp_path: Path) -> None:
    assert main(["play", "--dice", "seeded", "--seed", "7", "--new", "--no-web", "--data-dir", str(tmp_path)]) == 0
    assert boards[0][0].log[0] == new_game(ITALIAN, MAP, 3, SeededDice(7)).log[0]


def test_play_deals_from_the_os_by_default(boards: list[tuple[Any, GameChance]], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import conquista.dice.sources

    asked: list[int] = []
    system = conquista.dice.sources._SYSTEM      # the OS's generator (what secrets.randbelow draws from)
    real = system.randrange

    def randbelow(n: int) -> int:
        asked.append(n)
        return real(n)

    monkeypatch.setattr(system, "randrange", randbelow)
    assert main(["play", "--new", "--no-web", "--data-dir", str(tmp_path)]) == 0
    assert boards[0][1].name == "os"
    # The shuffle of the 42 territories, the first player and three missions: all asked of the OS generator.
    assert asked[:41] == list(range(42, 1, -1)) and asked[41:45] == [3, 14, 13, 12]


@pytest.fixture
def tables(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    import conquista_sim.table

    made: list[Any] = []

    class Recording(conquista_sim.table.SimulatedTable):
        def __enter__(self) -> conquista_sim.table.SimulatedTable:
            made.append(self)
            return self

    monkeypatch.setattr(conquista_sim.table, "SimulatedTable", Recording)
    return made


@pytest.mark.parametrize("dice", ["committed", "os"])
def test_sim_deals_from_its_dice_not_from_the_seed(dice: str, tables: list[Any], tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("wait 1\n")
    for _ in range(2):
        assert main(["sim", "--script", str(script), "--seed", "4", "--bots", "1,2", "--dice", dice]) == 0
    seeded = new_game(ITALIAN, MAP, 3, SeededDice(4)).log[0]
    one, two = (table.game.log[0] for table in tables)
    assert one != seeded and two != seeded and one != two       # not from --seed: each game its own deal
    if dice == "committed":
        for table in tables:
            committed = table.referee.dice.committed()
            assert table.game.log[0] == committed_deal(committed.secret(), MAP.size, 3, MISSIONS)


def test_sim_seed_still_replays_its_game(tables: list[Any], tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("wait 5\n")
    for _ in range(2):
        assert main(["sim", "--script", str(script), "--seed", "9", "--bots", "1,2"]) == 0
    assert tables[0].game.log[0] == new_game(ITALIAN, MAP, 3, SeededDice(9)).log[0]
    assert tables[0].game.log == tables[1].game.log and len(tables[0].game.log) > 1
