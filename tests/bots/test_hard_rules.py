"""The hard bot's rules of thumb (bots/hard_rules.py) as properties over seeded positions: it takes the turn's card
when an attack at good odds can earn it, breaks another seat's continent when it can, never moves armies into a
conquest and straight back out, attacks a weak neighbour rather than wait once the table stalls (hard_attack.py);
and four hard bots finish a game of every ruleset."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquista.bots import make_bot
from conquista.bots.hard import PLANS, STALLED_PLANS, HardBot
from conquista.bots.hard_attack import STALL_ARMIES, STALL_ROUND, WEAK_CHANCE, candidates, stalling
from conquista.bots.hard_rules import BREAK_ODDS, CARD_ODDS, card_armies, card_due
from conquista.bots.planner import PlannerBot
from conquista.bots.planner_odds import odds_for
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.rules.actions import Action, Attack, Blitz, EndPhase, Fortify, Occupy
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.rulesets import builtin_rulesets, load_ruleset
from tests.rules.helpers import MAP, edited

ROLLOUTS, CAP, ATTACKS = 2, 300, 400   # a small hard bot: the same code, fewer and shorter tries
CASES = st.tuples(st.sampled_from(["italian", "classic"]), st.integers(2, 4), st.integers(0, 10_000),
                  st.integers(2, 12))


def small_hard() -> HardBot:
    return HardBot(ROLLOUTS, CAP, ATTACKS)


def at_attack(rules_name: str, players: int, seed: int, turns: int) -> Game | None:
    """A game played by normal bots for `turns` turns and on to the next attack decision of the seat to move
    before its turn's first conquest; None if the game ended first."""
    rng = random.Random(seed)
    game = new_game(load_ruleset(rules_name), MAP, players, rng)
    dice = SeededDice(rng=rng)
    bot = make_bot("normal", rng)
    while not game.over:
        who = game.to_move
        if (game.turn >= turns and game.phase is Phase.ATTACK and who == game.current
                and not game.turn_state.conquered):
            return game
        game.apply(bot.choose(game) if isinstance(who, int) else chance_action(game, dice))
    return None


def good_card_attacks(game: Game) -> list[tuple[int, int]]:
    """The attacks that earn the card at `CARD_ODDS` or better and are worth their expected losses."""
    me, odds = game.current, odds_for(game.rules)
    worth = card_armies(game) + 1.0
    out = []
    for s in range(MAP.size):
        if game.owner[s] != me or game.armies[s] < 2:
            continue
        for t in MAP.neighbours[s]:
            if game.owner[t] != me:
                chance, lost, _ = odds.blitz(game.armies[s], game.armies[t], 1)
                if chance >= CARD_ODDS and chance * worth > lost:
                    out.append((s, t))
    return out


def give_continent(game: Game, continent: int, holder: int, me: int) -> Game | None:
    """A copy of `game` (made through its snapshot: tests.rules.helpers.edited) where `continent` is whole
    `holder`'s (2 armies a territory) and a stack of 12 of `me` stands on a neighbouring territory: the attack that
    breaks it. None when that would leave a seat with no territory."""
    inside = set(MAP.continents[continent].territories)
    door = next(((s, t) for t in sorted(inside) for s in MAP.neighbours[t] if s not in inside), None)
    if door is None:
        return None
    s = door[0]
    owner, armies = list(game.owner), list(game.armies)
    for c in inside:
        owner[c], armies[c] = holder, 2
    owner[s], armies[s] = me, 12
    counts = [owner.count(p) for p in range(game.players)]
    if min(counts) == 0:
        return None
    return edited(game, owner=owner, armies=armies, territory_count=counts)


@settings(max_examples=15, deadline=None, derandomize=True, database=None)
@given(case=CASES, continent=st.integers(0, len(MAP.continents) - 1))
def test_it_breaks_a_continent_it_can_break(case: tuple[str, int, int, int], continent: int) -> None:
    game = at_attack(*case)
    if game is None:
        return
    me = game.current
    holder = (me + 1) % game.players
    broken = None if game.eliminated[holder] else give_continent(game, continent, holder, me)
    if broken is None:
        return
    game = broken
    inside = set(MAP.continents[continent].territories)
    odds = odds_for(game.rules)
    can = [(s, t) for t in inside for s in MAP.neighbours[t]
           if game.owner[s] == me and BREAK_ODDS <= odds.chance(game.armies[s], game.armies[t])]
    assert can
    held = {c for c, continent in enumerate(MAP.continents)
            if len({game.owner[t] for t in continent.territories}) == 1 and game.owner[continent.territories[0]] != me}
    action = small_hard().choose(game)
    assert isinstance(action, Attack | Blitz) and game.owner[action.target] != me
    assert MAP.territories[action.target].continent in held, "attacked elsewhere than a continent it could break"


@settings(max_examples=6, deadline=None, derandomize=True, database=None)
@given(rules_name=st.sampled_from(["italian", "classic"]), players=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_it_takes_its_card_at_good_odds_and_never_moves_in_and_straight_back_out(rules_name: str, players: int,
                                                                                 seed: int) -> None:
    """Over the first 16 turns of a seeded game, at every decision of the hard seat: it does not stop attacking
    while an attack at `CARD_ODDS` or better would earn the turn's card, and no fortify move takes armies from a
    territory it conquered this turn back where they came from."""
    rng = random.Random(seed)
    game = new_game(load_ruleset(rules_name), MAP, players, rng)
    dice = SeededDice(rng=rng)
    hard = small_hard()
    normal = make_bot("normal", rng)
    came_from: dict[int, int] = {}
    turn = -1
    while not game.over and game.turn < 16:
        who = game.to_move
        if not isinstance(who, int):
            game.apply(chance_action(game, dice))
            continue
        if game.turn != turn:
            came_from, turn = {}, game.turn
        action: Action = hard.choose(game) if who == 0 else normal.choose(game)
        if who == 0 and game.phase is Phase.ATTACK and card_due(game) and good_card_attacks(game):
            assert isinstance(action, Attack | Blitz), f"stopped with {good_card_attacks(game)} at good odds"
        if who == 0 and isinstance(action, Occupy) and game.battle is not None:
            came_from[game.battle.target] = game.battle.source
        if who == 0 and isinstance(action, Fortify):
            assert came_from.get(action.source) != action.target, "moved in and straight back out"
        game.apply(action)


def weak_neighbour(game: Game, armies_each: int) -> Game | None:
    """A copy of `game` with `armies_each` armies on every territory but one of the mover's, which holds 15 beside
    a 1-army territory of another seat (the attack on a weak neighbour), from round `STALL_ROUND` on."""
    me = game.current
    door = next(((s, t) for s in range(MAP.size) if game.owner[s] == me for t in MAP.neighbours[s]
                 if game.owner[t] != me), None)
    if door is None:
        return None
    armies = [armies_each] * MAP.size
    armies[door[0]], armies[door[1]] = 15, 1
    return edited(game, armies=armies, round=max(game.round, STALL_ROUND))


@settings(max_examples=10, deadline=None, derandomize=True, database=None)
@given(case=CASES)
def test_once_the_table_stalls_it_attacks_a_weak_neighbour_rather_than_wait(case: tuple[str, int, int, int]) -> None:
    """With the armies piled up (`STALL_ARMIES` a territory or more) stopping is not weighed against the planner's
    attack on a weak neighbour, and the hard bot attacks; nor is a waiting way of playing tried. Where the seats
    fight (few armies a territory) stopping is still weighed."""
    game = at_attack(*case)
    if game is None:
        return
    me = game.current
    stalled = weak_neighbour(game, int(STALL_ARMIES) + 2)
    fighting = weak_neighbour(game, 1)
    if stalled is None or fighting is None:
        return
    assert stalling(stalled) and not stalling(fighting)
    hard = small_hard()
    planned = candidates(stalled, me, PlannerBot())
    assert not any(isinstance(a, EndPhase) for a in planned), planned
    assert any(isinstance(a, EndPhase) for a in candidates(fighting, me, PlannerBot()))
    action = hard.choose(stalled)
    assert isinstance(action, Attack | Blitz) and stalled.owner[action.target] != me, action
    assert hard.choice is not None and {p for p, _ in hard.choice.scores} == set(STALLED_PLANS) != set(PLANS)
    odds = odds_for(stalled.rules)
    assert any(odds.chance(stalled.armies[s], stalled.armies[t]) >= WEAK_CHANCE
               for s in range(MAP.size) if stalled.owner[s] == me for t in MAP.neighbours[s]
               if stalled.owner[t] != me)


@pytest.mark.parametrize("rules_name", builtin_rulesets())
def test_four_hard_bots_finish_every_ruleset_within_its_cap(rules_name: str) -> None:
    rules = load_ruleset(rules_name)
    players = max(rules.players_min, min(rules.players_max, 4))
    rng = random.Random(f"four hard:{rules_name}")
    game = new_game(rules, MAP, players, rng)
    dice = SeededDice(rng=rng)
    seats = [small_hard() for _ in range(players)]
    while not game.over:
        assert game.turn <= 1000, f"{rules_name}: cut at turn 1000"
        who = game.to_move
        game.apply(seats[who].choose(game) if isinstance(who, int) else chance_action(game, dice))
    assert game.winner is not None
