"""Issue 31 §4: `simulate` keeps no undo history and hands its ready rolls to the engine without a check
(`Game.drop_undo`, `Game.apply_ready_roll`). It must play exactly the games the table's path plays: the same log and,
after every action, the same state as a game that checks every action and keeps its undo."""

from __future__ import annotations

import random

import pytest

from conquista.bots import make_bot
from conquista.bots.simulate import game_seed, play_game
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.errors import IllegalActionError
from conquista.rules.actions import Roll
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

MAP = load_map()


def table_path_game(rules: str, players: int, bots: list[str], seed: str) -> tuple[Game, list[str]]:
    """The game `play_game` plays, played as the table plays: every action by `apply`, undo kept; its digests."""
    rng = random.Random(seed)
    game = new_game(load_ruleset(rules), MAP, players, rng)
    dice = SeededDice(rng=rng)
    seats = [make_bot(bots[i % len(bots)], rng).choose for i in range(players)]
    digests = []
    while game.phase is not Phase.OVER:
        who = game.to_move
        game.apply(seats[who](game) if isinstance(who, int) else chance_action(game, dice))
        digests.append(game.digest())
    return game, digests


@pytest.mark.parametrize(("rules", "players", "bots", "index"), [
    ("classic", 2, ["greedy"], 0), ("classic", 4, ["greedy"], 1), ("italian", 3, ["greedy", "random"], 2),
    ("french-1976-duel", 2, ["greedy"], 3), ("lamorisse-1954", 3, ["greedy"], 4),
])
def test_simulate_plays_the_tables_game(rules: str, players: int, bots: list[str], index: int) -> None:
    seed = game_seed(5, index)
    expected, digests = table_path_game(rules, players, bots, seed)
    result = play_game(load_ruleset(rules), MAP, players, bots, seed)
    assert result.game is not None
    assert result.game.log == expected.log
    assert result.game.digest() == expected.digest()
    assert (result.winner, result.turns, result.actions) == (expected.winner, expected.turn, len(expected.log) - 1)
    # ... and after every action: the game without undo replayed by the fast path step by step.
    replayed = Game(load_ruleset(rules), MAP, players, expected.log[0])  # type: ignore[arg-type]
    replayed.drop_undo()
    for action, digest in zip(expected.log[1:], digests, strict=True):
        if isinstance(action, Roll):
            replayed.apply_ready_roll(action)
        else:
            replayed.apply(action)
        assert replayed.digest() == digest


def test_a_game_without_undo_has_nothing_to_take_back() -> None:
    game = play_game(load_ruleset("classic"), MAP, 2, ["greedy"], "1:0", turn_cap=3).game
    assert game is not None and not game.undoable
    assert not game.can_undo()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        game.undo()
    assert game.clone().undoable  # a look-ahead's clone takes back as ever


def test_a_roll_that_does_not_fit_is_refused_as_apply_refuses_it() -> None:
    rng = random.Random("fit")
    game = new_game(load_ruleset("classic"), MAP, 2, rng)
    game.drop_undo()
    bot = make_bot("greedy", rng)
    while game.phase is not Phase.ROLL:
        who = game.to_move
        game.apply(bot.choose(game) if isinstance(who, int) else chance_action(game, SeededDice(rng=rng)))
    battle = game.battle
    assert battle is not None
    digest = game.digest()
    for wrong in (Roll((6,) * (battle.attack_dice + 1), (1,) * battle.defend_dice, "seeded"),
                  Roll((7,) * battle.attack_dice, (1,) * battle.defend_dice, "seeded")):
        with pytest.raises(IllegalActionError):
            game.apply_ready_roll(wrong)
        assert game.digest() == digest
    undoable = new_game(load_ruleset("classic"), MAP, 2, random.Random("fit"))
    with pytest.raises(IllegalActionError, match="no battle roll is awaited"):
        undoable.apply_ready_roll(Roll((6,), (1,), "seeded"))
