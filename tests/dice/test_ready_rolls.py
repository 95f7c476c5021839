"""Issue 22 §4: the seeded source hands back ready `Roll` actions: the same dice, from the same draws, as `roll()`."""

from __future__ import annotations

import random

import pytest

from conquista.bots.greedy import GreedyBot
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.rules.actions import Roll
from conquista.rules.events import Phase
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset


@pytest.mark.parametrize(("attack", "defend"), [(1, 1), (2, 1), (3, 2), (3, 3), (1, 3), (4, 2), (0, 2)])
def test_a_ready_roll_has_the_dice_roll_gives_and_leaves_the_stream_where_roll_does(attack: int, defend: int) -> None:
    plain, ready = SeededDice(7), SeededDice(7)
    for _ in range(200):
        assert ready.roll_action(attack, defend) == Roll(*plain.roll(attack, defend), "seeded")
    assert ready.rng.random() == plain.rng.random()


def test_the_same_roll_is_one_object() -> None:
    first = SeededDice(3).roll_action(3, 2)
    assert SeededDice(3).roll_action(3, 2) is first


def test_chance_action_hands_back_the_ready_roll_of_a_seeded_source() -> None:
    rng = random.Random(5)
    game = new_game(load_ruleset("classic", {"automatic_defence": True}), load_map(), 2, rng)
    while game.phase is not Phase.ROLL:  # place, then attack from the first territory that can
        game.apply(GreedyBot(margin=-5).choose(game))
    assert game.battle is not None
    expected = Roll(*SeededDice(9).roll(game.battle.attack_dice, game.battle.defend_dice), "seeded")
    assert chance_action(game, SeededDice(9)) == expected
