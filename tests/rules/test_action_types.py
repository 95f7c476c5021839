"""Issue 13 §1: an action with a field of the wrong type (None, a float, a bool, a string, a huge number, tuples of
bools...) is refused by `apply` and `check` with the project's IllegalActionError, naming the action, phase and
reason, and the state is left exactly as it was. Whatever the phase: positions come from seeded bot games."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conquista.bots import make_bot
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.errors import ConquistaError, IllegalActionError
from conquista.rules.actions import (
    Action,
    Attack,
    Blitz,
    Defend,
    Draw,
    Fortify,
    Occupy,
    Place,
    Roll,
    Trade,
)
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.rulesets import load_ruleset
from tests.rules.helpers import MAP, position, tid

# Values no field of any action may hold: none is a plain int where an int is wanted.
WRONG = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=3), st.just(0.0), st.just(1.0),
    st.complex_numbers(max_magnitude=5), st.lists(st.integers(0, 5), max_size=3),
    st.tuples(st.booleans(), st.booleans(), st.booleans()), st.tuples(st.none(), st.integers(1, 6)),
    st.dictionaries(st.text(max_size=1), st.integers(), max_size=1), st.just(b"\x01"), st.just(object()),
)
HUGE = st.sampled_from([10**30, -(10**30), 2**63, -1, 10**4000])
ANY_INT = st.integers(-2, 50)
DICE = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))


def _actions(bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Action]:
    """Every action kind with one field drawn from `bad` and the others plausible."""
    return st.one_of(
        st.builds(Place, bad, ANY_INT), st.builds(Place, ANY_INT, bad),
        st.builds(Attack, bad, ANY_INT, ANY_INT), st.builds(Attack, ANY_INT, bad, ANY_INT),
        st.builds(Attack, ANY_INT, ANY_INT, bad),
        st.builds(Blitz, bad, ANY_INT, ANY_INT), st.builds(Blitz, ANY_INT, ANY_INT, bad),
        st.builds(Fortify, bad, ANY_INT, ANY_INT), st.builds(Fortify, ANY_INT, ANY_INT, bad),
        st.builds(Occupy, bad), st.builds(Defend, bad), st.builds(Draw, bad),
        st.builds(Roll, bad, DICE), st.builds(Roll, DICE, bad), st.builds(Roll, DICE, DICE, bad),
        st.builds(Roll, st.tuples(st.just(True), st.just(2), st.just(3)), st.tuples(st.just(1), st.just(True))),
        st.builds(Trade, bad), st.builds(Trade, st.tuples(bad, ANY_INT, ANY_INT)),
    )


def _positions() -> list[Game]:
    """Games stopped in every phase (setup to the end), from seeded bot games."""
    out: list[Game] = []
    for seed, defence in ((1, True), (2, False), (3, True)):
        rules = load_ruleset("classic", {"automatic_defence": defence})
        rng = random.Random(seed)
        game = new_game(rules, MAP, 3, rng)
        dice = SeededDice(rng=rng)
        bots = [make_bot("greedy", rng) for _ in range(3)]
        seen = set()
        while not game.over and game.turn < 80:
            if game.phase not in seen or rng.random() < 0.01:
                seen.add(game.phase)
                out.append(game.clone())
            who = game.to_move
            game.apply(bots[who].choose(game) if isinstance(who, int) else chance_action(game, dice))
        out.append(game.clone())
    return out


POSITIONS = _positions()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(POSITIONS) - 1), action=_actions(st.one_of(WRONG, HUGE)))
def test_wrong_field_types_are_refused_and_change_nothing(index: int, action: Action) -> None:
    game = POSITIONS[index]
    before, digest, log = json.dumps(game.snapshot()), game.digest(), len(game.log)
    refused = game.check(action)
    assert refused, f"{action!r} passed the check in phase {game.phase.value}"
    try:
        game.apply(action)
    except IllegalActionError as exc:
        assert exc.action is action and exc.phase is game.phase and exc.reason == refused
        assert exc.reason in str(exc) and isinstance(exc, ConquistaError)
    else:
        raise AssertionError(f"{action!r} was accepted in phase {game.phase.value}")
    assert json.dumps(game.snapshot()) == before and game.digest() == digest and len(game.log) == log


def test_the_cases_the_issue_names() -> None:
    game = position("classic", owners={"alaska": 0}, armies={"alaska": 5})
    for action in (Place(territory=None), Roll(attack=None, defend=(1,)), Draw(card=0.0),  # type: ignore[arg-type]
                   Attack(tid("alaska"), tid("kamchatka"), True), Attack(tid("alaska"), tid("kamchatka"), 10**100),
                   Trade((None, 1, 2))):  # type: ignore[arg-type]
        before = game.digest()
        try:
            game.apply(action)
        except IllegalActionError as exc:
            assert exc.phase is game.phase
        else:
            raise AssertionError(f"{action!r} accepted")
        assert game.digest() == before
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    for roll in (Roll((True, 6, 6), (1, 1)), Roll((6.0, 6, 6), (1, 1)), Roll([6, 6, 6], (1, 1)),  # type: ignore[arg-type]
                 Roll((6, 6, 6), (1, 1), None)):  # type: ignore[arg-type]
        try:
            game.apply(roll)
        except IllegalActionError as exc:
            assert "roll" in str(exc) and exc.reason
        else:
            raise AssertionError(f"{roll!r} accepted")


def test_a_float_or_bool_card_is_not_the_card_it_equals() -> None:
    draws = [g for g in POSITIONS if g.phase is Phase.DRAW]
    assert draws, "the seeded games stop at a card draw"
    for game in draws:
        card = min(game.deck or game.discard)
        before = game.digest()
        for wrong in (float(card), card == 1, complex(card)):
            try:
                game.apply(Draw(wrong))  # type: ignore[arg-type]
            except IllegalActionError as exc:
                assert "is not in the deck" in exc.reason
            else:
                raise AssertionError(f"Draw({wrong!r}) accepted")
        assert game.digest() == before


def test_the_error_carries_its_parts() -> None:
    game = position("classic", owners={"alaska": 0, "alberta": 0}, armies={"alberta": 3})
    action = Attack(tid("alberta"), tid("brazil"), 1)
    try:
        game.apply(action)
    except IllegalActionError as exc:
        assert exc.action == action and exc.player == 0 and exc.reason == "brazil is not adjacent to alberta"
        assert str(exc) == ("attack alberta → brazil with 1 die is illegal in phase attack (player 1): "
                            "brazil is not adjacent to alberta")
    else:
        raise AssertionError("accepted")
