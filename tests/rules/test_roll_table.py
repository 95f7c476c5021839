"""The engine's table of battle rolls (`RollResolver`, by the dice or by their numbers) answers as `resolve_roll`
for every roll of 1 to 3 dice a side, under every defender's maximum: the table holds only the defences a rule lets
a defender roll (issue 31 §4), and a longer defence is resolved directly."""

from __future__ import annotations

from itertools import product

import pytest

from conquista.rules.battle import DICE_ID, DiceRule, RollResolver, resolve_roll
from conquista.rules.choices import Ties

ROLLS = [roll for n in (1, 2, 3) for roll in product(range(1, 7), repeat=n)]


@pytest.mark.parametrize("rule", [DiceRule(3, 1), DiceRule(3, 2), DiceRule(3, 3), DiceRule(3, 2, Ties.REROLL, 1, 0)])
def test_the_table_agrees_with_resolve_roll_for_every_roll(rule: DiceRule) -> None:
    table = RollResolver(rule)  # a fresh one: its rows are built here, in this order
    for attack in ROLLS:
        for defend in ROLLS:
            assert table(attack, defend) == resolve_roll(attack, defend, rule), (attack, defend)
            assert table.losses(DICE_ID[attack], DICE_ID[defend]) == resolve_roll(attack, defend, rule)
