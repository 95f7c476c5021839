"""The seeded source's battle rolls as ready `Roll` actions: the chance step of every simulated game.

`seeded_roll` draws one number per die from the generator, exactly as `SeededDice.roll` does (a draw `r` gives the
face `int(r * 6) + 1`, the attacker's dice first), reads the roll's number from those faces, and hands back the
`Roll` made the first time that roll came up in the process: building its tuples and the frozen action costs more
than the rest of the chance step. A module of its own so that `make fast` compiles it with the simulate loop.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from math import floor

from conquista.rules.actions import Roll

SEEDED = "seeded"  # the seeded source's name, recorded with each of its rolls
FAST_DICE = 3      # rolls of up to this many dice a side are made once; no built-in ruleset has more
# Every roll of 0 to 3 dice, numbered in the order `itertools.product` lists them: the number's base-6 digits are the
# faces less one, the first die rolled first.
_FACES: list[list[tuple[int, ...]]] = [list(product(range(1, 7), repeat=n)) for n in range(FAST_DICE + 1)]
# The rolls made so far, by attacker's and defender's dice, then by the roll's number.
_MADE: list[list[list[Roll | None]]] = [[[] for _ in range(FAST_DICE + 1)] for _ in range(FAST_DICE + 1)]


def seeded_roll(draw: Callable[[], float], attack: int, defend: int) -> Roll | None:
    """The Roll of `attack` and `defend` dice from `draw` (a `random.Random`'s `random`); None, drawing nothing,
    for more than `FAST_DICE` dice a side."""
    if not (0 <= attack <= FAST_DICE and 0 <= defend <= FAST_DICE):
        return None
    number = 0
    dice = attack + defend
    # Each face less one as floor(draw() * 6): the same whole number as int(draw() * 6) (the product is never
    # negative), and math.floor is called directly where int() goes through the type's constructor (a third less).
    if dice == 5:  # three against two, most rolls of a game: the same draws, without the loop
        number = ((((floor(draw() * 6) * 6 + floor(draw() * 6)) * 6 + floor(draw() * 6)) * 6 + floor(draw() * 6)) * 6
                  + floor(draw() * 6))
    else:
        for _ in range(dice):
            number = number * 6 + floor(draw() * 6)
    made = _MADE[attack][defend]
    if not made:
        made.extend([None] * 6 ** (attack + defend))
    roll = made[number]
    if roll is None:
        split = 6 ** defend
        roll = made[number] = Roll(_FACES[attack][number // split], _FACES[defend][number % split], SEEDED)
    return roll


def seeded_number(draw: Callable[[], float], attack: int, defend: int) -> int:
    """The number of the roll of `attack` and `defend` dice drawn from `draw`, as `seeded_roll` draws it (the faces
    less one as base-6 digits, the attacker's first: rules/battle.py's `NumberedRolls`); -1, drawing nothing, for
    more than `FAST_DICE` dice a side."""
    if not (0 <= attack <= FAST_DICE and 0 <= defend <= FAST_DICE):
        return -1
    if attack + defend == 5:  # three against two, most rolls of a game: the same draws, without the loop
        return ((((floor(draw() * 6) * 6 + floor(draw() * 6)) * 6 + floor(draw() * 6)) * 6 + floor(draw() * 6)) * 6
                + floor(draw() * 6))
    number = 0
    for _ in range(attack + defend):
        number = number * 6 + floor(draw() * 6)
    return number
