"""What each territory is worth to the planner's objective, in armies' worth.

The objective is the seat's own mission as it stands (`effective_mission`: a destroy mission whose colour is gone
reads as its territory count) or world domination. Only public information and the seat's own mission are read:
never another seat's mission or the cards in another hand (how many cards a hand holds is public at the table).
"""

from __future__ import annotations

from dataclasses import dataclass

from conquista.rules.engine import Game
from conquista.rules.missions import effective_mission

# Armies' worth of the things a conquest brings (tuned against the greedy bot, see benchmarks/bench_bots.py).
TERRITORY = 1.0           # a territory: reinforcements, and one fewer for someone else
GOAL_CONTINENT = 5.0      # a territory of a continent the mission names
COUNT_GOAL = 1.5          # a territory when the mission counts territories
DESTROY = 5.0             # a territory of the colour to destroy
BREAK_CONTINENT = 0.8     # per bonus army, for breaking a continent someone holds whole
CARD_PER_HAND_CARD = 1.5  # eliminating a player hands over their cards
REACH = 0.45              # share of a neighbour's worth passed to the territory on the way to it


@dataclass(frozen=True)
class Objective:
    """The seat's goal as weights: per continent, per territory, and the colour to destroy."""

    continent_weight: tuple[float, ...]
    territory_weight: float
    target_seat: int | None
    min_armies: int
    count_goal: int


def may_target(game: Game, target: int) -> bool:
    """The protected-last-territory rule of `attack_allowed`, for a source that may not have its armies yet."""
    defender = game.owner[target]
    if defender < 0:
        return False  # not dealt yet (lamorisse-1954's progressive deal)
    return not (game.territory_count[defender] == 1 and game.round <= game.rules.elimination_protection_rounds)


def objective_for(game: Game, me: int) -> Objective:
    continents = game.map.continents
    if game.rules.objective != "missions":
        return Objective(tuple(0.0 for _ in continents), COUNT_GOAL, None, 1, game.map.size)
    mission = effective_mission(game, me)
    if mission.destroy_colour is not None:
        return Objective(tuple(0.0 for _ in continents), 0.3, mission.destroy_colour, 1, 0)
    if mission.territories:
        return Objective(tuple(0.0 for _ in continents), COUNT_GOAL, None, mission.min_armies, mission.territories)
    named = {c.id for c in continents if c.id in mission.continents}
    weights = [GOAL_CONTINENT if c.id in named else 0.0 for c in continents]
    if mission.extra_continents:
        others = sorted((i for i, c in enumerate(continents) if c.id not in named),
                        key=lambda i: (-_held_share(game, me, i), len(continents[i].territories), i))
        for i in others[:mission.extra_continents]:
            weights[i] = GOAL_CONTINENT * 0.8
    return Objective(tuple(weights), 0.0, None, 1, 0)


def _held_share(game: Game, me: int, continent: int) -> float:
    cells = game.map.continents[continent].territories
    owner = game.owner
    return sum(1 for t in cells if owner[t] == me) / len(cells)


def territory_values(game: Game, me: int, objective: Objective) -> list[float]:
    """Worth to `me` of taking each territory (0 for its own), a share passed on toward the goals behind it."""
    owner, counts = game.owner, game.territory_count
    direct = [0.0] * game.map.size
    for ci, continent in enumerate(game.map.continents):
        cells = continent.territories
        mine = sum(1 for t in cells if owner[t] == me)
        holders = {owner[t] for t in cells}
        whole_enemy = len(holders) == 1 and me not in holders
        share = (mine + 1) / len(cells)
        worth = (TERRITORY + objective.territory_weight + objective.continent_weight[ci] * (0.5 + share)
                 + continent.bonus * share * share * 0.6
                 + (BREAK_CONTINENT * continent.bonus if whole_enemy else 0.0))
        for t in cells:
            if owner[t] != me:
                direct[t] = worth
    for t, holder in enumerate(owner):
        if holder == me:
            continue
        if holder == objective.target_seat:
            direct[t] += DESTROY + DESTROY * 2 / max(1, counts[holder])
        if counts[holder] == 1 and holder < game.players:   # the neutral army (past the seats) holds no cards
            direct[t] += CARD_PER_HAND_CARD * len(game.hands[holder])
    return _with_reach(game, me, direct)


def _with_reach(game: Game, me: int, direct: list[float]) -> list[float]:
    """A territory on the way to valuable ones is worth a share of them: two steps of passing on."""
    owner, neighbours = game.owner, game.map.neighbours
    value = direct[:]
    for _ in range(2):
        nxt = value[:]
        for t, holder in enumerate(owner):
            if holder == me:
                continue
            best = 0.0
            for n in neighbours[t]:
                if owner[n] != me and value[n] > best:
                    best = value[n]
            if direct[t] + REACH * best > nxt[t]:
                nxt[t] = direct[t] + REACH * best
        value = nxt
    return value


# The worths of the positions seen lately: they depend only on who holds what (not on the armies), so a seat's turn,
# and every try of it the hard bot plays from one position, asks again and again for the same ones.
_WORTHS: dict[tuple[object, ...], tuple[list[float], list[float]]] = {}
_WORTHS_KEPT = 4096


def worths(game: Game, me: int, objective: Objective) -> tuple[list[float], list[float]]:
    """`territory_values` and `keep_values` of the position, remembered by what they depend on. The lists are
    shared between the calls that ask for the same position: read them, never change them."""
    key = (game.map, me, objective, game.players, tuple(game.owner), tuple(map(len, game.hands)))
    found = _WORTHS.get(key)
    if found is None:
        if len(_WORTHS) >= _WORTHS_KEPT:
            _WORTHS.clear()
        found = _WORTHS[key] = (territory_values(game, me, objective), keep_values(game, me, objective))
    return found


def keep_values(game: Game, me: int, objective: Objective) -> list[float]:
    """Worth to `me` of keeping each of its own territories (0 for the others)."""
    owner = game.owner
    keep = [0.0] * game.map.size
    for ci, continent in enumerate(game.map.continents):
        cells = continent.territories
        mine = sum(1 for t in cells if owner[t] == me)
        share = mine / len(cells)
        worth = (TERRITORY + objective.territory_weight + objective.continent_weight[ci] * share
                 + (continent.bonus * 1.5 if mine == len(cells) else continent.bonus * share * share * 0.5))
        for t in cells:
            if owner[t] == me:
                keep[t] = worth
    return keep
