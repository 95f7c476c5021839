"""A fast greedy player: trades whenever it can, masses armies on one front, attacks when it outnumbers the
defender by a margin suited to the dice rule, occupies with what the front needs, fortifies toward the border.
Acting for the neutral army (french-1976-duel), it reinforces the neutral territory facing the current player's
weakest one and attacks the current player wherever it would attack for itself.

Built on direct state queries rather than `legal_actions()`, because it plays thousands of simulated games.
"""

from __future__ import annotations

from bisect import insort

from conquista.rules.actions import Action, Blitz, Defend, EndPhase, Fortify, Occupy, Place, Trade
from conquista.rules.choices import FleetHandicap
from conquista.rules.engine import Game
from conquista.rules.events import (
    PHASE_ATTACK,
    PHASE_DEFEND,
    PHASE_ELIMINATION_TRADE,
    PHASE_FORTIFY,
    PHASE_NEUTRAL_ATTACK,
    PHASE_NEUTRAL_REINFORCE,
    PHASE_OCCUPY,
    PHASE_REINFORCE,
    PHASE_SETUP,
)

# With fleets: about how many fleets it takes to beat one army across the sea (a fleet's die counting 2 less wins
# 6 of the 32 rolls that decide: 4.3 fleets lost per army taken).
_SEA_COST = 5


def _sea_cost(game: Game, t: int) -> int:
    """About how many fleets taking `t` across the sea costs: its armies at the handicap, then its fleets."""
    fleets = game.fleets[t]
    return (game.armies[t] - fleets) * _SEA_COST + fleets


def _landing_threat(game: Game, me: int, t: int) -> int:
    """The fleets a landing on `t` must leave there to hold it through the enemies' next turns: the strongest enemy
    stack next to `t`, in fleets. The units that land are fleets, and an army attacking a fleet costs about
    `_SEA_COST` of them where the handicap counts in every battle. Without this a landing of a few fleets was taken
    back at once by the armies next door, turn after turn: two players on either side of a sea (the Americas
    against the rest) traded the same coasts for hundreds of turns."""
    owner, armies, sails = game.owner, game.armies, game.sails
    army_rate = _SEA_COST if game.rules.fleet_handicap is FleetHandicap.EVERY_BATTLE else 1
    worst = 0
    for n in game.map.neighbours[t]:
        if owner[n] < 0 or owner[n] == me:
            continue
        units = min(armies[n] - 1, game.units_for_link(n, t))
        threat = units if sails(n, t) else units * army_rate
        if threat > worst:
            worst = threat
    return worst


# Actions are immutable and a frozen dataclass costs about a microsecond to build: the ones this bot answers with
# again and again are made once.
_END_PHASE = EndPhase()
_DEFENDS = tuple(Defend(dice) for dice in range(4))
_OCCUPIES = tuple(Occupy(count) for count in range(64))


_BLITZES: dict[tuple[int, int, int], Blitz] = {}  # made as first chosen: a map's edges times the stop levels used


def _blitz_action(source: int, target: int, stop: int) -> Blitz:
    key = (source, target, stop)
    blitz = _BLITZES.get(key)
    if blitz is None:
        blitz = Blitz(source, target, stop)
        if stop < len(_OCCUPIES):  # a bounded table: a stop level that high is a rare, huge stack
            _BLITZES[key] = blitz
    return blitz


class _OwnTerritories:
    """One owner's territories in one game, in board order, kept between greedy's attack scans: a scan after a blitz
    finds the board as the last scan saw it but for the blitz's target (its owner changes with a conquest), so the
    list is mended there instead of the whole board filtered again. `seen` is the owners the list was made from;
    anything else changed (a turn passed, a move undone, another game) and the list is made afresh."""

    __slots__ = ("game", "me", "own", "seen", "target")

    def __init__(self, game: Game, me: int) -> None:
        owner = game.owner
        self.game = game            # held, so that no other game is taken for it
        self.me = me
        self.seen = owner[:]
        self.own = [s for s in range(len(owner)) if owner[s] == me]
        self.target = -1            # the territory the last scan chose to attack

    def fits(self, game: Game, me: int) -> bool:
        """The list is `me`'s territories in `game` now (mended at the last target if it changed hands)."""
        if self.game is not game or self.me != me:
            return False
        owner, seen, t = game.owner, self.seen, self.target
        if t >= 0:
            seen[t] = owner[t]
        if seen != owner:  # one comparison of the whole board, in C
            return False
        if t >= 0:
            own = self.own
            if owner[t] == me:
                if t not in own:
                    insort(own, t)
            elif t in own:
                own.remove(t)
        return True


class GreedyBot:
    def __init__(self, margin: int | None = None) -> None:
        # Armies beyond the defender's needed before attacking; None = chosen from the ruleset's dice.
        self.margin = margin
        self._own: _OwnTerritories | None = None
        # The last hand found to make no set in a reinforcement phase, and its game (`_trade`).
        self._tradeless_game: Game | None = None
        self._tradeless_hand: list[int] = []

    def _margin(self, game: Game) -> int:
        if self.margin is not None:
            return self.margin
        # Measured over seeded bot games: with two defence dice attacking at even numbers pays; three defence
        # dice hold better, so one army more is wanted. Shorter games also mean a stronger bot here.
        return 1 if game.rules.defender_dice_max >= 3 else 0

    def choose(self, game: Game) -> Action:
        phase = game.phase
        # The phases by how often a game asks: attacks, then move-ins, then a chosen defence.
        if phase is PHASE_ATTACK or phase is PHASE_NEUTRAL_ATTACK:
            return self._attack(game)
        if phase is PHASE_OCCUPY:
            return self._occupy(game)
        if phase is PHASE_DEFEND and game.battle is not None:
            dice = game.max_defend_dice(game.battle.target)
            return _DEFENDS[dice] if dice < len(_DEFENDS) else Defend(dice)
        if phase is PHASE_SETUP or phase is PHASE_REINFORCE or phase is PHASE_ELIMINATION_TRADE:
            if phase is not PHASE_SETUP:
                trade = self._trade(game, phase is PHASE_REINFORCE)
                if trade is not None:
                    return trade
            if game.pool:
                if game.rules.fleets:
                    return self._place_unit(game)
                return Place(self._front(game), game.pool)
            return _END_PHASE
        if phase is PHASE_NEUTRAL_REINFORCE:
            return Place(self._neutral_front(game), game.pool)
        if phase is PHASE_FORTIFY:
            return self._fortify(game)
        raise ValueError(f"the greedy bot has nothing to do in phase {phase.value}")

    def _trade(self, game: Game, reinforcing: bool) -> Trade | None:
        """The most valuable set to trade now, or None. In the reinforcement phase the sets a hand makes depend on
        the hand alone (the game's rules and map fixed): a hand just found to make none is not searched again when
        the same hand is asked about after a placement (every turn's end of reinforcement)."""
        hand = game.hands[game.current]
        if reinforcing and self._tradeless_game is game and hand == self._tradeless_hand:
            return None
        trades = game.valid_trades()
        if not trades:
            if reinforcing:
                self._tradeless_game, self._tradeless_hand = game, hand[:]
            return None
        # One set has nothing to compare its value with.
        return Trade(trades[0] if len(trades) == 1 else max(trades, key=game.trade_value))

    def _front(self, game: Game) -> int:
        """The own territory facing the weakest enemy neighbour; ties go to the strongest own stack."""
        me, owner, armies, neighbours = game.current, game.owner, game.armies, game.map.neighbours
        # The own territories as the attack scan keeps them (made here afresh at a turn's first placement, they
        # are the list its first scan finds): the same board order, without the whole board walked.
        known = self._own
        if known is None or not known.fits(game, me):
            known = self._own = _OwnTerritories(game, me)
        # The key (-weakest, armies) compared in two numbers, not as a tuple made for every own territory.
        best, best_weakest, best_armies = -1, 0, 0
        for t in known.own:
            weakest = 1 << 30
            for n in neighbours[t]:
                if owner[n] != me and armies[n] < weakest:
                    weakest = armies[n]
            if weakest == 1 << 30:
                continue
            if (best < 0 or weakest < best_weakest
                    or (weakest == best_weakest and armies[t] > best_armies)):
                best, best_weakest, best_armies = t, weakest, armies[t]
        if best < 0:  # no border at all: only possible when the player holds everything
            best = owner.index(me)
        return best

    def _place_unit(self, game: Game) -> Place:
        """With fleets: the own territory facing the cheapest enemy neighbour to take, and the unit that attacks
        it (a fleet over a sea link). Taking a territory across the sea from its armies costs a fleet's handicap."""
        me, owner, armies, neighbours = game.current, game.owner, game.armies, game.map.neighbours
        best, best_key, fleet = -1, (0, 0), False
        for t in range(len(owner)):
            if owner[t] != me:
                continue
            for n in neighbours[t]:
                if owner[n] == me or owner[n] < 0:
                    continue
                sea = game.sails(t, n)
                cost = _sea_cost(game, n) + _landing_threat(game, me, n) if sea else armies[n]
                key = (-cost + game.units_for_link(t, n), armies[t])
                if best < 0 or key > best_key:
                    best, best_key, fleet = t, key, sea
        if best < 0:
            return Place(owner.index(me), game.pool)
        return Place(best, game.pool, fleet)

    def _neutral_front(self, game: Game) -> int:
        """The neutral territory facing the current player's weakest territory; ties go to the strongest stack."""
        neutral, enemy, owner, armies, neighbours = game.neutral, game.current, game.owner, game.armies, \
            game.map.neighbours
        best, best_key = owner.index(neutral), (-(1 << 30), 0)  # type: ignore[arg-type]
        for t, holder in enumerate(owner):
            if holder != neutral:
                continue
            weakest = min((armies[n] for n in neighbours[t] if owner[n] == enemy), default=None)
            if weakest is not None and (-weakest, armies[t]) > best_key:
                best, best_key = t, (-weakest, armies[t])
        return best

    def _attack(self, game: Game) -> Action:
        # The attacker is the current player, or the neutral army in its turn (attack_allowed() keeps its targets
        # to the current player's territories).
        phase = game.phase
        me = game.current if phase is PHASE_ATTACK else game.acting_owner()
        owner, armies, neighbours = game.owner, game.armies, game.map.neighbours
        # The best edge found so far; a source whose armies cannot beat it even against 1 defender is skipped
        # before its neighbours are looked at (this scan is the hottest loop of a simulated game).
        best_s = best_t = -1
        margin = self.margin
        if margin is None:  # `_margin`, without the call: the position keeps the rules' defender_dice_max
            margin = 1 if game.defender_max >= 3 else 0
        best_edge = margin - 1
        fleets = game.fleets_on
        # Without fleets, in the current player's own attack, `attack_allowed(s, t)` for a source with 2 armies or
        # more and an enemy neighbour asks only this: the target is dealt and is not its owner's last territory
        # during the protected rounds. Asked here without the call (tests/bots/test_greedy_scan.py holds the two
        # to the same choices).
        plain = not fleets and phase is PHASE_ATTACK
        protected = game.round <= game.rules.elimination_protection_rounds
        counts = game.territory_count
        # The sources worth a look, filtered in one comprehension: own territories (kept between scans) whose usable
        # armies beat the margin against one defender.
        floor = best_edge + 2
        known = self._own
        if known is None or not known.fits(game, me):
            known = self._own = _OwnTerritories(game, me)
        if plain:
            # A source beats the best edge only with more than `floor` armies, and a target only with fewer than
            # `cut` (usable - armies[t] > best_edge, turned round): two comparisons per pair, no edge computed
            # for a pair that cannot win.
            for s in known.own:
                source_armies = armies[s]
                if source_armies <= floor:
                    continue
                cut = source_armies - 1 - best_edge
                for t in neighbours[s]:
                    if armies[t] < cut and owner[t] != me:
                        defender = owner[t]
                        if defender < 0 or (protected and counts[defender] == 1):
                            continue
                        best_s, best_t, cut = s, t, armies[t]
                        best_edge = source_armies - 1 - cut
                        floor = best_edge + 2
        else:
            for s in [s for s in known.own if armies[s] > floor]:
                usable = armies[s] - 1
                if usable - 1 <= best_edge:
                    continue
                for t in neighbours[s]:
                    if owner[t] != me:
                        edge = usable - armies[t]
                        if edge <= best_edge:
                            continue
                        if fleets:
                            edge = self._unit_edge(game, me, s, t)
                            if edge <= best_edge:
                                continue
                        if not game.attack_allowed(s, t):
                            continue
                        best_s, best_t, best_edge = s, t, edge
        known.target = best_t
        if best_s < 0 or not game.rules.blitz:
            return _END_PHASE
        s, t = best_s, best_t
        # armies[t] // 2 + 1 is at least 1 (the max(1, ...) it was written with never changed it).
        stop = armies[t] // 2 + 1 if armies[s] > armies[t] + 2 else 1
        blitz = _BLITZES.get((s, t, stop))
        return blitz if blitz is not None else _blitz_action(s, t, stop)

    @staticmethod
    def _unit_edge(game: Game, me: int, s: int, t: int) -> int:
        """With fleets: the units that may attack from s to t beyond the defender's, in armies, a fleet's handicap
        counted (the target's armies fight first, its fleets last, one for one). Across the sea, the fleets that
        must stay on `t` to hold it are not counted as usable."""
        usable = min(game.armies[s] - 1, game.units_for_link(s, t))
        if not game.sails(s, t):
            return usable - game.armies[t]
        usable -= _landing_threat(game, me, t)
        fleets = game.fleets[t]
        armies = game.armies[t] - fleets
        return (usable - fleets) // _SEA_COST - armies if armies else usable - fleets

    def _occupy(self, game: Game) -> Action:
        battle = game.battle
        # `occupy_range()` without the call in the plain case (armies alone, asked in the occupy phase: `choose`
        # checked it), the same two numbers (tests/bots/test_greedy_turn_cache.py).
        if battle is None or battle.occupy_min is None or game.fleets_on:
            low, high = game.occupy_range()
            assert battle is not None  # occupy_range() refuses to answer outside a conquest
        else:
            armies = game.armies
            low, high = battle.occupy_min, armies[battle.source] + armies[battle.target] - 1
        # The conqueror: without a neutral army, always the current player.
        me = game.current if game.neutral is None else game.acting_owner()
        owner, neighbours = game.owner, game.map.neighbours
        # Whether the source, then the target, has a neighbour not `me`'s, in plain loops: a helper called for
        # each cost more in the step every conquest takes.
        for n in neighbours[battle.source]:
            if owner[n] != me:
                break
        else:
            return self._occupy_count(high)   # nothing left to guard behind: every army moves on
        # A landing moves every fleet across: the attack was made with enough to hold the coast (`_landing_threat`),
        # and a coast held by a few fleets falls to the first armies that come.
        if game.fleets_on and game.sails(battle.source, battle.target):
            return self._occupy_count(high)
        for n in neighbours[battle.target]:
            if owner[n] != me:
                half = (low + high + 1) // 2
                count = half if half > low else low
                break
        else:
            count = low   # the conquest is inland: the least moves in
        return _OCCUPIES[count] if 0 <= count < len(_OCCUPIES) else Occupy(count)

    @staticmethod
    def _occupy_count(count: int) -> Action:
        return _OCCUPIES[count] if 0 <= count < len(_OCCUPIES) else Occupy(count)

    def _fortify(self, game: Game) -> Action:
        me, owner, armies, neighbours = game.current, game.owner, game.armies, game.map.neighbours
        best: tuple[int, int] | None = None
        best_armies = 1
        # The own territories in board order as the attack scan keeps them (its last scan, at the attack phase's
        # end, saw this board), not the whole board walked.
        known = self._own
        if known is None or not known.fits(game, me):
            known = self._own = _OwnTerritories(game, me)
        # A border territory (a neighbour not `me`'s) keeps its armies; an inland one's go to the first neighbour
        # on a border (plain loops: a helper called for each territory cost more).
        for s in known.own:
            if armies[s] <= best_armies:
                continue
            around = neighbours[s]
            for n in around:
                if owner[n] != me:
                    break
            else:
                for t in around:
                    for n in neighbours[t]:
                        if owner[n] != me:
                            break
                    else:
                        continue  # inland too
                    if game.fortify_allowed(s, t):
                        best, best_armies = (s, t), armies[s]
                        break
        if best is None:
            return _END_PHASE
        s, t = best
        rules = game.rules
        return Fortify(s, t, game.movable(s, t) if rules.fleets or rules.one_move_per_unit else armies[s] - 1)
