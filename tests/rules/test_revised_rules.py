"""Rules revised on 2026-11-22 (RULES.md §1): in `italian` only the cards taken from a beaten player may be traded
at once, and a mission completed during another player's turn wins at once. Each [interpretation] both ways."""

from __future__ import annotations

import pytest

from conquista.errors import IllegalActionError
from conquista.rules.actions import Attack, EndPhase, Occupy, Roll, Trade
from conquista.rules.engine import Game
from conquista.rules.events import GameOver, Phase
from conquista.rules.rulesets import load_ruleset
from tests.rules.helpers import MAP, position, tid


def _cards(symbol: str, count: int, skip: tuple[int, ...] = ()) -> list[int]:
    return [t.index for t in MAP.territories if t.card == symbol and t.index not in skip][:count]


def _eliminate_yellow(rules: str, hands: dict[int, list[int]], **overrides: object) -> Game:
    """Red (seat 0) beats yellow (seat 2) on kamchatka, its last territory, and moves in."""
    game = position(rules, players=3, owners={"alaska": 0, "kamchatka": 2}, armies={"alaska": 5}, hands=hands,
                    state={"missions": [8, 9, 7]}, **overrides)  # nobody's mission is complete by this
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    game.apply(Roll((6, 6, 6), (1, 1, 1)[:game.battle.defend_dice if game.battle else 1]))
    game.apply(Occupy(3))
    return game


def test_italian_trades_at_once_only_the_cards_taken() -> None:
    own_set = _cards("cannon", 3)
    taken = _cards("infantry", 2)
    game = _eliminate_yellow("italian", {0: own_set, 2: taken})
    # Red holds a set of its own, but the two taken cards make none: no trade now, the attack goes on.
    assert game.phase is Phase.ATTACK and game.hands[0] == own_set + taken
    with pytest.raises(IllegalActionError, match="cards are traded only before the first attack"):
        game.apply(Trade(tuple(own_set)))


def test_italian_elimination_trade_offers_only_sets_of_taken_cards() -> None:
    taken = _cards("infantry", 3)
    own = _cards("cannon", 2) + _cards("infantry", 1, skip=tuple(taken))
    game = _eliminate_yellow("italian", {0: own, 2: taken})
    assert game.phase is Phase.ELIMINATION_TRADE
    assert game.valid_trades() == [tuple(sorted(taken))]
    mixed = (own[2], taken[0], taken[1])  # three infantry: a set, but one of them is red's own
    with pytest.raises(IllegalActionError, match="only the cards taken from the beaten player"):
        game.apply(Trade(mixed))
    game.apply(Trade(tuple(taken)))
    bonus = 2 * sum(1 for c in taken if game.owner[c] == 0)  # italian: +2 per card of a territory red holds
    assert game.pool == 6 + bonus and sorted(game.hands[0]) == sorted(own)


def test_any_set_may_be_traded_when_the_ruleset_says_so() -> None:
    own_set = _cards("cannon", 3)
    game = _eliminate_yellow("italian", {0: own_set, 2: _cards("infantry", 2)}, elimination_trade_cards="any")
    assert game.phase is Phase.ELIMINATION_TRADE and tuple(sorted(own_set)) in game.valid_trades()
    game.apply(Trade(tuple(own_set)))
    assert game.pool == 4 + 2 * sum(1 for c in own_set if game.owner[c] == 0)


def test_french_1976_trades_any_set_after_an_elimination() -> None:
    assert load_ruleset("french-1976").elimination_trade_cards == "any"
    assert load_ruleset("italian").elimination_trade_cards == "taken"


def _blue_destroys_yellow_through_red(**overrides: object) -> tuple[Game, list[object]]:
    """Blue (seat 1) must destroy yellow (seat 2) and holds 39 territories; red (seat 0) beats yellow first."""
    game = position("italian", players=3, owners={"alaska": 0, "northwest_territory": 0, "kamchatka": 2},
                    armies={"alaska": 5}, default_owner=1, state={"missions": [8, 11, 7]}, **overrides)
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    events = game.apply(Roll((6, 6, 6), (1,)))
    return game, list(events)


def test_a_mission_completed_on_another_players_turn_wins_at_once() -> None:
    game, events = _blue_destroys_yellow_through_red()
    # Yellow is gone but not by blue's hand: blue's mission becomes 24 territories, which blue already holds.
    assert game.over and game.winner == 1 and game.over_reason == "mission 11"
    assert GameOver(1, "mission 11") in events
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(EndPhase())


def test_out_of_turn_missions_wait_for_their_turn_when_switched_off() -> None:
    game, _events = _blue_destroys_yellow_through_red(mission_win_out_of_turn=False)
    assert not game.over and game.phase is Phase.OCCUPY and game.current == 0
