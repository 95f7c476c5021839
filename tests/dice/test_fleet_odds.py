"""Odds of battles where fleets fight (lamorisse-1954): `rules.fleet_odds` and `conquista odds --attacker fleet`.

Hand counts, one die each with ties re-rolled: a fleet's die counting 2 less against an army wins when a - 2 > d,
for a = 4 (d = 1), a = 5 (d <= 2), a = 6 (d <= 3): 6 pairs; ties a - 2 = d for a = 3..6: 4 pairs; the other 26
lose. A roll that decides goes to the fleet 6 times in 32: p = 3/16; an army against a fleet: 26/32 = 13/16. A blitz
of single dice is a race: the target's D units fall before the attacker's L losses with probability
sum_{k<L} C(D - 1 + k, k) p^D (1 - p)^k (a negative binomial sum).
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from conquista.dice.chance import chance_action
from conquista.dice.sources import SeededDice
from conquista.errors import OddsError
from conquista.rules.actions import Blitz
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.fleet_battle import battle_rule
from conquista.rules.fleet_odds import fleet_blitz_odds
from conquista.rules.odds import blitz_odds, odds_table
from conquista.rules.rulesets import load_ruleset
from tests.rules.helpers import MAP, position, tid

from .test_cli import one_line_error, run

RULES = "lamorisse-1954"
FLEET_WINS = Fraction(3, 16)   # a fleet attacking an army wins a roll that decides
ARMY_WINS = Fraction(13, 16)   # an army attacking a fleet


def race(p: Fraction, defending: int, losses: int) -> Fraction:
    """`defending` wins before `losses` losses, each roll won with probability p."""
    return sum((comb(defending - 1 + k, k) * p ** defending * (1 - p) ** k for k in range(losses)), Fraction(0))


@pytest.mark.parametrize(("attacker", "defender", "p"), [
    ("fleet", "army", FLEET_WINS), ("army", "fleet", ARMY_WINS), ("fleet", "fleet", Fraction(1, 2)),
    ("army", "army", Fraction(1, 2))])
@pytest.mark.parametrize(("attacking", "defending"), [(2, 1), (6, 3), (9, 2)])
def test_a_stack_of_one_kind_against_the_hand_count(attacker: str, defender: str, p: Fraction, attacking: int,
                                                   defending: int) -> None:
    odds = fleet_blitz_odds(load_ruleset(RULES), attacking, defending, attack_fleet=attacker == "fleet",
                            defending_fleets=defending if defender == "fleet" else 0, exact=True)
    assert odds.attacker_wins == race(p, defending, attacking - 1)
    assert sum(odds.outcomes.values()) == 1


def test_the_target_defends_with_its_armies_first() -> None:
    # An army attacks 1 army + 1 fleet from 3: beats the army (1/2) and then the fleet (13/16) before 2 losses.
    # Win-win: 1/2 * (1 - (3/16)^2) from 3 against the fleet; lose-win: 1/4, then 13/16 from 2 against the fleet.
    odds = fleet_blitz_odds(load_ruleset(RULES), 3, 2, defending_fleets=1, exact=True)
    expected = Fraction(1, 2) * (1 - FLEET_WINS ** 2) + Fraction(1, 4) * ARMY_WINS
    assert odds.attacker_wins == expected == Fraction(351, 512)
    assert odds.defender_survivors[2] == Fraction(1, 4)   # two losses first


def test_only_the_units_of_the_links_kind_attack() -> None:
    # 5 units of which 2 fleets sail against 1 army: the fleet wins a roll before both fleets are lost.
    rules = load_ruleset(RULES)
    odds = fleet_blitz_odds(rules, 5, 1, attack_fleet=True, usable=2, exact=True)
    assert odds.attacker_wins == FLEET_WINS + ARMY_WINS * FLEET_WINS == Fraction(87, 256)
    assert set(odds.attacker_survivors) == {3, 4, 5}   # the armies stay home
    assert odds.attacker_wins == blitz_odds(battle_rule(rules, True, False), 3, 1, exact=True).attacker_wins


def test_only_an_attacking_fleet_counts_less_when_the_ruleset_says_so() -> None:
    rules = load_ruleset(RULES, {"fleet_handicap": "attacking_fleet"})
    assert fleet_blitz_odds(rules, 2, 1, defending_fleets=1, exact=True).attacker_wins == Fraction(1, 2)
    assert fleet_blitz_odds(rules, 2, 1, attack_fleet=True, exact=True).attacker_wins == FLEET_WINS


def test_questions_without_meaning_are_refused() -> None:
    with pytest.raises(OddsError, match="italian has no fleets"):
        fleet_blitz_odds(load_ruleset("italian"), 5, 2, attack_fleet=True)
    with pytest.raises(OddsError, match="0 to the 5 attacking, not 6"):
        fleet_blitz_odds(load_ruleset(RULES), 5, 2, usable=6)
    with pytest.raises(OddsError, match="0 to the 2 defending units, not 3"):
        fleet_blitz_odds(load_ruleset(RULES), 5, 2, defending_fleets=3)


@pytest.mark.parametrize(("source", "target", "units", "fleets"), [
    ("alberta", "alaska", (4, 0), (3, 2)),        # armies march against 1 army, then 2 fleets
    ("kamchatka", "alaska", (7, 3), (2, 1)),      # 3 of 7 units sail against 1 army, then 1 fleet
])
def test_the_engine_fights_as_the_odds_say(source: str, target: str, units: tuple[int, int],
                                          fleets: tuple[int, int]) -> None:
    """Seeded blitzes through the engine (no timing): the conquest rate within 4.5 sigma of the exact chance."""
    s, t = tid(source), tid(target)
    fleet_counts = [0] * MAP.size
    fleet_counts[s], fleet_counts[t] = units[1], fleets[1]
    start = position(RULES, 2, owners={source: 0}, armies={source: units[0], target: fleets[0]},
                     state={"fleets": fleet_counts})
    snap = start.snapshot()
    exact = fleet_blitz_odds(start.rules, units[0], fleets[0], attack_fleet=start.sails(s, t),
                             usable=start.units_for_link(s, t), defending_fleets=fleets[1]).attacker_wins
    dice, trials, conquered = SeededDice(rng=random.Random(3)), 2000, 0
    for _ in range(trials):
        game = Game.from_snapshot(snap, start.rules, MAP)
        game.apply(Blitz(s, t, 1))
        while game.phase is Phase.ROLL:
            game.apply(chance_action(game, dice))
        conquered += game.owner[t] == 0
    assert 0.05 < exact < 0.95
    assert abs(conquered / trials - exact) < 4.5 * math.sqrt(exact * (1 - exact) / trials)


# ------------------------------------------------------------------------------------------------- the CLI

def test_odds_cli_fleet_attacking_an_army(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "6", "3", "--rules", RULES, "--attacker", "fleet", "--exact", "--json")
    assert code == 0
    data = json.loads(out)
    assert Fraction(data["attacker_wins_exact"]) == race(FLEET_WINS, 3, 5)
    assert data["first_roll_exact"] == {"0,1": "3/16", "1,0": "13/16"}
    assert (data["attacker"], data["defender"], data["attack_die_handicap"]) == ("fleet", "army", 2)
    code, out, _ = run(capsys, "odds", "6", "3", "--rules", RULES, "--attacker", "fleet")
    assert code == 0 and "a fleet attacking an army: the fleet's die counts 2 less" in out
    assert f"{float(race(FLEET_WINS, 3, 5)) * 100:6.2f} %" in out


def test_odds_cli_army_attacking_a_fleet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "6", "3", "--rules", RULES, "--defender", "fleet", "--exact", "--json")
    assert code == 0
    data = json.loads(out)
    assert Fraction(data["attacker_wins_exact"]) == race(ARMY_WINS, 3, 5) == Fraction(267504523, 268435456)
    assert data["defence_die_handicap"] == 2


def test_odds_cli_follows_the_rulesets_fleet_handicap(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    custom = tmp_path / "only-attacking.toml"
    custom.write_text('extends = "lamorisse-1954"\nfleet_handicap = "attacking_fleet"\nfleet_die_handicap = 3\n')
    code, out, _ = run(capsys, "odds", "2", "1", "--rules", str(custom), "--defender", "fleet", "--exact")
    assert code == 0 and "= 1/2" in out and "no handicap (only an attacking fleet's die counts less)" in out
    # A handicap of 3: the fleet wins 3 pairs (a - 3 > d: a = 5, d = 1; a = 6, d <= 2), ties 3, loses 30: 3/33.
    code, out, _ = run(capsys, "odds", "2", "1", "--rules", str(custom), "--attacker", "fleet", "--exact", "--json")
    assert code == 0 and json.loads(out)["attacker_wins_exact"] == "1/11"


def test_odds_cli_fleet_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--table", "5", "--rules", RULES, "--attacker", "fleet", "--json")
    assert code == 0
    rules = load_ruleset(RULES)
    assert json.loads(out)["attacker_wins"] == [list(row) for row in odds_table(battle_rule(rules, True, False), 5)]


@pytest.mark.parametrize("side", ["--attacker", "--defender"])
def test_odds_cli_refuses_fleets_in_a_ruleset_without_them(capsys: pytest.CaptureFixture[str], side: str) -> None:
    code, _, err = run(capsys, "odds", "6", "3", "--rules", "classic", side, "fleet")
    line = one_line_error(code, err)
    assert f"{side} fleet: ruleset classic has no fleets" in line and "--rules lamorisse-1954" in line
