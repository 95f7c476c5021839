"""Parameters of the 1954 patent's game (`lamorisse-1954`): the income table's coercion and the checks that the
deal, income and power-card parameters fit together. Kept apart from rules/rulesets.py, which calls both."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from conquista.errors import RulesetError
from conquista.rules.battle import HANDICAP_RANGE
from conquista.rules.choices import CardDeck, CardDraw, FortifyPath

if TYPE_CHECKING:
    from conquista.rules.rulesets import Ruleset


def whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def coerce_income(value: Any, bad: Callable[[str], RulesetError]) -> tuple[tuple[int, int, int], ...]:
    """income_table: rows [territories held, armies, cards], territories strictly rising (empty: no table)."""
    expected = ("a list of rows [territories, armies, cards] (territories 1 to 1000 and rising, armies and cards "
                "0 to 100)")
    if not isinstance(value, list | tuple) or len(value) > 100:
        raise bad(expected)
    rows: list[tuple[int, int, int]] = []
    for row in value:
        if (not isinstance(row, list | tuple) or len(row) != 3 or not whole(row[0], 1, 1000)
                or not whole(row[1], 0, 100) or not whole(row[2], 0, 100)):
            raise bad(expected)
        if rows and row[0] <= rows[-1][0]:
            raise bad(expected)
        rows.append((row[0], row[1], row[2]))
    return tuple(rows)

def check_1954(rules: Ruleset, fail: Callable[[str], RulesetError]) -> None:
    """The parameters of the 1954 patent's deal, income and power cards fit together."""
    if rules.card_draw is CardDraw.INCOME and not rules.income_table:
        raise fail("card_draw = \"income\" needs an 'income_table' (its third column gives the cards)")
    if rules.card_deck is CardDeck.POWER:
        if rules.card_draw is not CardDraw.INCOME:
            raise fail("card_deck = \"power\" needs card_draw = \"income\" (power cards come with the income)")
        if rules.power_figure_sets + rules.power_eagles == 0:
            raise fail("card_deck = \"power\" needs power_figure_sets or power_eagles above 0")
        if rules.territory_bonus:
            raise fail("card_deck = \"power\" has no territory on its cards: set territory_bonus = 0")
        if rules.forced_trade_hand or rules.elimination_trade_hand:
            raise fail("card_deck = \"power\" trades when the player chooses: set "
                       "forced_trade_hand = 0 and elimination_trade_hand = 0")
    check_fleets(rules, fail)


def check_fleets(rules: Ruleset, fail: Callable[[str], RulesetError]) -> None:
    """Fleets and the one-move rule fit the rest: one die each (a battle is one unit against one), moves between
    adjacent territories, no neutral army."""
    if rules.one_move_per_unit and rules.fortify_path is not FortifyPath.ADJACENT:
        raise fail("one_move_per_unit = true needs fortify_path = \"adjacent\" (a unit moves one territory)")
    if not rules.fleets:
        return
    if rules.attacker_dice_max != 1 or rules.defender_dice_max != 1:
        raise fail("fleets = true needs one die each: attacker_dice_max = 1 and defender_dice_max = 1")
    if rules.fortify_path is not FortifyPath.ADJACENT:
        raise fail("fleets = true needs fortify_path = \"adjacent\" (fleets sail over sea links, armies march "
                   "over land links)")
    if rules.neutral_army:
        raise fail("fleets = true cannot be played with neutral_army = true")
    high = HANDICAP_RANGE[1]
    if max(rules.attack_die_handicap, rules.defence_die_handicap) + rules.fleet_die_handicap > high:
        raise fail(f"fleet_die_handicap plus a die handicap must be at most {high}")
