"""One chance source per game: the deal, the missions, card draws and dice all come from it (issue 9 §2)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import CommittedDice, OsDice, SeededDice, committed_below, committed_deal
from conquista.rules.actions import Draw
from conquista.rules.events import Phase
from conquista.rules.rulesets import load_ruleset
from tests.rules.helpers import MAP, position

SEED = bytes(range(32))


def test_the_committed_seed_fixes_the_deal_and_the_missions() -> None:
    rules = load_ruleset("italian")
    one = new_game(rules, MAP, 4, CommittedDice(SEED))
    two = new_game(rules, MAP, 4, CommittedDice(SEED))
    other = new_game(rules, MAP, 4, CommittedDice(bytes(32)))
    assert one.log[0] == two.log[0] == committed_deal(SEED, MAP.size, 4, tuple(rules.missions))
    assert one.log[0] != other.log[0]
    deal = one.log[0]
    assert sorted(deal.territory_order) == list(range(MAP.size)) and len(set(deal.missions)) == 4


def test_committed_card_draws_follow_the_stream_and_resume_where_they_were() -> None:
    dice = CommittedDice(SEED)
    drawn = [dice.draw(44 - n) for n in range(10)]
    assert drawn == [committed_below(SEED, "draw", n, 44 - n) for n in range(10)]
    resumed = CommittedDice(SEED)
    resumed.resume(rolls=0, draws=5)
    assert [resumed.draw(44 - n) for n in range(5, 10)] == drawn[5:]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 44])
def test_committed_choices_are_uniform(n: int) -> None:
    counts = Counter(committed_below(SEED, "draw", i, n) for i in range(600 * n))
    assert set(counts) == set(range(n))
    assert max(counts.values()) - min(counts.values()) < 0.25 * 600  # far inside what chance allows


def test_draws_come_from_the_games_source_not_a_separate_generator() -> None:
    game = position("italian", phase=Phase.FORTIFY)
    game = position("italian", phase=Phase.FORTIFY,
                    state={"turn_state": {**game.turn_state._asdict(), "conquered": True}})
    from conquista.rules.actions import EndPhase

    game.apply(EndPhase())
    assert game.phase is Phase.DRAW
    committed = CommittedDice(SEED)
    draw = chance_action(game, committed)
    assert draw == Draw(game.deck[committed_below(SEED, "draw", 0, len(game.deck))]) and committed.draws == 1
    for _ in range(50):
        card = chance_action(game, OsDice())
        assert isinstance(card, Draw) and card.card in game.deck


def test_seeded_source_deals_as_before() -> None:
    """The seeded source uses the generator's own shuffle, so every seed keeps its game (golden transcripts)."""
    rules = load_ruleset("italian")
    rng = random.Random(7)
    order = list(range(MAP.size))
    rng.shuffle(order)
    first = rng.randrange(3)
    missions = tuple(rng.sample(list(rules.missions), 3))
    game = new_game(rules, MAP, 3, SeededDice(7))
    assert game.log[0].territory_order == tuple(order)
    assert (game.log[0].first_player, game.log[0].missions) == (first, missions)
