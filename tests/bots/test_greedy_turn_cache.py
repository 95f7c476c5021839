"""Issue 31 §4: what greedy remembers or works out itself instead of asking the engine again: the hand it last found
to make no set (`_trade`) and the move-in range it reads off the conquest (`_occupy`). Its choices must be the ones
made by asking the engine every time: held here against that, kept as the reference, at every reinforcement and
move-in of seeded games of every shipped ruleset, one probe asked throughout so that what it remembers is used."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conquista.bots.greedy import GreedyBot
from conquista.dice.chance import chance_action
from conquista.rules.actions import Action, EndPhase, Occupy, Trade
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.rulesets import SHIPPED_RULESETS
from tests.bots.mixed_games import mixed_game

_TRADING = (Phase.REINFORCE, Phase.ELIMINATION_TRADE)


def reference_trade(game: Game) -> Action | None:
    """The trade as greedy chose it by asking the engine each time: the most valuable valid set, if any."""
    trades = game.valid_trades()
    return Trade(max(trades, key=game.trade_value)) if trades else None


def reference_occupy(bot: GreedyBot, game: Game) -> Action:
    """The move-in as greedy chose it with the engine's `occupy_range()`."""
    low, high = game.occupy_range()
    battle = game.battle
    assert battle is not None
    me = game.current if game.neutral is None else game.acting_owner()
    owner, neighbours = game.owner, game.map.neighbours
    if all(owner[n] == me for n in neighbours[battle.source]):
        return Occupy(high)
    if game.fleets_on and game.sails(battle.source, battle.target):
        return Occupy(high)
    if all(owner[n] == me for n in neighbours[battle.target]):
        return Occupy(low)
    return Occupy(max(low, (low + high + 1) // 2))


@settings(max_examples=40, deadline=None)
@given(rules=st.sampled_from(SHIPPED_RULESETS), players=st.integers(2, 5), seed=st.integers(0, 10**6))
def test_remembered_answers_are_the_engines(rules: str, players: int, seed: int) -> None:
    game, dice, seats = mixed_game(rules, players, seed)
    probe = GreedyBot()
    asked = 0
    while game.phase is not Phase.OVER and game.turn <= 80:
        who = game.to_move
        if isinstance(who, int) and game.phase in _TRADING:
            chosen = probe.choose(game)
            expected = reference_trade(game)
            if expected is not None:
                assert chosen == expected
            else:
                assert not isinstance(chosen, Trade)
                if not game.pool:
                    assert chosen == EndPhase()
            asked += 1
        elif isinstance(who, int) and game.phase is Phase.OCCUPY:
            assert probe.choose(game) == reference_occupy(probe, game)
            asked += 1
        game.apply(seats[who].choose(game) if isinstance(who, int) else chance_action(game, dice))
    assert asked
