"""The easy bot: plays like a beginner, not like a fault. It spreads its set-up and its reinforcements over the
territories that face an enemy, a couple of armies at a time and never more than half of a set-up on one territory
(at a real board nobody stacks 22 armies on Greenland); it attacks only when clearly stronger, moves in what the
front needs and fortifies toward the border, as the greedy bot does with a wider margin; it ignores its mission
(beyond what winning the world would bring) and trades its cards as soon as it may.

Each decision is computed from the position alone and reads only public information and the seat's own hand.
"""

from __future__ import annotations

from conquista.bots.greedy import GreedyBot
from conquista.rules.actions import Action, EndPhase, Place, Trade
from conquista.rules.engine import Game
from conquista.rules.events import Phase

MARGIN = 2      # armies beyond the defender's before it attacks (a beginner waits to be clearly stronger)
CHUNK = 2       # armies placed at a time while setting up


def setup_total(game: Game, me: int) -> int:
    """The armies `me` places in the whole set-up: those already placed (every territory was dealt one), the batch
    in hand and the reserve still to come."""
    placed = sum(game.armies[t] - 1 for t in range(game.map.size) if game.owner[t] == me)
    return placed + game.pool + game.reserve[me]


class EasyBot:
    def __init__(self) -> None:
        self._greedy = GreedyBot(margin=MARGIN)

    def choose(self, game: Game) -> Action:
        phase = game.phase
        if game.neutral is not None and phase is not Phase.DEFEND and game.acting_owner() == game.neutral:
            return self._greedy.choose(game)
        if phase is Phase.SETUP:
            return self._place(game, min(CHUNK, game.pool), setup_total(game, game.current) // 2)
        if phase is Phase.REINFORCE or phase is Phase.ELIMINATION_TRADE:
            trades = game.valid_trades()
            if trades:
                return Trade(max(trades, key=lambda cards: (game.trade_value(cards), cards)))
            if not game.pool:
                return EndPhase()
            if game.rules.fleets and game.pool > 1:
                # With fleets the greedy choice says where a crossing needs fleets; half the pool goes there.
                greedy = self._greedy.choose(game)
                if isinstance(greedy, Place):
                    return Place(greedy.territory, (greedy.count + 1) // 2, greedy.fleet)
            return self._place(game, (game.pool + 1) // 2, 1 << 30)
        return self._greedy.choose(game)

    @staticmethod
    def _place(game: Game, count: int, cap: int) -> Action:
        """`count` armies on the border territory that looks weakest against its enemy neighbours (the one with the
        fewest armies for the enemy armies next to it), never past `cap` armies placed on one territory; ties go
        to the territory in the continent the seat holds most of."""
        me, owner, armies, neighbours = game.current, game.owner, game.armies, game.map.neighbours
        held = _continent_shares(game, me)
        best, best_key = -1, (0.0, 0.0, 0)
        for t in range(game.map.size):
            if owner[t] != me or armies[t] - 1 + count > cap:
                continue
            enemies = sum(armies[n] for n in neighbours[t] if owner[n] != me)
            if not enemies:
                continue
            key = (enemies / armies[t], held[t], -t)
            if best < 0 or key > best_key:
                best, best_key = t, key
        if best < 0 and count > 1:   # a couple would pass the cap everywhere: one at a time
            return EasyBot._place(game, 1, cap)
        if best < 0:   # no border left under the cap: the least stacked own territory
            best = min((t for t in range(game.map.size) if owner[t] == me), key=lambda t: (armies[t], t))
        return Place(best, count)


def _continent_shares(game: Game, me: int) -> list[float]:
    """For each territory, the share of its continent that `me` holds."""
    share = [0.0] * game.map.size
    for continent in game.map.continents:
        members = continent.territories
        mine = sum(1 for t in members if game.owner[t] == me) / len(members)
        for t in members:
            share[t] = mine
    return share
