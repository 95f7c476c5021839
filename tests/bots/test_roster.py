"""The seat roster saved with a game: people and the kinds of bots, and the default bot."""

from __future__ import annotations

from conquista.bots import BOT_NAMES
from conquista.bots.roster import DEFAULT_BOT, HUMAN, bots_of, seats_of


def test_a_roster_round_trips_through_its_bots() -> None:
    bots = {1: "planner", 3: "random"}
    seats = seats_of(4, bots)
    assert seats == (HUMAN, "planner", HUMAN, "random")
    assert bots_of(seats) == bots


def test_a_game_saved_without_a_roster_has_no_bots() -> None:
    assert bots_of(None) == {} and bots_of(()) == {}
    assert seats_of(3, {}) == (HUMAN,) * 3


def test_the_default_bot_is_a_bot_and_no_bot_is_called_human() -> None:
    assert DEFAULT_BOT in BOT_NAMES and HUMAN not in BOT_NAMES

