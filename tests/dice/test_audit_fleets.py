"""The dice audit of games with fleets (lamorisse-1954): a fleet's die counts 2 less against an army, so the audit
replays the log to learn which units fought each roll and tests each battle's rolls under its own dice rule."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from conquista.bots import make_bot
from conquista.bots.base import Bot
from conquista.cli import main
from conquista.dice.audit import AuditError, audit_log
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.rules.actions import Roll
from conquista.rules.engine import Game
from conquista.rules.gamelog import dump_lines
from conquista.rules.rulesets import load_ruleset
from tests.rules.helpers import MAP

from .test_cli import one_line_error, run

RULES = "lamorisse-1954"
FLEET_ON_ARMY = "1 vs 1 dice, a fleet attacking an army (the attack die counts 2 less)"
ARMY_ON_FLEET = "1 vs 1 dice, an army attacking a fleet (the defence die counts 2 less)"

Dice = Callable[[Game, random.Random], Roll]


def fair(game: Game, rng: random.Random) -> Roll:
    return Roll((rng.randint(1, 6),), (rng.randint(1, 6),), "seeded")


def fleets_always_win(game: Game, rng: random.Random) -> Roll:
    """Loaded dice: in a battle between a fleet and an army the fleet wins every roll; other rolls are fair."""
    battle = game.battle
    assert battle is not None
    attack_fleet, defend_fleet = game.sails(battle.source, battle.target), game.defending_fleet(battle.target)
    while True:
        roll = fair(game, rng)
        a, d = roll.attack[0], roll.defend[0]
        if attack_fleet == defend_fleet or (a - 2 > d if attack_fleet else d - 2 > a):
            return roll


def handicap_ignored(game: Game, rng: random.Random) -> Roll:
    """Loaded subtly: when a fleet attacks an army the outcome is drawn as if neither had a handicap (a tie 1/6, a
    win or a loss 5/12 each) and faces that give it are shown; other rolls are fair."""
    battle = game.battle
    assert battle is not None
    if not game.sails(battle.source, battle.target) or game.defending_fleet(battle.target):
        return fair(game, rng)
    wanted = rng.choices((0, 1, -1), weights=(6, 15, 15))[0]
    while True:
        roll = fair(game, rng)
        diff = roll.attack[0] - 2 - roll.defend[0]
        if (diff > 0) - (diff < 0) == wanted:
            return roll


def game_log(path: Path, seed: str, dice: Dice = fair) -> Path:
    """A seeded game of four planners, its rolls from `dice`, saved as a log."""
    rng = random.Random(seed)
    game = new_game(load_ruleset(RULES), MAP, 4, rng)
    bots: list[Bot] = [make_bot("planner", rng) for _ in range(4)]
    draws, rolls = SeededDice(rng=rng), random.Random(f"{seed}:dice")
    while not game.over and game.turn <= 1000:
        who = game.to_move
        if isinstance(who, int):
            game.apply(bots[who].choose(game))
        elif game.battle is not None:
            game.apply(dice(game, rolls))
        else:
            game.apply(chance_action(game, draws))
    path.write_text("\n".join(dump_lines(game, {"source": "seeded"})) + "\n", "utf-8")
    return path


def game_with_battles(path: Path, dice: Dice = fair, **least: int) -> Path:
    """The first seeded game (audit:0, audit:1, ...) with at least `least[group]` rolls of each named kind of battle
    (FLEET_ON_ARMY=..., ARMY_ON_FLEET=...): which game that is follows the engine and the bots; what the test
    checks does not."""
    wanted = {globals()[name]: count for name, count in least.items()}
    for number in range(40):
        log = game_log(path, f"audit:{number}", dice)
        rolls = {c.label: c.rolls for c in audit_log(log).combinations}
        if all(rolls.get(label, 0) >= count for label, count in wanted.items()):
            return log
    raise AssertionError(f"no seeded game of the first 40 has {wanted}")


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return game_with_battles(tmp_path_factory.mktemp("fleets") / "honest.jsonl", FLEET_ON_ARMY=120, ARMY_ON_FLEET=50)


def test_an_honest_game_with_fleet_battles_passes(honest: Path) -> None:
    report = audit_log(honest)
    assert report.passed, report.failures()
    groups = {c.label: c for c in report.combinations}
    fleet = groups[FLEET_ON_ARMY]
    assert fleet.tested and fleet.rolls >= 120 and (fleet.attack_die_handicap, fleet.defence_die_handicap) == (2, 0)
    assert {(o.attacker_losses, o.defender_losses): o.probability for o in fleet.outcomes} == {
        (0, 0): pytest.approx(4 / 36), (0, 1): pytest.approx(6 / 36), (1, 0): pytest.approx(26 / 36)}
    even = groups["1 vs 1 dice, a fleet attacking a fleet or an army attacking an army"]
    assert even.tested and even.rolls > fleet.rolls
    assert groups[ARMY_ON_FLEET].tested
    assert sum(c.rolls for c in report.combinations) == report.rolls
    # The blitz test weighs each blitz with its battle's odds too.
    assert report.battles is not None and report.battles.tested and report.battles.p_value > report.threshold


def test_fleets_that_always_win_fail_the_outcome_test(tmp_path: Path) -> None:
    report = audit_log(game_with_battles(tmp_path / "loaded.jsonl", fleets_always_win, ARMY_ON_FLEET=60))
    army_on_fleet = ARMY_ON_FLEET
    assert f"{army_on_fleet} outcomes differ from the exact odds" in "; ".join(report.failures())
    group = next(c for c in report.combinations if c.label == army_on_fleet)
    assert {(o.attacker_losses, o.defender_losses): o.observed for o in group.outcomes}[1, 0] == group.rolls


def test_dice_that_ignore_the_fleets_handicap_fail_the_outcome_test(tmp_path: Path) -> None:
    report = audit_log(game_with_battles(tmp_path / "no-handicap.jsonl", handicap_ignored, FLEET_ON_ARMY=60))
    failures = report.failures()
    assert any(f.startswith(f"{FLEET_ON_ARMY} outcomes differ from the exact odds") for f in failures), failures
    even = [c for c in report.combinations if "a fleet attacking a fleet or an army attacking an army" in c.label]
    assert even and not any(even[0].label in f for f in failures)


def test_the_report_names_the_battles_in_words(capsys: pytest.CaptureFixture[str], honest: Path) -> None:
    code, out, _ = run(capsys, "dice", "audit", str(honest))
    assert code == 0
    assert f"  {FLEET_ON_ARMY}, " in out
    assert "  1 vs 1 dice, a fleet attacking a fleet or an army attacking an army, " in out
    assert out.rstrip().endswith("PASS")


def test_a_fleet_game_without_its_deal_is_refused(capsys: pytest.CaptureFixture[str], honest: Path,
                                                 tmp_path: Path) -> None:
    lines = honest.read_text("utf-8").splitlines()
    rolls_only = tmp_path / "rolls.jsonl"
    rolls_only.write_text("\n".join([lines[0], *(x for x in lines[1:] if '"type": "roll"' in x)]) + "\n", "utf-8")
    with pytest.raises(AuditError, match=r"has fleets.*replays the whole log from the deal"):
        audit_log(rolls_only)
    code, _, err = run(capsys, "dice", "audit", str(rolls_only))
    assert "no deal before its first action" in one_line_error(code, err)


def test_other_rulesets_group_as_before(tmp_path: Path) -> None:
    assert main(["simulate", "--rules", "italian", "--players", "3", "--games", "1", "--seed", "2",
                 "--save-logs", str(tmp_path)]) == 0
    report = audit_log(next(tmp_path.glob("*.jsonl")))
    assert [c.label for c in report.combinations] == [f"{c.attack_dice} vs {c.defend_dice} dice"
                                                      for c in report.combinations]
    assert all(not c.units for c in report.combinations)
