"""The luck report against a game computed by hand: two battles, four rolls, every number worked out below."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from conquista.dice.audit import audit_records
from conquista.dice.luck import luck_report, verdict
from conquista.rules.actions import Attack, EndPhase, Occupy, Roll
from conquista.rules.engine import Game
from tests.rules.helpers import position, tid

# Italian dice: ties go to the defender, who rolls as many dice as they have armies, up to 3 (automatic defence).
# One roll of a attacking dice against d defending dice, by hand (each die 1..6, a pair lost by the lower die):
#   3 vs 1: the defender's die d is beaten when the highest of three is above it: sum_d 1/6 (1 - (d/6)^3) = 855/1296
#   2 vs 1: sum_d 1/6 (1 - (d/6)^2) = 125/216        1 vs 1: 15/36
#   1 vs 3: the attacker's die a beats all three:  sum_a 1/6 ((a-1)/6)^3 = 225/1296;   1 vs 2: sum_a ((a-1)/6)^2 / 6
#           = 55/216
THREE_ONE = Fraction(855, 1296)
TWO_ONE = Fraction(125, 216)
ONE_ONE = Fraction(15, 36)
ONE_THREE = Fraction(225, 1296)
ONE_TWO = Fraction(55, 216)


def played() -> tuple[Game, Game]:
    """Red (seat 0) takes North Africa from Brazil (4 armies against 1, one roll), then Peru from Argentina with a
    single army against three, winning three rolls in a row (the upset), then ends the attack."""
    start = position("italian", players=2, owners={"brazil": 0, "argentina": 0},
                     armies={"brazil": 4, "argentina": 2, "peru": 3})
    game = start.clone()
    brazil, africa, argentina, peru = tid("brazil"), tid("north_africa"), tid("argentina"), tid("peru")
    game.apply(Attack(brazil, africa, 3))
    game.apply(Roll((6, 5, 1), (2,)))
    game.apply(Occupy(3))
    for defending in ((5, 3, 1), (5, 2), (5,)):
        game.apply(Attack(argentina, peru, 1))
        game.apply(Roll((6,), defending))
    game.apply(Occupy(1))
    game.apply(EndPhase())
    return start, game


def test_the_luck_of_a_game_computed_by_hand() -> None:
    start, game = played()
    report = luck_report(game, start=start)
    red, blue = report.players
    assert (red.colour, blue.colour) == (game.rules.colours[0], game.rules.colours[1])
    assert (red.rolls, red.lost, red.destroyed) == (4, 0, 4)
    assert (blue.rolls, blue.lost, blue.destroyed) == (4, 4, 0)
    # Each roll's expected losses: the attacker loses what the defender does not.
    expected_red_lost = (1 - THREE_ONE) + (1 - ONE_THREE) + (1 - ONE_TWO) + (1 - ONE_ONE)
    expected_blue_lost = THREE_ONE + ONE_THREE + ONE_TWO + ONE_ONE
    assert red.expected_lost == expected_red_lost == blue.expected_destroyed
    assert blue.expected_lost == expected_blue_lost == red.expected_destroyed
    # One pair of dice compared in each roll: each side's loss is 0 or 1, whose variance is p (1 - p).
    bernoulli = sum((p * (1 - p) for p in (THREE_ONE, ONE_THREE, ONE_TWO, ONE_ONE)), Fraction(0))
    assert red.variance_lost == blue.variance_lost == bernoulli
    # Battle 1: 4 armies against 1, attacking on to the last: win at 3 dice, else at 2 dice, else at 1.
    first = THREE_ONE + (1 - THREE_ONE) * (TWO_ONE + (1 - TWO_ONE) * ONE_ONE)
    # Battle 2: 2 armies against 3: one die, three wins in a row before a single loss.
    second = ONE_THREE * ONE_TWO * ONE_ONE
    assert first > Fraction(1, 2) > second
    assert (red.battles, red.underdog, red.upsets) == (2, 1, 1)
    assert red.expected_upsets == pytest.approx(float(second))
    assert (blue.battles, blue.underdog, blue.upsets) == (2, 1, 0)         # held neither, underdog in the first
    assert blue.expected_upsets == pytest.approx(float(1 - first))
    assert report.rolls == 4 and report.fair is None and "too few rolls (4)" in report.verdict
    assert "won 1 of 1 battles they were likely to lose" in red.words()
    assert f"lost 0 armies where the odds expected {float(expected_red_lost):.1f}" in red.words()
    assert "lucky" in red.words() and "unlucky" in blue.words()
    assert len(report.missions) == 2 and all(report.missions)
    text = "\n".join(report.lines())
    assert "Missions:" in text and report.missions[0] in text
    assert json.loads(json.dumps(report.to_json()))["players"][0]["upsets"] == 1


def _rolls(attack: tuple[int, ...], defend: tuple[int, ...], n: int) -> list[tuple[int, dict[str, Any]]]:
    from conquista.rules.rulesets import load_ruleset

    header = {"format": "conquista-log", "version": 1, "ruleset_name": "italian",
              "ruleset": load_ruleset("italian").to_dict(), "players": 2, "dice": {"source": "os"}}
    return [(1, header), *((i + 2, {"type": "roll", "attack": list(attack), "defend": list(defend)})
                           for i in range(n))]


def test_the_verdict_in_words() -> None:
    words, fair = verdict(audit_records(_rolls((6, 6, 6), (1,), 300)))
    assert fair is False and words.startswith("these dice do not look fair (300 rolls)")
    words, fair = verdict(audit_records(_rolls((6,), (1,), 3)))
    assert fair is None and "too few rolls (3)" in words


def test_a_whole_game_between_bots() -> None:
    """A whole seeded game: every army lost in battle is in the report, and seeded dice pass the audit."""
    from conquista.bots.simulate import play_game
    from conquista.rules.mapdata import load_map
    from conquista.rules.rulesets import load_ruleset

    result = play_game(load_ruleset("italian"), load_map(), 3, ["greedy"], seed=7)
    game = result.game
    assert game is not None and game.over
    report = luck_report(game)
    lost = sum(p.lost for p in report.players)
    assert lost == sum(p.destroyed for p in report.players) == game.lost_total
    assert report.rolls > 50 and report.fair is True and report.verdict.startswith("nothing unusual")
    assert sum(p.battles for p in report.players) % 2 == 0          # every battle has an attacker and a defender
    assert abs(sum(float(p.expected_lost) for p in report.players) - lost) < 4 * lost ** 0.5
