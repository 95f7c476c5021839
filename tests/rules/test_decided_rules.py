"""Rules decided on 2026-11-26 (RULES.md §2, §2a, §4, §5), each as a worked scenario: french-1976's trade down
after an elimination, lamorisse-1954's early end, a leaver who draws no card, the defender asked only when there is
a choice, the duel's neutral steps for a player who left or whose clock ran out."""

from __future__ import annotations

import pytest

from conquista.errors import IllegalActionError
from conquista.rules.actions import Attack, EndPhase, Occupy, Place, Roll, Trade
from conquista.rules.engine import Game
from conquista.rules.events import Phase, PlayerEliminated
from tests.rules.helpers import MAP, position, tid

ALASKA, KAMCHATKA = tid("alaska"), tid("kamchatka")


def _cards(symbol: str, count: int, skip: tuple[int, ...] = ()) -> list[int]:
    return [t.index for t in MAP.territories if t.card == symbol and t.index not in skip][:count]


# ------------------------------------------------------------- 1. french-1976: trade down below 5 after an elimination

def _red_beats_yellow(hands: dict[int, list[int]]) -> Game:
    """french-1976, 3 players: red (seat 0) takes kamchatka, yellow's (seat 2) last territory, and moves in."""
    game = position("french-1976", players=3, owners={"alaska": 0, "kamchatka": 2}, armies={"alaska": 5},
                    hands=hands, state={"missions": [8, 9, 7]}, automatic_defence=True)
    game.apply(Attack(ALASKA, KAMCHATKA, 3))
    events = game.apply(Roll((6, 6, 6), (1,)))
    assert PlayerEliminated(2, 0, len(hands.get(2, []))) in events
    game.apply(Occupy(3))
    return game


def test_french_1976_holding_eight_after_an_elimination_trades_below_five_before_attacking_on() -> None:
    cannons, infantry = _cards("cannon", 3), _cards("infantry", 3)
    cavalry = _cards("cavalry", 2)
    game = _red_beats_yellow({0: cannons, 2: infantry + cavalry})
    assert len(game.hands[0]) == 8
    assert game.phase is Phase.ELIMINATION_TRADE and game.must_trade()
    with pytest.raises(IllegalActionError, match="you hold 8 cards and must trade"):
        game.apply(EndPhase())
    assert EndPhase() not in game.legal_actions()
    game.apply(Trade(tuple(infantry)))
    if game.pool:
        game.apply(Place(ALASKA, game.pool))
    assert len(game.hands[0]) == 5 and game.must_trade()  # 5 is not below 5: trade again
    with pytest.raises(IllegalActionError, match="you hold 5 cards and must trade"):
        game.apply(EndPhase())
    game.apply(Trade(tuple(cannons)))
    if game.pool:
        game.apply(Place(ALASKA, game.pool))
    assert len(game.hands[0]) == 2 and not game.must_trade()
    game.apply(EndPhase())
    assert game.phase is Phase.ATTACK


def test_french_1976_holding_four_after_an_elimination_may_attack_on_at_once() -> None:
    cannons = _cards("cannon", 3)
    game = _red_beats_yellow({0: cannons[:2], 2: [cannons[2], _cards("infantry", 1)[0]]})
    assert len(game.hands[0]) == 4
    assert game.phase is Phase.ELIMINATION_TRADE and not game.must_trade()
    game.apply(EndPhase())
    assert game.phase is Phase.ATTACK
