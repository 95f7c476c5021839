"""The planner: a bot that plays its own objective and weighs every attack with the exact odds.

Each decision is computed from the position alone (no memory between calls, so it is deterministic and can take
over any seat at any moment): what each territory is worth to the seat's objective (`planner_values`), the exact
chance and expected losses of a blitz (`planner_odds`), and from those the placement, the attack and its stop level,
the move-in, the fortify move and, when the ruleset lets the defender choose, the defence dice.

Only public information and the seat's own mission and hand are read.
"""

from __future__ import annotations

from dataclasses import dataclass

from conquista.bots.greedy import GreedyBot
from conquista.bots.planner_odds import PlannerOdds, odds_for
from conquista.bots.planner_values import Objective, keep_values, objective_for, territory_values
from conquista.rules.actions import Action, Attack, Blitz, Defend, EndPhase, Fortify, Occupy, Place, Trade
from conquista.rules.engine import Game
from conquista.rules.events import Phase

CARD = 3.0            # armies' worth of the card the turn's first conquest earns
LOSS = 1.0            # cost of one army the attacker loses
KILL = 0.35           # worth of one army the defender loses (a weaker neighbour) with many players left
MIN_CHANCE = 0.25     # never start a blitz less likely than this to take the target
COVERED = 0.8         # a target this likely to fall needs no more armies placed behind it


@dataclass(frozen=True)
class Option:
    """One attack the planner could make, with its figures."""

    gain: float
    source: int
    target: int
    stop_at: int
    chance: float


@dataclass
class View:
    """What one decision knows: the seat, its objective and the worth of every territory to it."""

    game: Game
    me: int
    objective: Objective
    value: list[float]     # worth of taking each territory
    keep: list[float]      # worth of keeping each own territory
    odds: PlannerOdds
    kill: float            # worth of one army the defender loses
    scale: float           # armies per territory grow over a game: territory worth grows with them


def make_view(game: Game, me: int) -> View:
    objective = objective_for(game, me)
    # With two players left an army lost by the other side is as good as one of ours kept; with more, the
    # seats that do not fight gain from every exchange.
    rivals = sum(1 for p in range(game.players) if not game.eliminated[p]) - 1
    kill = max(KILL, 1.0 / max(1, rivals))
    # Territory worth is in armies of the opening (about 3 a territory); when sets have swollen every stack, a
    # territory is worth as many more armies, or nobody would ever pay for one again and the game would stall.
    scale = max(1.0, game.total_armies() / (3.0 * game.map.size))
    return View(game, me, objective, territory_values(game, me, objective), keep_values(game, me, objective),
                odds_for(game.rules), kill, scale)


class PlannerBot:
    def __init__(self) -> None:
        # Acting for the duel's neutral army (placing its reinforcements, its turn, its move-in), the planner plays
        # it as the greedy bot does: the neutral army has no mission of its own to plan for.
        self._for_neutral = GreedyBot()

    def choose(self, game: Game) -> Action:
        phase = game.phase
        if game.neutral is not None and phase is not Phase.DEFEND and game.acting_owner() == game.neutral:
            return self._for_neutral.choose(game)
        if phase is Phase.DEFEND:
            return self._defend(game)
        view = make_view(game, game.current)
        if phase is Phase.SETUP or phase is Phase.REINFORCE or phase is Phase.ELIMINATION_TRADE:
            if phase is not Phase.SETUP:
                trade = choose_trade(game)
                if trade is not None:
                    return trade
            if game.pool:
                return choose_place(view)
            return EndPhase()
        if phase is Phase.ATTACK:
            return choose_attack(view)
        if phase is Phase.OCCUPY:
            return choose_occupy(view)
        if phase is Phase.FORTIFY:
            return choose_fortify(view)
        raise ValueError(f"the planner bot has nothing to do in phase {phase.value}")

    def _defend(self, game: Game) -> Action:
        battle = game.battle
        assert battle is not None  # DEFEND always has a battle
        most = game.max_defend_dice(battle.target)
        stop = battle.stop_at if battle.stop_at is not None else 1
        odds = odds_for(game.rules)
        return Defend(odds.best_defence(game.armies[battle.source], game.armies[battle.target], stop, most))


# ------------------------------------------------------------------------------------------------ cards

def choose_trade(game: Game) -> Trade | None:
    """The set worth the most armies now (its territory bonus included), whenever one can be traded."""
    trades = game.valid_trades()
    if not trades:
        return None
    return Trade(max(trades, key=lambda cards: (game.trade_value(cards), cards)))


# ------------------------------------------------------------------------------------------------ attacks

def may_target(game: Game, target: int) -> bool:
    """The protected-last-territory rule of `attack_allowed`, for a source that may not have its armies yet."""
    defender = game.owner[target]
    if defender < 0:
        return False  # not dealt yet (lamorisse-1954's progressive deal)
    return not (game.territory_count[defender] == 1 and game.round <= game.rules.elimination_protection_rounds)


def threat(game: Game, me: int, t: int) -> int:
    """The strongest enemy stack next to `t`."""
    owner, armies = game.owner, game.armies
    worst = 0
    for n in game.map.neighbours[t]:
        if owner[n] != me and armies[n] > worst:
            worst = armies[n]
    return worst


def evaluate(view: View, source: int, target: int, attacking: int, card: float) -> Option | None:
    """The best blitz from `attacking` armies on `source` into `target`, over the stop levels worth trying."""
    defending = view.game.armies[target]
    worth = view.value[target] + card
    guard = min(attacking - 1, max(1, threat(view.game, view.me, source) // 2)) if view.keep[source] else 1
    best: Option | None = None
    for stop in {1, guard}:
        if attacking <= stop:
            continue
        chance, lost, killed = view.odds.blitz(attacking, defending, stop)
        if chance < MIN_CHANCE:
            continue
        gain = chance * worth * view.scale - LOSS * lost + view.kill * killed
        if best is None or gain > best.gain:
            best = Option(gain, source, target, stop, chance)
    return best


def attack_options(view: View, extra: int = 0) -> list[Option]:
    """Every attack worth its expected losses, best first; `extra` armies are imagined on each source (placing)."""
    game, me = view.game, view.me
    owner, armies, neighbours = game.owner, game.armies, game.map.neighbours
    card = CARD if not game.turn_state.conquered and (game.deck or game.discard) else 0.0
    out: list[Option] = []
    for s, holder in enumerate(owner):
        if holder != me or armies[s] + extra < 2:
            continue
        for t in neighbours[s]:
            if owner[t] == me or not may_target(game, t):
                continue
            option = evaluate(view, s, t, armies[s] + extra, card)
            if option is not None and option.gain > 0:
                out.append(option)
    out.sort(key=lambda o: (-o.gain, o.source, o.target))
    return out


def choose_attack(view: View) -> Action:
    options = attack_options(view)
    if not options:
        return EndPhase()
    best = options[0]
    if view.game.rules.blitz:
        return Blitz(best.source, best.target, best.stop_at)
    return Attack(best.source, best.target, view.game.max_attack_dice(best.source))


# ------------------------------------------------------------------------------------------------ placing

def choose_place(view: View) -> Action:
    game, pool = view.game, view.game.pool
    for option in attack_options(view, extra=pool):
        attacking = game.armies[option.source]
        if view.odds.chance(attacking, game.armies[option.target], option.stop_at) >= COVERED:
            continue  # already likely enough: the armies are better spent elsewhere
        needed = pool
        for n in range(1, pool + 1):
            if view.odds.chance(attacking + n, game.armies[option.target], option.stop_at) >= COVERED:
                needed = n
                break
        return Place(option.source, needed)
    return Place(defence_spot(view), pool)


def defence_spot(view: View) -> int:
    """The own territory most worth strengthening: valuable to keep and facing the strongest enemy."""
    game, me = view.game, view.me
    best, best_key = -1, (0.0, 0)
    for t, holder in enumerate(game.owner):
        if holder != me:
            continue
        danger = threat(game, me, t)
        if not danger:
            continue
        key = (view.keep[t] * danger / (game.armies[t] + 1), -t)
        if best < 0 or key > best_key:
            best, best_key = t, key
    return best if best >= 0 else game.owner.index(me)


# ------------------------------------------------------------------------------------------------ moving

def pressure(view: View, t: int) -> float:
    """How much a territory wants armies: the best target next to it and the danger to what it guards."""
    game, me = view.game, view.me
    best = 0.0
    danger = 0
    for n in game.map.neighbours[t]:
        if game.owner[n] != me:
            best = max(best, view.value[n])
            danger += game.armies[n]
    return best + 0.3 * view.keep[t] * danger


def choose_occupy(view: View) -> Action:
    game = view.game
    low, high = game.occupy_range()
    battle = game.battle
    assert battle is not None  # occupy_range() answers only after a conquest
    s, t = battle.source, battle.target
    at_source, at_target = pressure(view, s), pressure(view, t)
    if at_source <= 0:
        count = high
    elif at_target <= 0:
        count = low
    else:
        count = round(low + (high - low) * at_target / (at_source + at_target))
    if view.objective.min_armies > 1 and high - count < 2 <= high - low:
        count = high - 2  # the 18-territories mission counts territories holding 2 armies
    return Occupy(min(high, max(low, count)))


def choose_fortify(view: View) -> Action:
    game, me = view.game, view.me
    owner, armies = game.owner, game.armies
    heat = [pressure(view, t) if owner[t] == me else 0.0 for t in range(game.map.size)]
    depth = front_distance(game, me)
    best: tuple[float, int, int, int] | None = None
    for s, holder in enumerate(owner):
        if holder != me or armies[s] < 2:
            continue
        spare = armies[s] - 1 if not heat[s] else max(0, armies[s] - 1 - threat(game, me, s))
        if not spare:
            continue
        for t in game.map.neighbours[s]:
            if owner[t] != me or not game.fortify_allowed(s, t):
                continue
            pull = heat[t] - heat[s] if heat[t] else (0.1 if depth[t] < depth[s] else 0.0)
            if pull > 0 and (best is None or spare * pull > best[0]):
                best = (spare * pull, s, t, spare)
    if best is None:
        return EndPhase()
    return Fortify(best[1], best[2], best[3])


def front_distance(game: Game, me: int) -> list[int]:
    """Steps from each own territory to the nearest enemy one (through own territories)."""
    owner, neighbours = game.owner, game.map.neighbours
    far = 1 << 20
    depth = [far] * game.map.size
    frontier = [t for t, holder in enumerate(owner) if holder == me and any(owner[n] != me for n in neighbours[t])]
    for t in frontier:
        depth[t] = 1
    while frontier:
        nxt = []
        for t in frontier:
            for n in neighbours[t]:
                if owner[n] == me and depth[n] == far:
                    depth[n] = depth[t] + 1
                    nxt.append(n)
        frontier = nxt
    return depth
