"""RULES.md §1: the four worked dice examples of the Italian rules, and the general comparison rule."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquista.rules.battle import resolve_roll as resolve_battle


@pytest.mark.parametrize(
    ("attack", "defend", "attacker_losses", "defender_losses"),
    [
        ((5, 3, 2), (6, 2), 1, 1),        # each side loses 1
        ((6,), (6,), 1, 0),               # a tie goes to the defender
        ((6, 4, 3), (5,), 0, 1),          # the defender loses its only army
        ((6, 2, 2), (5, 4, 2), 2, 1),     # defender loses 1, attacker loses 2
    ],
)
def test_worked_examples(attack: tuple[int, ...], defend: tuple[int, ...], attacker_losses: int,
                         defender_losses: int) -> None:
    assert resolve_battle(attack, defend) == (attacker_losses, defender_losses)


def test_order_of_dice_does_not_matter() -> None:
    assert resolve_battle((2, 5, 3), (2, 6)) == resolve_battle((5, 3, 2), (6, 2)) == (1, 1)


dice = st.integers(1, 6)


@given(st.lists(dice, min_size=1, max_size=3), st.lists(dice, min_size=1, max_size=3))
def test_losses_total_the_compared_pairs(attack: list[int], defend: list[int]) -> None:
    a, d = resolve_battle(tuple(attack), tuple(defend))
    assert a + d == min(len(attack), len(defend))
    # Raising every attacker die to 6 can only help the attacker; a 6 vs anything but 6 always wins.
    assert resolve_battle((6,) * len(attack), tuple(defend))[1] >= d
