"""Each ruleset's table (RULES.md §1–3, §5, §6), parameter by parameter, and the loader's errors."""

import json
import re
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.errors import RulesetError
from conquista.rules.choices import FortifyPath, Objective, Ties, TradeValues
from conquista.rules.rulesets import builtin_rulesets, load_ruleset, ruleset_from_dict

ALL_SETS = ("three_cannons", "three_infantry", "three_cavalry", "one_each", "jolly_pair", "jolly_mixed")


def test_builtin_rulesets() -> None:
    assert builtin_rulesets() == ["classic", "french-1976", "french-1976-domination", "french-1976-duel", "italian",
                                  "lamorisse-1954"]


def test_italian_table() -> None:
    r = load_ruleset("italian")
    assert (r.players_min, r.players_max) == (2, 6)
    assert r.starting_armies == {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}
    assert r.deal == "round_robin"
    assert r.initial_placement_batch == 3
    assert r.objective == "missions" and r.missions == tuple(range(1, 15))
    assert (r.reinforcement_divisor, r.reinforcement_minimum, r.continent_bonuses) == (3, 0, True)
    assert r.deck_jollies == 2 and r.card_draw == "on_conquest"
    assert r.trade_timing == "before_first_attack" and r.trade_values == "fixed"
    assert r.valid_sets == ALL_SETS
    assert r.set_values == {"three_cannons": 4, "three_infantry": 6, "three_cavalry": 8, "one_each": 10,
                            "jolly_pair": 12, "jolly_mixed": 10}
    assert (r.territory_bonus, r.territory_bonus_placement, r.territory_bonus_per_trade) == (2, "anywhere", 0)
    assert r.forced_trade_hand == 0 and r.elimination_trade_hand == 0
    assert r.elimination_protection_rounds == 4
    assert (r.attacker_dice_max, r.defender_dice_max, r.ties) == (3, 3, "defender")
    assert r.automatic_defence is True and r.blitz is True
    assert r.occupation_minimum == "last_dice"
    assert (r.fortify_moves, r.fortify_path) == (1, "adjacent")
    assert r.mission_fallback_territories == 24
    assert (r.battle, r.fleets, r.neutral_army, r.players_may_leave, r.turn_time_limit_s) == (
        "standard", False, False, True, 0)


def test_french_1976_differs_from_italian_only_where_the_rules_say() -> None:
    it, fr = load_ruleset("italian").to_dict(), load_ruleset("french-1976").to_dict()
    changed = {k for k in it if it[k] != fr[k]}
    assert changed == {"name", "description", "players_min", "defender_dice_max", "initial_placement_batch",
                       "valid_sets", "set_values", "territory_bonus_placement", "forced_trade_hand",
                       "elimination_protection_rounds", "elimination_trade_cards", "automatic_defence",
                       "elimination_trade_hand", "elimination_trade_down_to"}
    r = load_ruleset("french-1976")
    assert (r.players_min, r.players_max) == (3, 6)  # its two-player game is the duel
    assert r.defender_dice_max == 2 and r.initial_placement_batch == 0
    assert r.set_values == {"three_cannons": 4, "three_infantry": 6, "three_cavalry": 8, "one_each": 10,
                            "jolly_pair": 12}
    assert "jolly_mixed" not in r.valid_sets
    assert r.territory_bonus_placement == "on_territory" and r.forced_trade_hand == 5
    assert (r.elimination_trade_hand, r.elimination_trade_down_to) == (5, 4)  # RULES.md §2: below 5
    assert r.objective == "missions"
    assert r.automatic_defence is False  # RULES.md §2: the defender chooses


def test_french_domination() -> None:
    r = load_ruleset("french-1976-domination")
    assert r.players_min == 3 and r.objective == "world" and r.trade_values == "incremental"
    assert r.defender_dice_max == 2  # inherited from french-1976


def test_classic_table() -> None:
    r = load_ruleset("classic")
    assert r.objective == "world" and r.defender_dice_max == 2
    assert r.automatic_defence is False  # RULES.md §3: the defender chooses
    assert r.reinforcement_minimum == 3 and r.initial_placement_batch == 0
    assert r.trade_values == "incremental"
    assert [r.set_value("one_each", n) for n in range(9)] == [4, 6, 8, 10, 12, 15, 20, 25, 30]
    assert set(r.valid_sets) == {*ALL_SETS, "jolly_jolly"}
    assert (r.territory_bonus_placement, r.territory_bonus_per_trade) == ("on_territory", 1)
    assert r.forced_trade_hand == 5
    assert (r.elimination_trade_hand, r.elimination_trade_down_to) == (6, 4)


def test_fixed_values_do_not_grow() -> None:
    r = load_ruleset("italian")
    assert [r.set_value("jolly_pair", n) for n in (0, 5, 20)] == [12, 12, 12]


def test_unknown_ruleset_lists_the_known_ones() -> None:
    with pytest.raises(RulesetError, match="known rulesets: classic, french-1976"):
        load_ruleset("monopoly")


def test_unknown_key_is_named(tmp_path: Path) -> None:
    f = tmp_path / "mine.toml"
    f.write_text('extends = "classic"\ndefender_dice = 3\n')
    with pytest.raises(RulesetError, match="unknown key 'defender_dice'"):
        load_ruleset(str(f))


def test_own_ruleset_extends_a_builtin(tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text('extends = "classic"\ndefender_dice_max = 3\nfortify_path = "connected"\n')
    r = load_ruleset(str(f))
    assert r.name == "house" and r.defender_dice_max == 3 and r.fortify_path == "connected"
    assert r.trade_values == "incremental"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('extends = "italian"\ndefender_dice_max = "three"\n', "'defender_dice_max' must be a whole number"),
        ('extends = "italian"\nobjective = "money"\n', "'objective' must be one of 'missions', 'world'"),
        ('extends = "italian"\ndefender_dice_max = 4\n', "'defender_dice_max' must be a whole number from 1 to 3"),
        ('extends = "italian"\nvalid_sets = ["five_of_a_kind"]\n', "unknown set kind 'five_of_a_kind'"),
        ('extends = "italian"\nplayers_max = 7\n', "colours"),
        ('extends = "nowhere"\n', "unknown ruleset 'nowhere'"),
        ("extends = [\n", "not valid TOML"),
    ],
)
def test_bad_parameters_are_named(tmp_path: Path, text: str, message: str) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(RulesetError, match=message):
        load_ruleset(str(f))


def test_cli_rules_json_prints_resolved_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "french-1976-domination", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["objective"] == "world" and data["defender_dice_max"] == 2 and data["forced_trade_hand"] == 5


def test_cli_rules_lists(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in builtin_rulesets())


def test_cli_unknown_ruleset_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "known rulesets" in err and "Traceback" not in err


@pytest.mark.parametrize(("overrides", "message"), [
    ({"fleets": True}, "fleets = true needs one die each: attacker_dice_max = 1 and defender_dice_max = 1"),
    ({"fleets": True, "attacker_dice_max": 1, "defender_dice_max": 1, "fortify_path": "connected"},
     "fleets = true needs fortify_path = \"adjacent\""),
    ({"one_move_per_unit": True, "fortify_path": "connected"}, "one_move_per_unit = true needs fortify_path"),
    ({"fleets": True, "attacker_dice_max": 1, "defender_dice_max": 1, "attack_die_handicap": 4},
     "fleet_die_handicap plus a die handicap must be at most 5"),
    ({"fleet_die_handicap": 6}, "'fleet_die_handicap' must be a whole number from 0 to 5"),
    ({"fleet_handicap": "always"}, "'fleet_handicap' must be one of 'every_battle', 'attacking_fleet'"),
])
def test_fleets_that_do_not_fit_the_rest_are_refused_by_name(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(RulesetError, match=re.escape(message)):
        load_ruleset("classic", overrides)


def test_fleets_are_refereed_in_the_1954_game_and_off_elsewhere() -> None:
    r = load_ruleset("lamorisse-1954")
    assert (r.fleets, r.fleet_die_handicap, r.fleet_handicap, r.one_move_per_unit) == (
        True, 2, "every_battle", True)
    assert not any(load_ruleset(name).fleets for name in builtin_rulesets() if name != "lamorisse-1954")
    assert load_ruleset("lamorisse-1954", {"fleet_handicap": "attacking_fleet"}).fleet_handicap == "attacking_fleet"


def test_leaving_and_the_turn_time_limit_are_refereed_both_ways() -> None:
    for leave in (True, False):
        assert load_ruleset("classic", {"players_may_leave": leave}).players_may_leave is leave
    assert load_ruleset("italian", {"turn_time_limit_s": 60}).turn_time_limit_s == 60
    assert load_ruleset("italian").turn_time_limit_s == 0


def test_an_old_log_that_allowed_leaving_still_reads() -> None:
    # Logs written before the refusal carried players_may_leave = true, which nothing acted on; later ones false.
    params = load_ruleset("italian").to_dict()
    for leave in (True, False):
        params["players_may_leave"] = leave
        assert ruleset_from_dict(params, "old.jsonl").players_may_leave is leave
    # A log written before fleets were refereed has none of their parameters: read as no fleets.
    for key in ("fleet_die_handicap", "fleet_handicap", "one_move_per_unit"):
        del params[key]
    old = ruleset_from_dict(params, "old.jsonl")
    assert (old.fleets, old.one_move_per_unit) == (False, False)


def test_choices_are_enums_that_read_as_their_words() -> None:
    r = load_ruleset("classic")
    assert r.objective is Objective.WORLD and r.trade_values is TradeValues.INCREMENTAL
    assert r.fortify_path is FortifyPath.ADJACENT and r.ties is Ties.DEFENDER
    assert json.loads(json.dumps(r.to_dict()))["objective"] == "world"
    with pytest.raises(RulesetError, match="'fortify_path' must be one of 'adjacent', 'connected', got 'teleport'"):
        load_ruleset("classic", {"fortify_path": "teleport"})
