"""Rulesets are declarative data: TOML files with `extends`, resolved into one frozen Ruleset.

The root ruleset (`italian`) defines every parameter; a variant lists only what it changes. Unknown keys are
rejected with the key named, so a typo in a board builder's own ruleset never silently does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

from conquista.errors import RulesetError
from conquista.rules import power_cards
from conquista.rules.battle import HANDICAP_RANGE
from conquista.rules.choices import (
    CHOICE_TYPES,
)
from conquista.rules.ruleset import MISSION_COUNT
from conquista.rules.ruleset import (
    Ruleset as Ruleset,  # what load_ruleset returns; table/ and the engine import it here
)
from conquista.rules.ruleset_checks import check_ruleset
from conquista.rules.textdata import BadText, is_whole, load_toml, package_files, package_text, read_utf8, shown

ROOT_RULESET = "italian"
# The rulesets the package ships, in the order the help of --rules names them (without reading the package at every
# start); tests/cli/test_first_hour_messages.py checks the list against builtin_rulesets().
SHIPPED_RULESETS = ("italian", "classic", "french-1976", "french-1976-duel", "french-1976-domination",
                    "lamorisse-1954")

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
    "power_figure_sets": (0, power_cards.SETS_MAX - 1),
    "power_eagles": (0, power_cards.SETS_MAX - 1),
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


_FIELD_TYPES: dict[str, str] = {f.name: str(f.type) for f in fields(Ruleset)}


def builtin_rulesets() -> list[str]:
    """Names of the rulesets shipped in the package, sorted."""
    return sorted(name[: -len(".toml")] for name in package_files("conquista.data.rulesets") if name.endswith(".toml"))


def _read_builtin(name: str, extended_by: str = "") -> dict[str, Any]:
    if name not in builtin_rulesets():
        if extended_by:  # the file to fix, not just the name it gave
            raise RulesetError(f"ruleset {extended_by}: 'extends' names unknown ruleset {shown(name)}; "
                               f"known rulesets: {', '.join(builtin_rulesets())}")
        raise RulesetError(f"unknown ruleset {name!r}; known rulesets: {', '.join(builtin_rulesets())}")
    text = package_text("conquista.data.rulesets", f"{name}.toml")
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
            raise RulesetError(f"ruleset {chain[-1][0]}: 'extends' must name a ruleset, got {shown(parent)}")
        if parent in seen:
            raise RulesetError(f"ruleset {label}: 'extends' loops back to {parent!r}")
        seen.add(parent)
        chain.append((parent, _read_builtin(parent, extended_by=chain[-1][0])))
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
    check_ruleset(rules, label)
    _check_seats(rules, label)
    return rules


def _refuse_not_built(values: dict[str, Any], label: str, from_log: bool) -> None:
    for key, built in NOT_YET_BUILT.items():
        value = values[key]
        if value == built or (from_log and _OLD_LOG_VALUES.get(key, built) == value):
            continue
        raise RulesetError(f"ruleset {label}: {key} = {value!r} is not refereed yet; set {key} = "
                           f"{str(built).lower()} (see docs/rules.md, 'Table features')")


def _coerce(label: str, key: str, kind: str, value: Any) -> Any:
    def bad(expected: str) -> RulesetError:
        return RulesetError(f"ruleset {label}: {key!r} must be {expected}, got {shown(value)}")

    if kind == "int":
        low, high = RANGES.get(key, (0, 1000))
        if not is_whole(value, low, high):
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
        return _coerce_income(value, bad)
    if kind.startswith("tuple"):
        return _coerce_list(key, kind, value, bad)
    if kind == "dict[int, int]":
        return _coerce_armies(value, bad)
    if kind == "dict[str, int]":
        low, high = BONUS_RANGE
        if not isinstance(value, dict) or not all(is_whole(v, low, high) for v in value.values()):
            raise bad(f"a table of set kind = armies, each a whole number from {low} to {high}")
        return dict(value)
    raise AssertionError(f"no coercion for {kind}")  # a field type was added without a rule here


def _coerce_income(value: Any, bad: Callable[[str], RulesetError]) -> tuple[tuple[int, int, int], ...]:
    """income_table: rows [territories held, armies, cards], territories strictly rising (empty: no table)."""
    expected = ("a list of rows [territories, armies, cards] (territories 1 to 1000 and rising, armies and cards "
                "0 to 100)")
    if not isinstance(value, list | tuple) or len(value) > 100:
        raise bad(expected)
    rows: list[tuple[int, int, int]] = []
    for row in value:
        if (not isinstance(row, list | tuple) or len(row) != 3 or not is_whole(row[0], 1, 1000)
                or not is_whole(row[1], 0, 100) or not is_whole(row[2], 0, 100)):
            raise bad(expected)
        if rows and row[0] <= rows[-1][0]:
            raise bad(expected)
        rows.append((row[0], row[1], row[2]))
    return tuple(rows)


def _coerce_list(key: str, kind: str, value: Any, bad: Callable[[str], RulesetError]) -> tuple[Any, ...]:
    if not isinstance(value, list | tuple) or len(value) > LIST_MAX:
        raise bad(f"a list of at most {LIST_MAX} items")
    if "str" in kind:
        if not all(isinstance(v, str) and 0 < len(v) <= 40 for v in value):
            raise bad("a list of names (1 to 40 characters each)")
        return tuple(value)
    low, high = (1, MISSION_COUNT) if key == "missions" else BONUS_RANGE
    if not all(is_whole(v, low, high) for v in value):
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
        if not (text.isascii() and text.isdigit() and len(text) <= 2) or not is_whole(count, a_low, a_high):
            raise bad(expected)
        if not p_low <= int(text) <= p_high:
            raise bad(expected)
        armies[int(text)] = count
    return armies


# The seat colours the board can light (table/colours.py holds their LED values; a test keeps the two in step).
# "white" is the name some rulesets give the seat that the LEDs show as "black" (an unlit LED cannot be seen).
PLAYER_COLOURS = ("red", "blue", "yellow", "green", "purple", "black", "pink", "cyan")
COLOUR_ALIASES = {"white": "black"}


def _check_seats(rules: Ruleset, label: str) -> None:
    """Every seat needs a colour the board can light, and one of its own (two seats in one LED colour could not be
    told apart on the board); every mission card is dealt to one seat at most."""
    def fail(message: str) -> RulesetError:
        return RulesetError(f"ruleset {label}: {message}")

    repeated = sorted({m for m in rules.missions if rules.missions.count(m) > 1})
    if repeated:
        raise fail(f"'missions' lists mission {repeated[0]} more than once; list each mission card once")
    colours = rules.colours
    seat_of: dict[str, int] = {}
    for seat, name in enumerate(colours):
        led = COLOUR_ALIASES.get(name, name)
        if led not in PLAYER_COLOURS:
            raise fail(f"'colours' has {shown(name)}, which the board cannot light; use "
                       f"{', '.join(PLAYER_COLOURS)} (or white for black)")
        if led in seat_of:
            same = "" if colours[seat_of[led]] == name else f" ({colours[seat_of[led]]!r} and {name!r} light alike)"
            raise fail(f"'colours' gives seats {seat_of[led] + 1} and {seat + 1} the same colour{same}; "
                       "give every seat a colour of its own")
        seat_of[led] = seat
