"""Rulesets are declarative data: TOML files with `extends`, resolved into one frozen Ruleset.

The root ruleset (`italian`) defines every parameter; a variant lists only what it changes. Unknown keys are
rejected with the key named, so a typo in a board builder's own ruleset never silently does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any

from conquista.errors import RulesetError
from conquista.rules import power
from conquista.rules.battle import HANDICAP_RANGE
from conquista.rules.choices import (
    CHOICE_TYPES,
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
from conquista.rules.ruleset_1954 import check_1954, coerce_income
from conquista.rules.textdata import BadText, load_toml, read_utf8, shown

ROOT_RULESET = "italian"
SET_KINDS = ("three_cannons", "three_infantry", "three_cavalry", "one_each", "jolly_pair", "jolly_mixed",
             "jolly_jolly")
MISSION_COUNT = 14

# The range of every whole-number parameter: what a real game needs, far beyond the shipped rulesets. A value
# outside it is refused on load (it would only surface mid-game, as a hang or an absurd placement).
PLAYERS_RANGE = (2, 10)
ARMIES_RANGE = (1, 1000)       # starting_armies, per player
BONUS_RANGE = (0, 100)         # set_values and incremental_values, in armies
LIST_MAX = 100                 # items of missions, incremental_values, valid_sets, colours
RANGES: dict[str, tuple[int, int]] = {
    "players_min": PLAYERS_RANGE, "players_max": PLAYERS_RANGE,
    "initial_placement_batch": (0, 1000),
    "deal_batch": (1, 100),
    "power_figure_sets": (0, power.SETS_MAX - 1),
    "power_eagles": (0, power.SETS_MAX - 1),
    "power_set_armies": BONUS_RANGE,
    "power_eagle_armies": BONUS_RANGE,
    "power_starting_cards": (0, 100),
    "mission_fallback_territories": (1, 500),
    "reinforcement_divisor": (1, 100),
    "reinforcement_minimum": (0, 100),
    "deck_jollies": (0, 100),
    "incremental_step": BONUS_RANGE,
    "territory_bonus": BONUS_RANGE,
    "territory_bonus_per_trade": (0, 100),
    "forced_trade_hand": (0, 100),
    "elimination_trade_hand": (0, 100),
    "elimination_trade_down_to": (0, 100),
    "elimination_protection_rounds": (0, 100),
    "attacker_dice_max": (1, 3),
    "defender_dice_max": (1, 3),
    "attack_die_handicap": HANDICAP_RANGE,
    "defence_die_handicap": HANDICAP_RANGE,
    "fleet_die_handicap": HANDICAP_RANGE,
    "fortify_moves": (1, 100),
    "turn_time_limit_s": (0, 86_400),
    "tournament_minutes": (1, 1440),
    "closing_number_first": (2, 12),
    "closing_number_last": (2, 12),
    "closing_roll_conquests_max": (0, 100),
}

# Parameters the engine does not implement yet, with the only value accepted until it does: set to anything else
# they are refused by name rather than silently ignored (none since fleets are refereed).
NOT_YET_BUILT: dict[str, object] = {}
# Parameters added after games were saved: a log without them is read with the rule it was played under.
_OLD_LOG_DEFAULTS: dict[str, object] = {"elimination_trade_cards": "any", "mission_win_out_of_turn": False,
                                        "neutral_territory_armies": 2, "neutral_reinforcement_rounding": "down",
                                        "attack_die_handicap": 0, "defence_die_handicap": 0,
                                        "deal_batch": 4, "income_table": [], "card_deck": "territory",
                                        "power_figure_sets": 23, "power_eagles": 4, "power_set_armies": 1,
                                        "power_eagle_armies": 5, "power_starting_cards": 4,
                                        "fleet_die_handicap": 2, "fleet_handicap": "every_battle",
                                        "one_move_per_unit": False,
                                        # a log saved before 2026-11-26 asked the defender at every roll
                                        "defence_asked_only_on_choice": False,
                                        # ... and the neutral steps waited for a player who left, untimed
                                        "neutral_steps_never_wait": False,
                                        "tournament_ending": False, "tournament_minutes": 90,
                                        "closing_number_first": 4, "closing_number_last": 7,
                                        "closing_roll_conquests_max": 2}
# Values a log may carry for a parameter that is not built (none since `players_may_leave` is refereed: logs written
# before carried `players_may_leave = true`, which nothing acted on, and no `Leave` action, so they replay as played).
_OLD_LOG_VALUES: dict[str, object] = {}


@dataclass(frozen=True)
class Ruleset:
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
            raise RulesetError(f"ruleset {self.name!r} is for {self.players_min}–{self.players_max} players, "
                               f"not {players}{fix}")

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


_FIELD_TYPES: dict[str, str] = {f.name: str(f.type) for f in fields(Ruleset)}


def builtin_rulesets() -> list[str]:
    """Names of the rulesets shipped in the package, sorted."""
    folder = resources.files("conquista.data.rulesets")
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


def _read_builtin(name: str) -> dict[str, Any]:
    if name not in builtin_rulesets():
        raise RulesetError(f"unknown ruleset {name!r}; known rulesets: {', '.join(builtin_rulesets())}")
    text = resources.files("conquista.data.rulesets").joinpath(f"{name}.toml").read_text("utf-8")
    return load_toml(text)


def _read_file(path: Path) -> dict[str, Any]:
    try:
        return load_toml(read_utf8(path))
    except OSError as exc:
        raise RulesetError(f"{path}: cannot read ruleset file ({exc.strerror})") from None
    except BadText as exc:
        raise RulesetError(f"{path}: {exc}") from None


def load_ruleset(name_or_path: str, overrides: dict[str, Any] | None = None) -> Ruleset:
    """Resolve a built-in ruleset by name, or a TOML file (path ending in .toml) that `extends` one."""
    if name_or_path.endswith(".toml"):
        path = Path(name_or_path)
        raw, label, name = _read_file(path), str(path), path.stem
    else:
        raw, label, name = _read_builtin(name_or_path), name_or_path, name_or_path
    chain = [(label, raw)]
    seen = {label}
    while "extends" in chain[-1][1]:
        parent = chain[-1][1]["extends"]
        if not isinstance(parent, str):
            raise RulesetError(f"ruleset {chain[-1][0]}: 'extends' must name a ruleset, got {parent!r}")
        if parent in seen:
            raise RulesetError(f"ruleset {label}: 'extends' loops back to {parent!r}")
        seen.add(parent)
        chain.append((parent, _read_builtin(parent)))
    merged: dict[str, Any] = {}
    for source, params in reversed(chain):
        for key, value in params.items():
            if key == "extends":
                continue
            if key == "name" or key not in _FIELD_TYPES:
                raise RulesetError(f"ruleset {source}: unknown key {shown(key)}; see `conquista rules italian --json`")
            merged[key] = value
    if overrides:
        for key, value in overrides.items():
            if key == "name" or key not in _FIELD_TYPES:
                raise RulesetError(f"ruleset {label}: unknown key {shown(key)}")
            merged[key] = value
    merged["name"] = name
    return ruleset_from_dict(merged, label, from_log=False)


def ruleset_from_dict(params: dict[str, Any], label: str, from_log: bool = True) -> Ruleset:
    """Build and validate a Ruleset from fully resolved parameters (as stored in a game log)."""
    if from_log:
        params = {**_OLD_LOG_DEFAULTS, **params}
    missing = [k for k in _FIELD_TYPES if k not in params]
    if missing:
        named = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
        raise RulesetError(f"ruleset {label}: missing parameter(s) {named} (a ruleset file that 'extends' a "
                           f"built-in one gets them all)")
    unknown = [k for k in params if k not in _FIELD_TYPES]
    if unknown:
        raise RulesetError(f"ruleset {label}: unknown key {shown(unknown[0])}")
    values: dict[str, Any] = {}
    for key, kind in _FIELD_TYPES.items():
        values[key] = _coerce(label, key, kind, params[key])
    _refuse_not_built(values, label, from_log)
    rules = Ruleset(**values)
    _check(rules, label)
    return rules


def _refuse_not_built(values: dict[str, Any], label: str, from_log: bool) -> None:
    for key, built in NOT_YET_BUILT.items():
        value = values[key]
        if value == built or (from_log and _OLD_LOG_VALUES.get(key, built) == value):
            continue
        raise RulesetError(f"ruleset {label}: {key} = {value!r} is not refereed yet; set {key} = "
                           f"{str(built).lower()} (see docs/rules.md, 'Table features')")


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _coerce(label: str, key: str, kind: str, value: Any) -> Any:
    def bad(expected: str) -> RulesetError:
        return RulesetError(f"ruleset {label}: {key!r} must be {expected}, got {shown(value)}")

    if kind == "int":
        low, high = RANGES.get(key, (0, 1000))
        if not _whole(value, low, high):
            raise bad(f"a whole number from {low} to {high}")
        return value
    if kind in ("bool", "str"):
        if not isinstance(value, bool if kind == "bool" else str) or len(str(value)) > 400:
            raise bad("true or false" if kind == "bool" else "a string (up to 400 characters)")
        return value
    if kind in CHOICE_TYPES:
        choice = CHOICE_TYPES[kind]
        if not isinstance(value, str) or value not in choice._value2member_map_:
            raise bad("one of " + ", ".join(repr(c.value) for c in choice))
        return choice(value)
    if key == "income_table":
        return coerce_income(value, bad)
    if kind.startswith("tuple"):
        return _coerce_list(key, kind, value, bad)
    if kind == "dict[int, int]":
        return _coerce_armies(value, bad)
    if kind == "dict[str, int]":
        low, high = BONUS_RANGE
        if not isinstance(value, dict) or not all(_whole(v, low, high) for v in value.values()):
            raise bad(f"a table of set kind = armies, each a whole number from {low} to {high}")
        return dict(value)
    raise AssertionError(f"no coercion for {kind}")  # a field type was added without a rule here


def _coerce_list(key: str, kind: str, value: Any, bad: Callable[[str], RulesetError]) -> tuple[Any, ...]:
    if not isinstance(value, list | tuple) or len(value) > LIST_MAX:
        raise bad(f"a list of at most {LIST_MAX} items")
    if "str" in kind:
        if not all(isinstance(v, str) and 0 < len(v) <= 40 for v in value):
            raise bad("a list of names (1 to 40 characters each)")
        return tuple(value)
    low, high = (1, MISSION_COUNT) if key == "missions" else BONUS_RANGE
    if not all(_whole(v, low, high) for v in value):
        raise bad(f"a list of whole numbers from {low} to {high}")
    return tuple(value)


def _coerce_armies(value: Any, bad: Callable[[str], RulesetError]) -> dict[int, int]:
    """starting_armies: { players = armies }, players in PLAYERS_RANGE, armies in ARMIES_RANGE (TOML and JSON
    write the player counts as strings)."""
    (p_low, p_high), (a_low, a_high) = PLAYERS_RANGE, ARMIES_RANGE
    expected = (f"a table of player count ({p_low} to {p_high}) = armies (a whole number from {a_low} to "
                f"{a_high})")
    if not isinstance(value, dict):
        raise bad(expected)
    armies: dict[int, int] = {}
    for players, count in value.items():
        text = str(players)
        if not (text.isascii() and text.isdigit() and len(text) <= 2) or not _whole(count, a_low, a_high):
            raise bad(expected)
        if not p_low <= int(text) <= p_high:
            raise bad(expected)
        armies[int(text)] = count
    return armies


def _check(rules: Ruleset, label: str) -> None:
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
    check_1954(rules, fail)
    if rules.neutral_army:
        if rules.objective is not Objective.WORLD:
            raise fail("neutral_army = true needs objective = \"world\" (win: every territory of the opponent)")
        if rules.players_min > 2 or 2 not in rules.starting_armies:
            raise fail("neutral_army = true is a two-player game: players_min must be 2")
        if rules.neutral_territory_armies < 1:
            raise fail("'neutral_territory_armies' must be ≥ 1")

