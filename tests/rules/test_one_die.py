"""The battle-rule parameters in the engine: ties re-rolled and per-die handicaps (rules/battle.py), played end to
end on tests/data/one-die.toml (one die each, ties re-rolled): a tied roll is logged, removes no army and leaves the
battle at the same roll; seeded games keep armies conserved, replay identically and undo exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conquista.cli import main
from conquista.errors import OddsError, RulesetError
from conquista.rules.actions import Attack, Blitz, Defend, Roll
from conquista.rules.battle import VOID_ROLL, DiceRule, resolve_roll, resolver_for
from conquista.rules.choices import Ties
from conquista.rules.engine import Game
from conquista.rules.events import BattleRolled
from conquista.rules.events import Phase as P
from conquista.rules.gamelog import header_for, replay
from conquista.rules.rulesets import load_ruleset
from tests.rules.helpers import position, tid
from tests.rules.test_properties import play_checked

ONE_DIE = str(Path(__file__).parents[1] / "data" / "one-die.toml")
REROLL = DiceRule(1, 1, Ties.REROLL)


def test_the_one_die_ruleset_loads_with_its_battle_rule() -> None:
    rules = load_ruleset(ONE_DIE)
    assert (rules.attacker_dice_max, rules.defender_dice_max, rules.ties) == (1, 1, Ties.REROLL)
    assert DiceRule.of(rules) == REROLL


@pytest.mark.parametrize("name", ["italian", "classic", "french-1976", "french-1976-duel"])
def test_shipped_rulesets_keep_ties_to_the_defender_and_no_handicap(name: str) -> None:
    rules = load_ruleset(name)
    assert (rules.ties, rules.attack_die_handicap, rules.defence_die_handicap) == (Ties.DEFENDER, 0, 0)


@pytest.mark.parametrize("key", ["attack_die_handicap", "defence_die_handicap"])
@pytest.mark.parametrize("value", [-1, 6, 2.0, True, "2"])
def test_a_handicap_out_of_range_is_refused_by_name(key: str, value: object) -> None:
    with pytest.raises(RulesetError, match=f"'{key}' must be a whole number from 0 to 5"):
        load_ruleset("classic", {key: value})


def test_a_dice_rule_refuses_a_handicap_out_of_range() -> None:
    with pytest.raises(OddsError, match="attack_die_handicap must be a whole number from 0 to 5"):
        DiceRule(attack_die_handicap=6)


def test_resolve_roll_ties_and_handicaps() -> None:
    assert resolve_roll((3,), (3,)) == (1, 0)                       # ties to the defender
    assert resolve_roll((3,), (3,), REROLL) == VOID_ROLL            # ties re-rolled: void
    fleet = DiceRule(1, 1, Ties.REROLL, attack_die_handicap=2)
    assert resolve_roll((6,), (5,), fleet) == (1, 0)                # a fleet's 6 loses to an army's 5
    assert resolve_roll((6,), (4,), fleet) == VOID_ROLL             # 6 - 2 ties a 4
    assert resolve_roll((6,), (3,), fleet) == (0, 1)
    defended = DiceRule(1, 1, Ties.DEFENDER, defence_die_handicap=2)
    assert resolve_roll((2,), (4,), defended) == (1, 0) and resolve_roll((3,), (4,), defended) == (0, 1)
    both = DiceRule(3, 2, Ties.DEFENDER, 1, 1)                      # equal handicaps cancel out
    assert resolve_roll((6, 2, 1), (5, 2), both) == resolve_roll((6, 2, 1), (5, 2))
    # More dice: any tied pair makes the whole roll void [interpretation].
    multi = DiceRule(3, 2, Ties.REROLL)
    assert resolve_roll((6, 4, 1), (5, 4), multi) == VOID_ROLL
    assert resolve_roll((6, 4, 1), (5, 3), multi) == (0, 2)


def test_the_fast_table_agrees_with_resolve_roll() -> None:
    fleet = DiceRule(3, 3, Ties.REROLL, 2, 1)
    table = resolver_for(fleet)
    for a in range(1, 7):
        for d in range(1, 7):
            for extra in range(1, 7):
                assert table((a, extra), (d,)) == resolve_roll((a, extra), (d,), fleet)


def _one_die_attack(blitz: bool, automatic: bool = True, **overrides: Any) -> Game:
    game = position(ONE_DIE, 2, owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 5, "kamchatka": 3},
                    automatic_defence=automatic, **overrides)
    source, target = tid("alaska"), tid("kamchatka")
    game.apply(Blitz(source, target, 1) if blitz else Attack(source, target, 1))
    return game


@pytest.mark.parametrize("blitz", [False, True])
def test_a_tied_roll_removes_nothing_and_is_rolled_again(blitz: bool) -> None:
    game = _one_die_attack(blitz)
    assert game.phase is P.ROLL
    before, battle = game.snapshot(), game.battle
    events = game.apply(Roll((4,), (4,)))
    assert events == [BattleRolled(tid("alaska"), tid("kamchatka"), (4,), (4,), 0, 0)]
    assert game.phase is P.ROLL and game.battle == battle
    assert {k: v for k, v in game.snapshot().items() if k != "log"} == {k: v for k, v in before.items() if k != "log"}
    assert game.legal_actions() and all(isinstance(a, Roll) for a in game.legal_actions())
    game.apply(Roll((5,), (2,)))                                    # the re-roll decides the pair
    assert game.armies[tid("kamchatka")] == 2
    assert game.phase is (P.ROLL if blitz else P.ATTACK)
    game.undo()
    game.undo()
    assert game.snapshot() == before


def test_a_tied_roll_keeps_the_defenders_choice() -> None:
    # One die a side leaves the defender no choice: asked only when the ruleset asks at every roll (as before the
    # rule decided 2026-11-26; tests/rules/test_decided_rules.py has the question skipped).
    game = _one_die_attack(blitz=True, automatic=False, defence_asked_only_on_choice=False)
    assert game.phase is P.DEFEND
    game.apply(Defend(1))
    game.apply(Roll((2,), (2,)))
    assert game.phase is P.ROLL                                     # no second defence choice for a re-roll
    game.apply(Roll((2,), (3,)))
    assert game.phase is P.DEFEND                                   # the next roll of the blitz is chosen again


def test_a_fleet_handicap_in_the_engine() -> None:
    game = position(ONE_DIE, 2, owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 5, "kamchatka": 3},
                    attack_die_handicap=2)
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 1))
    game.apply(Roll((6,), (5,)))
    assert game.armies[tid("alaska")] == 4 and game.armies[tid("kamchatka")] == 3


@pytest.mark.parametrize("seed", [3, 11])
@pytest.mark.parametrize("chosen_defence", [False, True])
def test_one_die_games_keep_invariants_and_replay(seed: int, chosen_defence: bool) -> None:
    game = play_checked(ONE_DIE, 3, seed, ["greedy", "random"], turn_cap=40, automatic_defence=not chosen_defence)
    assert any(isinstance(a, Roll) and a.attack == a.defend for a in game.log)   # ties happened and were re-rolled


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), attack_handicap=st.integers(0, 5), defence_handicap=st.integers(0, 5),
       chosen_defence=st.booleans())
def test_seeded_one_die_games_with_handicaps_keep_invariants(seed: int, attack_handicap: int, defence_handicap: int,
                                                             chosen_defence: bool) -> None:
    play_checked(ONE_DIE, 3, seed, ["random", "greedy"], turn_cap=20, attack_die_handicap=attack_handicap,
                 defence_die_handicap=defence_handicap, automatic_defence=not chosen_defence)


def test_one_die_games_with_a_handicap_finish() -> None:
    game = play_checked(ONE_DIE, 3, 5, ["greedy"], turn_cap=400, illegal_probes=1, defence_die_handicap=1)
    assert game.over


def test_one_die_game_undoes_exactly_back_to_the_deal() -> None:
    game = play_checked(ONE_DIE, 3, 8, ["greedy"], turn_cap=15, illegal_probes=0)
    replayed = replay(header_for(game), game.log[:1])   # the deal
    snapshots = []
    for action in game.log[1:]:
        snapshots.append(replayed.snapshot())
        replayed.apply(action)
    assert replayed.digest() == game.digest()
    # Undo every action: each step gives back the exact state before it.
    for expected in reversed(snapshots):
        replayed.undo()
        assert replayed.snapshot() == expected


def test_simulate_runs_the_one_die_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--rules", ONE_DIE, "--players", "3", "--games", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 5 and data["cut_at_turn_cap"] == 0
