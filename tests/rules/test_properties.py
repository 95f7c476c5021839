"""Invariants over many seeded games of every ruleset and 2–6 players (DESIGN.md, "How we write code" 4).

At every step: armies are conserved (placed minus lost equals the board total), every territory is owned with at
least one army, legal_actions() is empty only when the game is over, the action taken is one of the legal ones,
random illegal actions are rejected with the state unchanged. At the end the log replays to an identical state,
also through its JSON form.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conquista.bots import make_bot
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.errors import IllegalActionError
from conquista.rules import power_cards
from conquista.rules.actions import (
    Action,
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
from conquista.rules.choices import CardDeck
from conquista.rules.engine import CHANCE, Game
from conquista.rules.gamelog import dump_lines, header_for, parse_log_lines, replay
from conquista.rules.rulesets import builtin_rulesets, load_ruleset
from tests.rules.helpers import MAP

CASES = [(name, n) for name in builtin_rulesets() for n in range(2, 9)
         if load_ruleset(name).players_min <= n <= load_ruleset(name).players_max]


def normalise(action: Action) -> Action:
    if isinstance(action, Roll):
        return Roll(tuple(sorted(action.attack, reverse=True)), tuple(sorted(action.defend, reverse=True)))
    return action


def random_action(rng: random.Random) -> Action:
    """Any action with arbitrary (often out-of-range) parameters: most are illegal at any moment."""
    t = lambda: rng.randint(-1, MAP.size)  # noqa: E731
    n = lambda: rng.randint(-1, 8)  # noqa: E731
    dice = lambda: tuple(rng.randint(0, 7) for _ in range(rng.randint(0, 3)))  # noqa: E731
    return rng.choice([
        lambda: Place(t(), n()),
        lambda: Place(t(), n(), True),
        lambda: Trade(tuple(rng.randint(-1, MAP.size + 2) for _ in range(rng.choice([2, 3, 3, 4])))),
        lambda: EndPhase(),
        lambda: Attack(t(), t(), n()),
        lambda: Blitz(t(), t(), n()),
        lambda: Defend(n()),
        lambda: Roll(dice(), dice()),
        lambda: Occupy(n()),
        lambda: Fortify(t(), t(), n()),
        lambda: Draw(rng.randint(-1, MAP.size + 2)),
    ])()


def check_invariants(game: Game) -> None:
    assert sum(game.armies) == game.placed_total - game.lost_total
    undealt = set(game.undealt)  # the progressive deal (lamorisse-1954): nobody's yet, with no army
    assert len(undealt) == len(game.undealt)
    for t in range(MAP.size):
        if t in undealt:
            assert (game.owner[t], game.armies[t]) == (-1, 0)
        else:
            assert game.owner[t] >= 0 and game.armies[t] >= 1
    for t in range(MAP.size):  # fleets: some of a territory's units, only where a sea link lets them sail
        assert 0 <= game.fleets[t] <= game.armies[t]
        assert not game.fleets[t] or (game.rules.fleets and game.is_coastal(t))
    owners = game.players + game.rules.neutral_army  # the neutral army is counted past the seats
    assert game.territory_count == [game.owner.count(p) for p in range(owners)]
    cards = sorted(game.deck + game.discard + [c for h in game.hands for c in h])
    if game.rules.card_deck is CardDeck.POWER:
        assert cards == power_cards.deck(game.rules.power_figure_sets, game.rules.power_eagles)
    else:
        assert cards == list(range(MAP.size + game.rules.deck_jollies))
    for p in range(game.players):
        assert game.eliminated[p] == (game.territory_count[p] == 0)


def play_checked(rules_name: str, players: int, seed: int, bots: list[str], turn_cap: int,
                 illegal_probes: int = 2, **overrides: object) -> Game:
    rules = load_ruleset(rules_name, overrides or None)
    rng = random.Random(seed)
    probe_rng = random.Random(seed + 1)
    game = new_game(rules, MAP, players, rng)
    dice = SeededDice(rng=rng)
    seats = [make_bot(bots[i % len(bots)], rng) for i in range(players)]
    check_invariants(game)
    while not game.over and game.turn <= turn_cap:
        legal = game.legal_actions()
        assert legal, f"no legal action in phase {game.phase} though the game is not over"
        legal_set = set(legal)
        for _ in range(illegal_probes):
            probe = random_action(probe_rng)
            if normalise(probe) in legal_set:
                assert game.is_legal(probe)
                continue
            before = game.digest()
            with pytest.raises(IllegalActionError):
                game.apply(probe)
            assert game.digest() == before
        who = game.to_move
        action = chance_action(game, dice) if who == CHANCE else seats[who].choose(game)
        assert normalise(action) in legal_set, f"{action} not among legal actions"
        twin = game.clone() if len(game.log) % 7 == 0 else None
        if twin is not None:
            before = game.digest()
            twin.apply(action)
            assert game.digest() == before  # a clone shares no mutable state with its original
        game.apply(action)
        if twin is not None:
            assert twin.digest() == game.digest()
        check_invariants(game)
    if game.over:
        assert game.legal_actions() == []
    replayed = replay(header_for(game), list(game.log))
    assert replayed.digest() == game.digest() and replayed.snapshot() == game.snapshot()
    _, from_json = parse_log_lines(dump_lines(game), "<memory>")
    assert from_json.digest() == game.digest()
    return game


@pytest.mark.parametrize(("rules_name", "players"), CASES)
def test_greedy_games_finish_with_invariants(rules_name: str, players: int) -> None:
    game = play_checked(rules_name, players, seed=players * 101, bots=["greedy"], turn_cap=400, illegal_probes=1)
    assert game.over and game.winner >= 0


@pytest.mark.parametrize(("rules_name", "players"), CASES)
def test_mixed_bots_keep_invariants(rules_name: str, players: int) -> None:
    play_checked(rules_name, players, seed=players * 7, bots=["random", "greedy"], turn_cap=25)


@pytest.mark.parametrize("seed", [1, 2])
def test_classic_with_the_neutral_army_keeps_invariants(seed: int) -> None:
    game = play_checked("classic", 2, seed, ["greedy", "random"], turn_cap=60, neutral_army=True,
                        automatic_defence=False)
    assert game.neutral == 2


@pytest.mark.parametrize("rounding", ["down", "up"])
def test_duel_with_chosen_defence_finishes_with_invariants(rounding: str) -> None:
    game = play_checked("french-1976-duel", 2, seed=17, bots=["greedy"], turn_cap=400, automatic_defence=False,
                        neutral_reinforcement_rounding=rounding)
    assert game.over and game.winner in (0, 1)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1),
       chosen_defence=st.booleans(), connected=st.booleans())
def test_seeded_games_keep_invariants(case: tuple[str, int], seed: int, chosen_defence: bool,
                                      connected: bool) -> None:
    rules_name, players = case
    # Fleets and one move per unit need adjacent moves (rulesets refuse "connected" with them).
    connected = connected and not load_ruleset(rules_name).one_move_per_unit
    play_checked(rules_name, players, seed, ["random", "greedy", "greedy"], turn_cap=30,
                 automatic_defence=not chosen_defence, fortify_path="connected" if connected else "adjacent")
