"""`Game.undo()` takes back any applied action exactly; `snapshot()` and `from_snapshot()` are inverses.

Over many seeded games of every ruleset: after each action, undo gives back the state before it (the full snapshot,
so also the order cards lie in, and the log), and re-applying gives the same state again; at the end the whole game
is undone back to the deal. A position rebuilt from its snapshot plays on exactly as the original.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conquista.bots import make_bot
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.errors import IllegalActionError, RulesetError
from conquista.rules.actions import (
    Attack,
    Blitz,
    Defend,
    Draw,
    EndPhase,
    Fortify,
    Occupy,
    Place,
    Roll,
    Trade,
)
from conquista.rules.engine import CHANCE, TERMINAL, Game
from conquista.rules.events import Phase
from conquista.rules.rulesets import builtin_rulesets, load_ruleset
from conquista.rules.state import FIGHT_SCALARS, SCALAR_FIELDS
from tests.rules.helpers import MAP, dealt, position, tid

CASES = [(name, n) for name in builtin_rulesets() for n in (2, 3, 5)
         if load_ruleset(name).players_min <= n <= load_ruleset(name).players_max]
ALL_KINDS = {Place, Trade, EndPhase, Attack, Blitz, Defend, Roll, Occupy, Fortify, Draw}


def _play(rules_name: str, players: int, seed: int, turn_cap: int, step: object = None,
          **overrides: object) -> tuple[Game, set[type]]:
    """A seeded bot game; `step(game, action)` runs before each action is applied."""
    rules = load_ruleset(rules_name, overrides or None)
    rng = random.Random(seed)
    game = new_game(rules, MAP, players, rng)
    dice = SeededDice(rng=rng)
    seats = [make_bot(["random", "greedy"][i % 2], rng) for i in range(players)]
    kinds: set[type] = set()
    while not game.over and game.turn <= turn_cap:
        who = game.to_move
        action = seats[who].choose(game) if isinstance(who, int) else chance_action(game, dice)
        if step is not None:
            step(game, action)  # type: ignore[operator]
        game.apply(action)
        kinds.add(type(action))
    return game, kinds


def _undo_and_redo(game: Game, action: object) -> None:
    before, digest, log = json.dumps(game.snapshot()), game.digest(), list(game.log)
    game.apply(action)  # type: ignore[arg-type]
    after = json.dumps(game.snapshot())
    assert game.undo() == action
    assert json.dumps(game.snapshot()) == before and game.digest() == digest and game.log == log
    game.apply(action)  # type: ignore[arg-type]
    assert json.dumps(game.snapshot()) == after
    game.undo()  # the caller applies it for good


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1), chosen_defence=st.booleans())
def test_every_action_undoes_exactly(case: tuple[str, int], seed: int, chosen_defence: bool) -> None:
    rules_name, players = case
    game, _ = _play(rules_name, players, seed, turn_cap=25, step=_undo_and_redo,
                    automatic_defence=not chosen_defence)
    start = dealt(rules_name, players)  # only to check undo all the way back reaches a freshly dealt game
    assert start.turn <= 1
    while game.can_undo():
        game.undo()
    assert len(game.log) == 1  # the deal alone
    replayed = Game(game.rules, game.map, game.players, game.log[0])  # type: ignore[arg-type]
    assert game.snapshot() == replayed.snapshot()


def test_undo_covers_every_action_kind() -> None:
    seen: set[type] = set()
    for seed in range(12):
        for defence in (True, False):
            _, kinds = _play("classic", 3, seed, turn_cap=60, step=_undo_and_redo, automatic_defence=defence)
            seen |= kinds
    assert seen == ALL_KINDS


@pytest.mark.parametrize("case", CASES)
def test_a_fight_changes_no_scalar_its_undo_record_leaves_out(case: tuple[str, int]) -> None:
    # The undo record of an attack, a defence, a roll or a move-in keeps only FIGHT_SCALARS (engine.apply).
    rules_name, players = case
    others = [name for name in SCALAR_FIELDS if name not in FIGHT_SCALARS]
    seen: set[type] = set()

    def step(game: Game, action: object) -> None:
        if isinstance(action, Attack | Blitz | Defend | Roll | Occupy):
            before = [getattr(game, name) for name in others]
            game.apply(action)  # type: ignore[arg-type]
            assert [getattr(game, name) for name in others] == before, action
            game.undo()
            seen.add(type(action))

    for seed in range(3):
        for defence in (True, False):
            _play(rules_name, players, seed, turn_cap=40, step=step, automatic_defence=defence)
    assert {Blitz, Roll, Occupy} <= seen


def test_undo_with_nothing_applied_is_refused() -> None:
    game = dealt("classic", 2)
    assert not game.can_undo()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        game.undo()


def test_undo_of_a_conquest_that_eliminated_gives_the_cards_back() -> None:
    owners = {MAP.id(t): 0 for t in range(42)}
    owners["kamchatka"] = 1
    owners["brazil"] = 2
    game = position("classic", automatic_defence=True, players=3, owners=owners, armies={"alaska": 5}, default_owner=0,
                    hands={1: [tid("japan"), tid("egypt")]})
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    before = game.snapshot()
    game.apply(Roll((6, 6, 6), (1,)))
    assert game.eliminated[1] and game.hands[0] == [tid("japan"), tid("egypt")]
    game.undo()
    assert game.snapshot() == before and game.eliminated_by == [None, None, None]


@pytest.mark.parametrize(("rules_name", "players"), CASES)
def test_snapshot_round_trip_plays_on_identically(rules_name: str, players: int) -> None:
    game, _ = _play(rules_name, players, seed=players, turn_cap=8)
    data = json.loads(json.dumps(game.snapshot()))  # through JSON, as it would be stored
    copy = Game.from_snapshot(data, game.rules, game.map)
    assert copy.snapshot() == game.snapshot() and copy.digest() == game.digest()
    assert copy.to_move == game.to_move and copy.legal_actions() == game.legal_actions()
    rng = random.Random(5)
    for _ in range(200):
        if game.over:
            break
        action = rng.choice(game.legal_actions())
        assert copy.apply(action) == game.apply(action)
    assert copy.snapshot() == game.snapshot()


def test_from_snapshot_refuses_other_rules_and_unknown_fields() -> None:
    game = dealt("classic", 2)
    with pytest.raises(RulesetError, match="not 'italian'"):
        Game.from_snapshot(game.snapshot(), load_ruleset("italian"), MAP)
    with pytest.raises(RulesetError, match="sea"):
        Game.from_snapshot({**game.snapshot(), "sea": 1}, game.rules, MAP)


def test_clone_shares_no_state_and_starts_its_own_history() -> None:
    game = position("classic", owners={"alaska": 0}, armies={"alaska": 5})
    twin = game.clone()
    twin.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    assert game.battle is None and twin.battle is not None and game.phase is Phase.ATTACK
    assert twin.can_undo() and not game.can_undo()


def test_to_move_tells_chance_from_the_end() -> None:
    owners = {MAP.id(t): 0 for t in range(42)}
    owners["kamchatka"] = 1
    game = position("classic", automatic_defence=True, owners=owners, armies={"alaska": 5}, default_owner=0)
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    assert game.to_move is CHANCE
    game.apply(Roll((6, 6, 6), (1,)))
    assert game.to_move is TERMINAL and game.winner == 0


def test_undo_covers_the_neutral_army() -> None:
    """Every step of the duel undoes exactly: neutral placements, the neutral turn, its conquests and defence."""
    phases: set[Phase] = set()

    def step(game: Game, action: object) -> None:
        phases.add(game.phase)
        _undo_and_redo(game, action)

    for seed in range(4):
        for defence in (True, False):
            _play("french-1976-duel", 2, seed, turn_cap=40, step=step, automatic_defence=defence)
            _play("classic", 2, seed, turn_cap=20, step=step, automatic_defence=defence, neutral_army=True)
    assert {Phase.NEUTRAL_REINFORCE, Phase.NEUTRAL_ATTACK, Phase.DEFEND, Phase.OCCUPY} <= phases
