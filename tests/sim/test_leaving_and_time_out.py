"""RULES.md §5 on the simulated board: a whole game of italian played by bots through taps and presses, with a
person who lets their turns time out and then leaves mid-game (CANCEL held 3 s, ROLL, CANCEL: no bot), journalled
and replayed from the journal to the same digest. Time is the simulated board's clock."""

from __future__ import annotations

import random
from pathlib import Path

from conquista.dice.chance import new_game
from conquista.journal import GameJournal
from conquista.journal.store import open_store
from conquista.rules.actions import Leave, TimeOut
from conquista.rules.engine import Game
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset
from conquista.table.colours import player_rgb
from conquista_sim import SimulatedTable
from tests.sim.test_simulated_table import check_lights

LIMIT_S = 90
PERSON = 2


def _table(seed: int, journal: GameJournal | None = None) -> SimulatedTable:
    rules = load_ruleset("italian", {"turn_time_limit_s": LIMIT_S})
    game = new_game(rules, load_map(), 3, random.Random(seed))
    # Greedy bots, as the scenario (timed-out turns, then leaving in round 3) was written for their quick games.
    return SimulatedTable(game=game, seed=seed, bots={0: "greedy", 1: "greedy"}, think_time=0.25, journal=journal)


def _leave_at_the_board(table: SimulatedTable, bot: bool) -> None:
    table.hold("cancel", 3.2)
    assert table.status().pending.startswith("yellow leaves the game?")
    table.press("roll")
    assert table.status().pending.startswith("a bot plays on for yellow?")
    table.press("roll" if bot else "cancel")


def test_a_whole_game_with_time_outs_and_a_player_who_leaves(tmp_path: Path) -> None:
    journal = GameJournal(tmp_path)
    with _table(5, journal) as table:
        steps = 0
        while not table.game.over and steps < 40_000:
            steps += 1
            game = table.game
            if game.to_move == PERSON and not game.left[PERSON]:
                if game.round >= 3 and not table.referee.prompt:
                    _leave_at_the_board(table, bot=False)
                    assert table.game.left[PERSON] and table.status().left == (PERSON,)
                else:
                    table.advance(5.0, step=1.0)      # the person does nothing: the turn times out
                continue
            table.advance(0.25)
            check_lights(table)
        game = table.game
        assert game.over and game.winner != PERSON
        timeouts = sum(isinstance(a, TimeOut) for a in game.log)
        assert timeouts >= 4 and game.log.count(Leave(PERSON)) == 1
        table.advance(3.0)
        for t in range(game.map.size):   # the leaver's territories (if any stand) keep their colour
            assert table.led(game.map.id(t)) == player_rgb(game.rules.colours[game.owner[t]])
        digest = game.digest()
        journal.close()
    _header, replayed = open_store(tmp_path).load(1)
    assert replayed.digest() == digest and replayed.log == game.log
    # Once gone, the person never plays again: no turn of theirs, no time-out.
    fresh = Game(game.rules, game.map, game.players, game.log[0])  # type: ignore[arg-type]
    gone = False
    for action in game.log[1:]:
        fresh.apply(action)
        gone = gone or action == Leave(PERSON)
        assert not (gone and fresh.current == PERSON and not fresh.over)


def test_a_bot_takes_the_seat_of_a_player_who_leaves(tmp_path: Path) -> None:
    journal = GameJournal(tmp_path)
    journal.seats = ("greedy", "greedy", "human")
    with _table(7, journal) as table:
        while not (table.game.to_move == PERSON and table.game.round >= 2):
            if table.game.to_move == PERSON:
                table.advance(5.0, step=1.0)
            else:
                table.advance(0.25)
        _leave_at_the_board(table, bot=True)
        assert PERSON in table.bots and not any(table.game.left)
        turn = table.game.turn
        table.advance(60.0)   # the bot that takes over is a normal one (the default), which thinks its moves out
        assert table.game.turn > turn and not any(isinstance(a, TimeOut) for a in table.game.log[-20:])
    # The saved game says who plays the seat now: a resumed game keeps the bot there.
    game_id = journal.game_id
    journal.close()
    assert game_id is not None
    again = GameJournal(tmp_path)
    again.resume(game_id)
    assert again.seats == ("greedy", "greedy", "normal")
    again.close()
