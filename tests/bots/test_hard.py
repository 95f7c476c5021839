"""The hard bot: plays every ruleset to the end within its cap, and, like every bot and every hint, decides only on
what its seat may know."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquista.bots import make_bot
from conquista.bots.base import Bot
from conquista.bots.hard import PLANS, HardBot
from conquista.bots.hard_attack import CANDIDATES
from conquista.bots.seat_view import seat_view
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.rulesets import builtin_rulesets, load_ruleset
from conquista.table.hints import hint_for
from tests.bots.test_planner import disguised
from tests.rules.helpers import MAP

ROLLOUTS, CAP, ATTACKS = 2, 300, 400   # a small hard bot: the same code, fewer and shorter tries (quick tests)


@pytest.mark.parametrize("rules_name", builtin_rulesets())
def test_hard_plays_every_ruleset_to_the_end_within_its_cap(rules_name: str) -> None:
    rules = load_ruleset(rules_name)
    players = max(rules.players_min, 2)
    rng = random.Random(f"hard:{rules_name}")
    game = new_game(rules, MAP, players, rng)
    dice = SeededDice(rng=rng)
    hard = HardBot(ROLLOUTS, CAP, ATTACKS)
    seats: list[Bot] = [hard, *(make_bot("normal", rng) for _ in range(players - 1))]
    turns_planned = 0
    while not game.over:
        assert game.turn <= 1000, f"{rules_name}: cut at turn 1000"
        who = game.to_move
        if not isinstance(who, int):
            game.apply(chance_action(game, dice))
            continue
        before = hard.choice
        action = seats[who].choose(game)
        assert game.is_legal(action), f"illegal {game.describe(action)} in {game.phase.value}"
        if who == 0 and hard.choice is not before and hard.choice is not None:
            turns_planned += 1
            assert hard.choice.steps <= ROLLOUTS * len(PLANS) * CAP
        assert hard.attack_steps < ATTACKS + (CANDIDATES + 1) * ROLLOUTS * (CAP + 1)   # one search past the budget
        game.apply(action)
    assert turns_planned > 0


def test_hard_keeps_each_turn_within_its_step_budget() -> None:
    """All the tries of a turn (its plan's, its reinforcements', its attacks') share one budget of steps: a long
    round is tried fewer times and an attack is weighed only while its tries fit, so a turn goes past the budget by
    at most one attack search misjudged (its tries longer than the last ones)."""
    budget, rollouts = 3000, 8
    search = (CANDIDATES + 1) * 2 * (CAP + 1)
    for rules_name, players in (("classic", 2), ("italian", 4)):
        rng = random.Random(f"budget:{rules_name}")
        game = new_game(load_ruleset(rules_name), MAP, players, rng)
        dice = SeededDice(rng=rng)
        hard = HardBot(rollouts, CAP, budget)
        seats: list[Bot] = [hard, *(make_bot("normal", rng) for _ in range(players - 1))]
        cut = used = 0
        while not game.over and game.turn < 40:
            who = game.to_move
            if not isinstance(who, int):
                game.apply(chance_action(game, dice))
                continue
            game.apply(seats[who].choose(game))
            if who == 0 and game.current == 0 and hard.choice is not None:
                assert hard.turn_steps_used <= budget + search, (rules_name, game.turn)
                cut += hard.choice.tries < rollouts
                used = max(used, hard.turn_steps_used)
        assert cut, f"{rules_name}: the budget never cut the plan's tries"
        assert used > budget // 2, f"{rules_name}: the attacks never used the budget"


def test_hard_plays_the_tournament_ending() -> None:
    rules = load_ruleset("italian", {"tournament_ending": True})
    rng = random.Random(3)
    game = new_game(rules, MAP, 3, rng)
    dice = SeededDice(rng=rng)
    seats = [HardBot(ROLLOUTS, CAP, ATTACKS), make_bot("normal", rng), make_bot("normal", rng)]
    while not game.over and game.turn < 1000:
        who = game.to_move
        game.apply(seats[who].choose(game) if isinstance(who, int) else chance_action(game, dice))
    assert game.over


def test_hard_says_why_once_a_turn_and_when_it_changes_the_planners_choice() -> None:
    rng = random.Random(9)
    game = new_game(load_ruleset("classic"), MAP, 2, rng)
    dice = SeededDice(rng=rng)
    hard = HardBot(ROLLOUTS, CAP, ATTACKS)
    reasons, turns = [], set()
    while game.turn < 6 and not game.over:
        who = game.to_move
        if not isinstance(who, int):
            game.apply(chance_action(game, dice))
            continue
        turns.add(game.turn)
        game.apply(hard.choose(game))
        reason = hard.take_reason()
        if reason is not None:
            reasons.append(reason)
    assert reasons and all(r.startswith(("red ", "blue ")) for r in reasons)
    plans = [r for r in reasons if "tried the round ahead" in r]
    said = ("tried the round ahead", "tried its next attack", "tried where to place", "breaks a continent",
            "takes the turn's card")
    assert len(turns) >= 2   # the game lasted into the turns (a hard duel may end before turn 6)
    assert len(plans) == len(turns - {0}) and all(any(w in r for w in said) for r in reasons)   # a plan a turn


def playing(rules_name: str, players: int, seed: int, turns: int) -> Game:
    """A game played by normal bots for `turns` turns, stopped at a decision of a seat."""
    rng = random.Random(seed)
    rules = load_ruleset(rules_name)
    players = max(rules.players_min, min(rules.players_max, players))
    game = new_game(rules, MAP, players, rng)
    dice = SeededDice(rng=rng)
    bot = make_bot("normal", rng)
    while not game.over and (game.turn < turns or not isinstance(game.to_move, int)):
        who = game.to_move
        game.apply(bot.choose(game) if isinstance(who, int) else chance_action(game, dice))
    return game


SECRET_CASES = st.tuples(st.sampled_from(["italian", "classic", "french-1976"]), st.integers(2, 5),
                         st.integers(0, 10_000), st.integers(2, 14))


@settings(max_examples=12, deadline=None, derandomize=True, database=None)
@given(case=SECRET_CASES)
def test_a_hint_never_names_another_seats_secret(case: tuple[str, int, int, int]) -> None:
    rules_name, players, seed, turns = case
    game = playing(rules_name, players, seed, turns)
    if game.over:
        return
    seat = game.to_move
    assert isinstance(seat, int)
    hint = hint_for(game, seat, HardBot(ROLLOUTS, CAP, ATTACKS))
    other = hint_for(disguised(game, seat, random.Random(seed)), seat, HardBot(ROLLOUTS, CAP, ATTACKS))
    assert (hint.words, hint.territories, hint.action) == (other.words, other.territories, other.action)


@settings(max_examples=10, deadline=None, derandomize=True, database=None)
@given(case=SECRET_CASES, kind=st.sampled_from(["easy", "normal", "hard", "greedy"]))
def test_no_bot_decides_on_another_seats_secret(case: tuple[str, int, int, int], kind: str) -> None:
    rules_name, players, seed, turns = case
    game = playing(rules_name, players, seed, turns)
    if game.over:
        return
    seat = game.to_move
    assert isinstance(seat, int)
    made = (lambda: HardBot(ROLLOUTS, CAP, ATTACKS)) if kind == "hard" else (lambda: make_bot(kind, random.Random(1)))
    mine = made().choose(game)
    theirs = made().choose(disguised(game, seat, random.Random(seed)))
    assert mine == theirs


def test_the_seat_view_depends_only_on_what_the_seat_sees() -> None:
    game = playing("italian", 4, 5, 8)
    me = game.current
    a = seat_view(game, me, random.Random(1))
    b = seat_view(disguised(game, me, random.Random(2)), me, random.Random(1))
    assert (a.missions, a.hands, a.deck) == (b.missions, b.hands, b.deck)
    assert a.missions[me] == game.missions[me] and a.hands[me] == game.hands[me]
    assert game.phase is not Phase.OVER


@pytest.mark.parametrize(("rules_name", "players"), [("classic", 2), ("italian", 3)])
def test_the_weighed_set_up_and_reinforcements_do_not_depend_on_secrets(rules_name: str, players: int) -> None:
    rng = random.Random(f"weighed:{rules_name}")
    game = new_game(load_ruleset(rules_name), MAP, players, rng)
    dice = SeededDice(rng=rng)
    seats: list[Bot] = [HardBot(ROLLOUTS, CAP, ATTACKS), *(make_bot("normal", rng) for _ in range(players - 1))]
    compared: dict[Phase, int] = {}
    while not game.over and game.turn < 10:
        who = game.to_move
        if not isinstance(who, int):
            game.apply(chance_action(game, dice))
            continue
        phase = game.phase
        first_place = phase is Phase.SETUP or (phase is Phase.REINFORCE and game.pool and not game.valid_trades())
        if who == 0 and first_place and compared.get(phase, 0) < 3:
            mine = HardBot(ROLLOUTS, CAP, ATTACKS).choose(game)
            theirs = HardBot(ROLLOUTS, CAP, ATTACKS).choose(disguised(game, who, random.Random(game.turn)))
            assert mine == theirs, f"{phase.value}: {game.describe(mine)} / {game.describe(theirs)}"
            compared[phase] = compared.get(phase, 0) + 1
        game.apply(seats[who].choose(game))
    assert compared.get(Phase.REINFORCE)
    assert compared.get(Phase.SETUP) or rules_name != "classic"


@settings(max_examples=8, deadline=None, derandomize=True, database=None)
@given(case=st.tuples(st.sampled_from(["italian", "classic", "lamorisse-1954"]), st.integers(2, 4),
                      st.integers(0, 10_000), st.integers(2, 10)))
def test_hint_words_say_the_move_once_in_a_players_words(case: tuple[str, int, int, int]) -> None:
    """"hard would attack X from Y (78 % to take it)": the verb as a suggestion, the odds said once."""
    game = playing(*case)
    if game.over:
        return
    seat = game.to_move
    assert isinstance(seat, int)
    words = hint_for(game, seat, HardBot(ROLLOUTS, CAP, ATTACKS)).words
    assert words.startswith("hard would ")
    assert not words.startswith(("hard would attacks", "hard would moves", "hard would defends")), words
    assert words.count("to take it") <= 1 and words.count("to hold it") <= 1, words
