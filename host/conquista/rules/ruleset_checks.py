"""The checks that a ruleset's parameters fit together, each failing with the parameter to change.

Coercing each value on its own (its type and range) is rules/rulesets.py; this module sees the whole record.
"""

from __future__ import annotations

from collections.abc import Callable

from conquista.errors import RulesetError
from conquista.rules.battle import HANDICAP_RANGE
from conquista.rules.choices import CardDeck, CardDraw, FortifyPath, Objective, TradeValues
from conquista.rules.ruleset import MISSION_COUNT, SET_KINDS, Ruleset


def check_ruleset(rules: Ruleset, label: str) -> None:
    """Refuse a ruleset whose parameters do not fit together; `label` names it in the message."""
    def fail(message: str) -> RulesetError:
        return RulesetError(f"ruleset {label}: {message}")

    if not 2 <= rules.players_min <= rules.players_max:
        raise fail("players_min must be ≥ 2 and ≤ players_max")
    if len(rules.colours) < rules.players_max:
        raise fail(f"'colours' lists {len(rules.colours)} colours for up to {rules.players_max} players")
    for n in range(rules.players_min, rules.players_max + 1):
        if n not in rules.starting_armies:
            raise fail(f"'starting_armies' has no entry for {n} players")
    for kind in rules.valid_sets:
        if kind not in SET_KINDS:
            raise fail(f"'valid_sets' has unknown set kind {kind!r}; known: {', '.join(SET_KINDS)}")
        if rules.trade_values is TradeValues.FIXED and kind not in rules.set_values:
            raise fail(f"'set_values' has no value for valid set {kind!r}")
    for kind in rules.set_values:
        if kind not in SET_KINDS:
            raise fail(f"'set_values' has unknown set kind {kind!r}; known: {', '.join(SET_KINDS)}")
    if rules.trade_values is TradeValues.INCREMENTAL and not rules.incremental_values:
        raise fail("'incremental_values' must not be empty")
    if rules.objective is Objective.MISSIONS:
        for m in rules.missions:
            if not 1 <= m <= MISSION_COUNT:
                raise fail(f"'missions' has {m}; missions are numbered 1–{MISSION_COUNT}")
        if len(rules.missions) < rules.players_max:
            raise fail(f"'missions' lists {len(rules.missions)} cards for up to {rules.players_max} players")
    if rules.reinforcement_divisor < 1:
        raise fail("'reinforcement_divisor' must be ≥ 1")
    if not 1 <= rules.attacker_dice_max <= 3 or not 1 <= rules.defender_dice_max <= 3:
        raise fail("dice maxima must be between 1 and 3")
    if rules.fortify_moves < 1:
        raise fail("'fortify_moves' must be ≥ 1")
    if rules.closing_number_first > rules.closing_number_last:
        raise fail("'closing_number_first' must not be above 'closing_number_last'")
    if rules.elimination_trade_hand and rules.elimination_trade_down_to >= rules.elimination_trade_hand:
        raise fail("'elimination_trade_down_to' must be below 'elimination_trade_hand'")
    check_income_and_power_cards(rules, fail)
    check_fleets(rules, fail)
    if rules.neutral_army:
        if rules.objective is not Objective.WORLD:
            raise fail("neutral_army = true needs objective = \"world\" (win: every territory of the opponent)")
        if rules.players_min > 2 or 2 not in rules.starting_armies:
            raise fail("neutral_army = true is a two-player game: players_min must be 2")
        if rules.neutral_territory_armies < 1:
            raise fail("'neutral_territory_armies' must be ≥ 1")


def check_income_and_power_cards(rules: Ruleset, fail: Callable[[str], RulesetError]) -> None:
    """The income table, the cards it deals and the power-card deck (the 1954 patent's game) fit together."""
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
