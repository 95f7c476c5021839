"""The planner: a bot that plays its own objective and weighs every attack with the exact odds.

Each decision is computed from the position alone (no memory between calls, so it is deterministic and can take
over any seat at any moment): what each territory is worth to the seat's objective (`planner_values`), the exact
chance and expected losses of a blitz (`planner_odds`), and from those the placement, the attack and its stop level,
the move-in, the fortify move and, when the ruleset lets the defender choose, the defence dice.

Only public information and the seat's own mission and hand are read.

With fleets (lamorisse-1954) an attack is made by the units of the link's kind (fleets over a sea link), its odds
are those of the battle's real pairings (a fleet's die counting less against an army), reinforcements are placed
as fleets where the best attack crosses the sea, and move counts stay within what may move (`movable`).
"""

from __future__ import annotations

from dataclasses import dataclass

from conquista.bots.greedy import GreedyBot
from conquista.bots.planner_fleets import crossing_threat, hold_chance, staging
from conquista.bots.planner_odds import Blitz as BlitzFigures
from conquista.bots.planner_odds import FleetOdds, PlannerOdds, fleet_odds_for, odds_for
from conquista.bots.planner_values import Objective, may_target, objective_for, worths
from conquista.rules.actions import Action, Attack, Blitz, Defend, EndPhase, Fortify, Occupy, Place, Trade
from conquista.rules.choices import CardDraw
from conquista.rules.engine import Game
from conquista.rules.events import Phase

CARD = 3.0            # armies' worth of the card the turn's first conquest earns
LOSS = 1.0            # cost of one army the attacker loses
KILL = 0.35           # worth of one army the defender loses (a weaker neighbour) with many players left
MIN_CHANCE = 0.25     # never start a blitz less likely than this to take the target
COVERED = 0.8         # a target this likely to fall needs no more armies placed behind it
STALL_ROUND = 30      # with fleets: after this many rounds the game is taken to stall at the seas ...
STALL_SPAN = 30.0     # ... and an army lost costs half as much this many rounds later


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
    fleet_odds: FleetOdds | None  # rulesets with fleets: the odds of each pairing of units
    kill: float            # worth of one army the defender loses
    loss: float            # cost of one army the attacker loses
    stalled: bool          # with fleets, past STALL_ROUND: build up one crossing and break through
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
    value, keep = worths(game, me, objective)
    return View(game, me, objective, value, keep,
                odds_for(game.rules), fleet_odds_for(game.rules) if game.rules.fleets else None, kill,
                stalemate_loss(game), game.rules.fleets and game.round > STALL_ROUND, scale)


def stalemate_loss(game: Game) -> float:
    """The cost of an army lost. With fleets, armies on a coast hold it against four times their number of fleets
    and a fleet landed next to armies is soon taken back, so between careful players a game stalls at the seas
    (measured over 50 seeded games of 2 to 6 planners: 13 ran past 1000 turns without this, none with it, the
    longest 514). Past `STALL_ROUND` rounds an army lost counts
    less and less, and the reinforcements go whole to one crossing (`choose_place`), until the stronger side
    pays the price of a landing that holds."""
    if not game.rules.fleets or game.round <= STALL_ROUND:
        return LOSS
    return LOSS / (1.0 + (game.round - STALL_ROUND) / STALL_SPAN)


class PlannerBot:
    def __init__(self, loss: float = 1.0, worth: float = 1.0) -> None:
        # Acting for the duel's neutral army (placing its reinforcements, its turn, its move-in), the planner plays
        # it as the greedy bot does: the neutral army has no mission of its own to plan for.
        self._for_neutral = GreedyBot()
        # A way of playing (the hard bot tries several): an army lost costs `loss` times more, a territory taken is
        # worth `worth` times more.
        self.loss, self.worth = loss, worth

    def choose(self, game: Game) -> Action:
        phase = game.phase
        if game.neutral is not None and phase is not Phase.DEFEND and game.acting_owner() == game.neutral:
            return self._for_neutral.choose(game)
        if phase is Phase.DEFEND:
            return self._defend(game)
        view = make_view(game, game.current)
        view.loss *= self.loss
        view.scale *= self.worth
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

def threat(view: View, t: int) -> int:
    """The strongest enemy stack next to `t` (with fleets: weighed by what it may destroy of `t`'s defenders)."""
    game, me = view.game, view.me
    if view.fleet_odds is not None:
        return crossing_threat(game, view.fleet_odds, me, t)
    owner, armies = game.owner, game.armies
    worst = 0
    for n in game.map.neighbours[t]:
        if owner[n] != me and armies[n] > worst:
            worst = armies[n]
    return worst


def blitz_figures(view: View, source: int, target: int, attacking: int, usable: int, stop: int) -> BlitzFigures:
    """Conquest chance and expected losses of a blitz from `attacking` units on `source` (`usable` of them of the
    link's kind) into `target` as it stands."""
    game = view.game
    if view.fleet_odds is None:
        return view.odds.blitz(attacking, game.armies[target], stop)
    return view.fleet_odds.blitz(attacking, usable, game.armies[target], game.fleets[target],
                                 game.sails(source, target), stop)


def evaluate(view: View, source: int, target: int, attacking: int, card: float, usable: int = 0) -> Option | None:
    """The best blitz from `attacking` armies on `source` into `target`, over the stop levels worth trying
    (with fleets: `usable` of the attacking units are of the link's kind)."""
    worth = view.value[target] + card
    guard = min(attacking - 1, max(1, threat(view, source) // 2)) if view.keep[source] else 1
    best: Option | None = None
    for stop in {1, guard}:
        if attacking <= stop:
            continue
        chance, lost, killed = blitz_figures(view, source, target, attacking, usable, stop)
        if chance < MIN_CHANCE:
            continue
        keep = 1.0
        if view.fleet_odds is not None:
            keep = hold_chance(view.game, view.fleet_odds, view.me, source, target, usable - lost - 1)
        gain = chance * keep * worth * view.scale - view.loss * lost + view.kill * killed
        if best is None or gain > best.gain:
            best = Option(gain, source, target, stop, chance)
    return best


def attack_options(view: View, extra: int = 0) -> list[Option]:
    """Every attack worth its expected losses, best first; `extra` armies are imagined on each source (placing)."""
    game, me = view.game, view.me
    owner, armies, neighbours = game.owner, game.armies, game.map.neighbours
    # The turn's first conquest earns a card (not under lamorisse-1954's income cards).
    card = CARD if (not game.turn_state.conquered and game.rules.card_draw is CardDraw.ON_CONQUEST
                    and (game.deck or game.discard)) else 0.0
    fleets = game.rules.fleets
    usable = 0
    out: list[Option] = []
    for s, holder in enumerate(owner):
        if holder != me or armies[s] + extra < 2:
            continue
        for t in neighbours[s]:
            if owner[t] == me or not may_target(game, t):
                continue
            if fleets:
                # The placed units would be of this link's kind.
                usable = game.units_for_link(s, t) + extra
                if not usable:
                    continue
            option = evaluate(view, s, t, armies[s] + extra, card, usable)
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
    staged = build_up(view) if view.stalled else None
    if staged is not None:
        return staged
    for option in attack_options(view, extra=pool):
        s, t = option.source, option.target
        attacking = game.armies[s]
        usable = game.units_for_link(s, t)
        if blitz_figures(view, s, t, attacking, usable, option.stop_at)[0] >= COVERED:
            continue  # already likely enough: the armies are better spent elsewhere
        needed = pool
        for n in range(1, pool + 1):
            if blitz_figures(view, s, t, attacking + n, usable + n, option.stop_at)[0] >= COVERED:
                needed = n
                break
        # With fleets, the units placed are those that cross to the target: fleets over a sea link.
        return Place(s, needed, True) if game.sails(s, t) else Place(s, needed)
    spot = defence_spot(view)
    if view.fleet_odds is not None and not view.stalled and threat(view, spot) < game.armies[spot]:
        # Nothing worth attacking now and no territory in danger: build up the crossing that will be worth it.
        staged = build_up(view)
        if staged is not None:
            return staged
    return Place(spot, pool)


def build_up(view: View) -> Place | None:
    """With fleets: the whole pool on the crossing to build up (`planner_fleets.staging`), as units of its kind
    (an island's armies never leave it; its fleets do)."""
    assert view.fleet_odds is not None
    game = view.game
    crossing = staging(game, view.fleet_odds, view.me, view.value)
    if crossing is None:
        return None
    s, t = crossing
    return Place(s, game.pool, True) if game.sails(s, t) else Place(s, game.pool)


def defence_spot(view: View) -> int:
    """The own territory most worth strengthening: valuable to keep and facing the strongest enemy."""
    game, me = view.game, view.me
    best, best_key = -1, (0.0, 0)
    for t, holder in enumerate(game.owner):
        if holder != me:
            continue
        danger = threat(view, t)
        if not danger:
            continue
        key = (view.keep[t] * danger / (game.armies[t] + 1), -t)
        if best < 0 or key > best_key:
            best, best_key = t, key
    return best if best >= 0 else game.owner.index(me)


# ------------------------------------------------------------------------------------------------ moving

def pressure(view: View, t: int, sea: bool = False) -> float:
    """How much a territory wants armies: the best target next to it and the danger to what it guards. With
    fleets, how much it wants units of one kind: fleets (`sea`) for the targets across its sea links; armies for
    those across its land links and for the danger (armies defend first, and a fleet's die counts less)."""
    game, me = view.game, view.me
    best = 0.0
    danger = 0.0
    odds = view.fleet_odds
    for n in game.map.neighbours[t]:
        if game.owner[n] != me:
            if odds is None:
                best = max(best, view.value[n])
                danger += game.armies[n]
                continue
            crossing = game.map.is_sea_link(t, n)
            if crossing == sea:
                best = max(best, view.value[n])
            danger += game.units_for_link(n, t) * odds.rate[crossing, False]
    if odds is None:
        return best + 0.3 * view.keep[t] * danger
    if sea:
        return best
    # Armies beyond the danger are wasted there: an army cannot cross the sea to use them.
    return best + 0.3 * view.keep[t] * max(0.0, danger - game.armies[t] + game.fleets[t])


def choose_occupy(view: View) -> Action:
    game = view.game
    low, high = game.occupy_range()
    battle = game.battle
    assert battle is not None  # occupy_range() answers only after a conquest
    s, t = battle.source, battle.target
    sea = game.sails(s, t)  # with fleets the units that move in are of the link's kind
    at_source, at_target = pressure(view, s, sea), pressure(view, t, sea)
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
    mine = [t for t in range(game.map.size) if owner[t] == me]
    heat = [0.0] * game.map.size
    for t in mine:
        heat[t] = pressure(view, t)
    # With fleets, the fleets crossing a sea link go where targets across the sea are.
    sea_heat = heat
    if game.rules.fleets:
        sea_heat = [0.0] * game.map.size
        for t in mine:
            sea_heat[t] = pressure(view, t, True)
    depth = front_distance(game, me)
    limited = game.rules.fleets or game.rules.one_move_per_unit
    best: tuple[float, int, int, int] | None = None
    for s in mine:
        if armies[s] < 2:
            continue
        spare = armies[s] - 1 if not heat[s] else max(0, armies[s] - 1 - threat(view, s))
        if not spare:
            continue
        for t in game.map.neighbours[s]:
            if owner[t] != me or not game.fortify_allowed(s, t):
                continue
            wants = sea_heat if game.sails(s, t) else heat
            pull = wants[t] - wants[s] if wants[t] else (0.1 if depth[t] < depth[s] else 0.0)
            # With fleets or one move per unit: only the units of the link's kind that have not moved yet.
            count = min(spare, game.movable(s, t)) if limited else spare
            if pull > 0 and count and (best is None or count * pull > best[0]):
                best = (count * pull, s, t, count)
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
