"""A game asked for by its rules or players starts new, or offers only a saved game that matches (issue 21 §3):
`conquista sim --rules french-1976 --players 4` once offered an unrelated unfinished italian game, and CANCEL at that
question marked the italian game abandoned."""

from __future__ import annotations

from pathlib import Path

import pytest

from conquista.journal import GameJournal, Wanted, open_for_play
from tests.journal.helpers import attach, bot_referee, play


@pytest.fixture(scope="module")
def unfinished_italian(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data_dir = tmp_path_factory.mktemp("italian")
    journal = GameJournal(data_dir)
    referee = bot_referee(2, "italian", 3)
    attach(journal, referee)
    play(referee, 40)
    assert not referee.game.over
    journal.close()
    return data_dir


@pytest.mark.parametrize("wanted", [Wanted("french-1976", 4), Wanted("french-1976"), Wanted(players=4)])
def test_another_game_asked_for_starts_new_and_says_why(unfinished_italian: Path, wanted: Wanted) -> None:
    said: list[str] = []
    start = open_for_play(unfinished_italian, None, said.append, wanted)
    assert start.offer is None and start.game is None
    (line,) = said
    assert "unfinished game 1 (italian, 3 players) is not the game" in line and wanted.words() in line
    assert "`--resume 1` plays it on" in line
    start.journal.close()
    start = open_for_play(unfinished_italian, None, said.append)      # still offered to a plain `sim`
    assert start.offer is not None and start.offer.id == 1 and start.offer.status == "playing"
    start.journal.close()


@pytest.mark.parametrize("wanted", [Wanted(), Wanted("italian"), Wanted("italian", 3), Wanted(players=3)])
def test_the_same_game_asked_for_is_offered(unfinished_italian: Path, wanted: Wanted) -> None:
    said: list[str] = []
    start = open_for_play(unfinished_italian, None, said.append, wanted)
    assert start.offer is not None and start.offer.id == 1 and said == []
    start.journal.close()
