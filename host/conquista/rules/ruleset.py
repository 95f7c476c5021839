"""The Ruleset record: every parameter of one resolved ruleset, frozen, and the questions a game asks of it.

Reading the TOML files into one is rules/rulesets.py; checking that the parameters fit together is
rules/ruleset_checks.py. Both import this module, and it imports neither.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from conquista.errors import RulesetError
from conquista.rules.choices import (
    BattleKind,
    BonusPlacement,
    CardDeck,
    CardDraw,
    DealKind,
    EliminationTrade,
    FleetHandicap,
    FortifyPath,
    Objective,
    OccupationMinimum,
    Rounding,
    Ties,
    TradeTiming,
    TradeValues,
)
from conquista.rules.records import frozen_record

SET_KINDS = ("three_cannons", "three_infantry", "three_cavalry", "one_each", "jolly_pair", "jolly_mixed",
             "jolly_jolly")
MISSION_COUNT = 14


@frozen_record
class Ruleset:
    """One ruleset's parameters, resolved and validated (conquista.rules.rulesets builds it from the TOML files)."""

    name: str
    description: str
    players_min: int
    players_max: int
    colours: tuple[str, ...]
    starting_armies: dict[int, int]
    deal: DealKind
    deal_batch: int
    initial_placement_batch: int
    objective: Objective
    mission_win_out_of_turn: bool
    missions: tuple[int, ...]
    mission_fallback_territories: int
    reinforcement_divisor: int
    reinforcement_minimum: int
    continent_bonuses: bool
    income_table: tuple[tuple[int, int, int], ...]
    deck_jollies: int
    card_deck: CardDeck
    power_figure_sets: int
    power_eagles: int
    power_set_armies: int
    power_eagle_armies: int
    power_starting_cards: int
    card_draw: CardDraw
    trade_timing: TradeTiming
    trade_values: TradeValues
    valid_sets: tuple[str, ...]
    set_values: dict[str, int]
    incremental_values: tuple[int, ...]
    incremental_step: int
    territory_bonus: int
    territory_bonus_placement: BonusPlacement
    territory_bonus_per_trade: int
    forced_trade_hand: int
    elimination_trade_hand: int
    elimination_trade_down_to: int
    elimination_trade_cards: EliminationTrade
    elimination_protection_rounds: int
    attacker_dice_max: int
    defender_dice_max: int
    automatic_defence: bool
    defence_asked_only_on_choice: bool
    ties: Ties
    attack_die_handicap: int
    defence_die_handicap: int
    occupation_minimum: OccupationMinimum
    blitz: bool
    fortify_moves: int
    fortify_path: FortifyPath
    battle: BattleKind
    fleets: bool
    fleet_die_handicap: int
    fleet_handicap: FleetHandicap
    one_move_per_unit: bool
    neutral_army: bool
    neutral_territory_armies: int
    neutral_reinforcement_rounding: Rounding
    players_may_leave: bool
    neutral_steps_never_wait: bool
    tournament_ending: bool
    tournament_minutes: int
    closing_number_first: int
    closing_number_last: int
    closing_roll_conquests_max: int
    turn_time_limit_s: int

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready parameters (tuples become lists, integer keys become strings)."""
        out = asdict(self)
        out["starting_armies"] = {str(k): v for k, v in self.starting_armies.items()}
        for key, value in out.items():
            if isinstance(value, tuple):
                out[key] = [list(v) if isinstance(v, tuple) else v for v in value]
        return out

    def check_players(self, players: int, fix: str = "") -> None:
        """Refuse a number of players this ruleset is not for; `fix` ends the message (e.g. the CLI's option)."""
        if not self.players_min <= players <= self.players_max:
            allowed = (str(self.players_min) if self.players_min == self.players_max
                       else f"{self.players_min}–{self.players_max}")
            raise RulesetError(f"ruleset {self.name!r} is for {allowed} players, not {players}{fix}")

    def set_value(self, kind: str, sets_traded_before: int) -> int:
        """Armies for a set of `kind`, given how many sets anyone traded earlier in the game."""
        if self.trade_values is TradeValues.FIXED:
            return self.set_values[kind]
        table = self.incremental_values
        if sets_traded_before < len(table):
            return table[sets_traded_before]
        return table[-1] + self.incremental_step * (sets_traded_before - len(table) + 1)

    def __hash__(self) -> int:
        return hash(self.name)
