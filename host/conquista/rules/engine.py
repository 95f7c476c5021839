"""The game engine: one state machine referees every ruleset. Pure: no I/O, no random, no clock.

`Game(rules, map, players, deal)` starts a game from a dealt board; `legal_actions()` lists what the player to
move (or chance) may do; `apply(action)` checks legality, changes the state and returns typed events. Dice rolls and
card draws are chance actions supplied by the caller, so the action log replays the game bit for bit.
"""

from __future__ import annotations

import copy
import hashlib
import json
from itertools import product
from typing import Any

from conquista.errors import IllegalActionError, RulesetError
from conquista.rules import cards as cardlib
from conquista.rules.actions import (
    Action,
    Attack,
    Blitz,
    Deal,
    Defend,
    Draw,
    EndPhase,
    Fortify,
    Occupy,
    Place,
    Roll,
    Trade,
)
from conquista.rules.events import (
    ArmiesMoved,
    ArmiesPlaced,
    BattleRolled,
    CardDrawn,
    CardsTraded,
    DeckReshuffled,
    Event,
    GameOver,
    PhaseStarted,
    PlayerEliminated,
    TerritoryConquered,
    TurnStarted,
)
from conquista.rules.events import Phase as P
from conquista.rules.graph import reachable
from conquista.rules.mapdata import GameMap
from conquista.rules.missions import check_map_supports, mission_complete
from conquista.rules.rulesets import Ruleset

CHANCE = -1  # `to_move` while the game waits for dice or a card draw


def resolve_battle(attack: tuple[int, ...], defend: tuple[int, ...]) -> tuple[int, int]:
    """(attacker losses, defender losses): dice sorted high to low, compared in pairs, ties to the defender."""
    a = sorted(attack, reverse=True)
    d = sorted(defend, reverse=True)
    attacker_losses = defender_losses = 0
    for i in range(min(len(a), len(d))):
        if a[i] > d[i]:
            defender_losses += 1
        else:
            attacker_losses += 1
    return attacker_losses, defender_losses


def _sorted_outcomes(n: int) -> list[tuple[int, ...]]:
    return sorted({tuple(sorted(p, reverse=True)) for p in product(range(1, 7), repeat=n)})


# Distinct roll outcomes (order of dice never changes a battle), built once: legal_actions() at a roll lists these.
_ROLL_OUTCOMES: dict[tuple[int, int], tuple[Roll, ...]] = {}


def _roll_outcomes(attack: int, defend: int) -> tuple[Roll, ...]:
    key = (attack, defend)
    if key not in _ROLL_OUTCOMES:
        _ROLL_OUTCOMES[key] = tuple(Roll(a, d) for a in _sorted_outcomes(attack) for d in _sorted_outcomes(defend))
    return _ROLL_OUTCOMES[key]


class Game:
    """The state of one game. Mutable; `replay()` of its log rebuilds an equal one."""

    def __init__(self, rules: Ruleset, game_map: GameMap, players: int, deal: Deal) -> None:
        rules.check_players(players)
        if rules.objective == "missions":
            check_map_supports(game_map, rules.missions)
        self.rules = rules
        self.map = game_map
        self.players = players
        n = game_map.size
        self.owner = [-1] * n
        self.armies = [0] * n
        self.territory_count = [0] * players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.deck = list(range(n + rules.deck_jollies))
        self.discard: list[int] = []
        self.missions: tuple[int, ...] = ()
        self.eliminated = [False] * players
        self.eliminated_by = [-1] * players
        self.reserve = [0] * players          # armies still to place during the initial placement
        self.phase = P.SETUP
        self.first_player = 0
        self.current = 0
        self.turn = 0
        self.round = 0
        self.pool = 0                          # armies to place now (setup batch, reinforcements, trade armies)
        self.sets_traded = 0
        self.conquered_this_turn = False
        self.attacked_this_turn = False
        self.fortifies_done = 0
        self.forced_trade_down_to = -1         # after an elimination, trade until the hand is this small
        # The battle in progress.
        self.source = -1
        self.target = -1
        self.attack_dice = 0
        self.defend_dice = 0
        self.blitz_stop = 0                    # 0: a single roll; ≥ 1: blitz until the source is down to this
        self.last_dice = 0
        self.occupy_min = 0
        self.winner = -1
        self.over_reason = ""
        self.placed_total = 0                  # every army ever put on the board ...
        self.lost_total = 0                    # ... minus every army lost equals the board total
        self.log: list[Action] = []
        self._deal(deal)
        self.log.append(deal)

    # ----------------------------------------------------------------------------------------------- queries

    @property
    def to_move(self) -> int:
        """The seat that must act now, or CHANCE when dice or a card draw are awaited, or -1 when over."""
        phase = self.phase
        if phase is P.ROLL or phase is P.DRAW:
            return CHANCE
        if phase is P.DEFEND:
            return self.owner[self.target]
        if phase is P.OVER:
            return -1
        return self.current

    @property
    def over(self) -> bool:
        return self.phase is P.OVER

    def is_chance(self) -> bool:
        return self.phase is P.ROLL or self.phase is P.DRAW

    def live_players(self) -> list[int]:
        return [p for p in range(self.players) if not self.eliminated[p]]

    def reinforcements_for(self, seat: int) -> int:
        rules = self.rules
        count = max(rules.reinforcement_minimum, self.territory_count[seat] // rules.reinforcement_divisor)
        if rules.continent_bonuses:
            owner = self.owner
            for continent in self.map.continents:
                if all(owner[t] == seat for t in continent.territories):
                    count += continent.bonus
        return count

    def total_armies(self) -> int:
        return sum(self.armies)

    def valid_trades(self, seat: int | None = None) -> list[tuple[int, int, int]]:
        hand = self.hands[self.current if seat is None else seat]
        if len(hand) < 3:
            return []
        return cardlib.valid_trades(self.map, hand, self.rules.valid_sets)

    def trade_value(self, cards: tuple[int, ...]) -> int:
        """Armies the current player would get for trading `cards` now (set value plus territory bonus)."""
        kind = self._set_kind(cards)
        return self.rules.set_value(kind, self.sets_traded) + self._territory_bonus_total(cards)

    def occupy_range(self) -> tuple[int, int]:
        return self.occupy_min, self.armies[self.source] + self.armies[self.target] - 1

    def max_attack_dice(self, source: int) -> int:
        return min(self.rules.attacker_dice_max, self.armies[source] - 1)

    def max_defend_dice(self, target: int) -> int:
        return min(self.rules.defender_dice_max, self.armies[target])

    def must_trade(self) -> bool:
        """True while the player to move may not end the phase because of a hand limit."""
        hand = len(self.hands[self.current])
        if self.phase is P.REINFORCE:
            limit = self.rules.forced_trade_hand
            return bool(limit) and hand >= limit and bool(self.valid_trades())
        if self.phase is P.ELIMINATION_TRADE:
            return self.forced_trade_down_to >= 0 and hand > self.forced_trade_down_to and bool(self.valid_trades())
        return False

    def can_attack_from(self, source: int) -> bool:
        return self.owner[source] == self.current and self.armies[source] >= 2

    def attack_allowed(self, source: int, target: int) -> bool:
        owner = self.owner
        if owner[source] != self.current or self.armies[source] < 2:
            return False
        defender = owner[target]
        if defender == self.current or not self.map.adjacent(source, target):
            return False
        # Italian rule: nobody may be eliminated before the end of the protected rounds.
        return not (self.territory_count[defender] == 1 and self.round <= self.rules.elimination_protection_rounds)

    def fortify_allowed(self, source: int, target: int) -> bool:
        owner, me = self.owner, self.current
        if source == target or owner[source] != me or owner[target] != me or self.armies[source] < 2:
            return False
        if self.rules.fortify_path == "adjacent":
            return self.map.adjacent(source, target)
        return target in self._connected_own(source)

    # ------------------------------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Everything allowed now. At a chance node: the distinct outcomes (dice sorted high to low; any order of
        the same dice is equally legal); empty only when the game is over."""
        phase = self.phase
        me = self.current
        out: list[Action] = []
        if phase is P.OVER:
            return out
        if phase is P.ROLL:
            return list(_roll_outcomes(self.attack_dice, self.defend_dice))
        if phase is P.DRAW:
            pile = self.deck if self.deck else self.discard
            return [Draw(c) for c in sorted(pile)]
        if phase is P.DEFEND:
            return [Defend(d) for d in range(1, self.max_defend_dice(self.target) + 1)]
        if phase is P.OCCUPY:
            low, high = self.occupy_range()
            return [Occupy(c) for c in range(low, high + 1)]
        own = [t for t in range(self.map.size) if self.owner[t] == me]
        if phase in (P.SETUP, P.REINFORCE, P.ELIMINATION_TRADE):
            if phase is not P.SETUP:
                out.extend(Trade(c) for c in self.valid_trades())
            out.extend(Place(t, c) for t in own for c in range(1, self.pool + 1))
            if phase is not P.SETUP and self.pool == 0 and not self.must_trade():
                out.append(EndPhase())
            return out
        if phase is P.ATTACK:
            for s in own:
                if self.armies[s] < 2:
                    continue
                for t in self.map.neighbours[s]:
                    if self.attack_allowed(s, t):
                        out.extend(Attack(s, t, d) for d in range(1, self.max_attack_dice(s) + 1))
                        if self.rules.blitz:
                            out.extend(Blitz(s, t, k) for k in range(1, self.armies[s]))
            out.append(EndPhase())
            return out
        if phase is P.FORTIFY:
            for s in own:
                if self.armies[s] < 2:
                    continue
                targets = (self.map.neighbours[s] if self.rules.fortify_path == "adjacent"
                           else sorted(self._connected_own(s)))
                for t in targets:
                    if t != s and self.owner[t] == me:
                        out.extend(Fortify(s, t, c) for c in range(1, self.armies[s]))
            out.append(EndPhase())
            return out
        raise AssertionError(f"no legal actions defined for phase {phase}")  # every phase is handled above

    def check(self, action: Action) -> None:
        """Raise IllegalActionError, with its reason, if `action` is not legal now; change nothing."""
        self._check(action)

    def is_legal(self, action: Action) -> bool:
        try:
            self._check(action)
        except IllegalActionError:
            return False
        return True

    # ------------------------------------------------------------------------------------------------ apply

    def apply(self, action: Action) -> list[Event]:
        """Check `action` and apply it. Raises IllegalActionError (state unchanged) if it is not legal now."""
        self._check(action)
        handler = _HANDLERS[type(action)]
        events: list[Event] = []
        handler(self, action, events)
        self.log.append(action)
        return events

    def _fail(self, action: Action, reason: str) -> IllegalActionError:
        return IllegalActionError(f"{self.describe(action)} is illegal in phase {self.phase.value} "
                                  f"(player {self.current + 1}): {reason}")

    def describe(self, action: Action) -> str:
        """A human name for an action, with territory ids instead of indices."""
        tid = self._tid
        match action:
            case Place(t, c):
                return f"place {c} on {tid(t)}"
            case Attack(s, t, d):
                return f"attack {tid(s)} → {tid(t)} with {d} dice"
            case Blitz(s, t, k):
                return f"blitz {tid(s)} → {tid(t)} stopping at {k}"
            case Fortify(s, t, c):
                return f"fortify {c} from {tid(s)} to {tid(t)}"
            case Trade(cs):
                return "trade cards " + ", ".join(self._card_name(c) for c in cs)
            case Occupy(c):
                return f"occupy with {c}"
            case Defend(d):
                return f"defend with {d} dice"
            case Roll(a, d, _):
                return f"roll {list(a)} vs {list(d)}"
            case Draw(c):
                return f"draw card {self._card_name(c)}"
            case EndPhase():
                return f"end {self.phase.value}"
            case Deal():
                return "deal"

    def _tid(self, t: int) -> str:
        return self.map.id(t) if 0 <= t < self.map.size else f"#{t}"

    def _card_name(self, card: int) -> str:
        return self.map.id(card) if 0 <= card < self.map.size else f"jolly#{card - self.map.size + 1}"

    def _territory(self, action: Action, t: object) -> None:
        if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < self.map.size:
            raise self._fail(action, f"{t!r} is not a territory of map {self.map.name!r}")

    def _count(self, action: Action, value: object, what: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self._fail(action, f"{what} must be a whole number, got {value!r}")
        return value

    def _check(self, action: Action) -> None:
        checker = _CHECKS.get(type(action))
        if checker is None:
            raise IllegalActionError(f"{action!r} is not a game action")
        if self.phase is P.OVER:
            raise self._fail(action, "the game is over")
        checker(self, action)

    def _check_place(self, action: Place) -> None:
        if self.phase not in (P.SETUP, P.REINFORCE, P.ELIMINATION_TRADE):
            raise self._fail(action, "armies are placed only during setup or reinforcement")
        self._territory(action, action.territory)
        count = self._count(action, action.count, "the count")
        if self.owner[action.territory] != self.current:
            raise self._fail(action, f"{self._tid(action.territory)} is not yours")
        if not 1 <= count <= self.pool:
            raise self._fail(action, f"you have {self.pool} armies to place")

    def _check_trade(self, action: Trade) -> None:
        if self.phase not in (P.REINFORCE, P.ELIMINATION_TRADE):
            raise self._fail(action, "cards are traded only before the first attack of the turn")
        hand = self.hands[self.current]
        cards = action.cards
        if len(cards) != 3 or len(set(cards)) != 3 or any(c not in hand for c in cards):
            raise self._fail(action, "a trade is three different cards from your hand")
        symbols = tuple(cardlib.card_symbol(self.map, c) for c in cards)
        kind_name = cardlib.set_kind(symbols)  # type: ignore[arg-type]
        if kind_name is None or kind_name not in self.rules.valid_sets:
            raise self._fail(action, f"not a set in {self.rules.name}")

    def _check_end_phase(self, action: EndPhase) -> None:
        phase = self.phase
        if phase is P.REINFORCE or phase is P.ELIMINATION_TRADE:
            if self.pool:
                raise self._fail(action, f"{self.pool} armies are still to place")
            if self.must_trade():
                raise self._fail(action, f"you hold {len(self.hands[self.current])} cards and must trade")
        elif phase is not P.ATTACK and phase is not P.FORTIFY:
            raise self._fail(action, "this phase ends by itself")

    def _check_attack(self, action: Attack | Blitz) -> None:
        if self.phase is not P.ATTACK:
            raise self._fail(action, "attacks happen in the attack phase")
        if isinstance(action, Blitz) and not self.rules.blitz:
            raise self._fail(action, f"{self.rules.name} has no blitz")
        self._territory(action, action.source)
        self._territory(action, action.target)
        s, t = action.source, action.target
        if self.owner[s] != self.current:
            raise self._fail(action, f"{self._tid(s)} is not yours")
        if self.armies[s] < 2:
            raise self._fail(action, f"{self._tid(s)} needs at least 2 armies to attack")
        if self.owner[t] == self.current:
            raise self._fail(action, f"{self._tid(t)} is yours")
        if not self.map.adjacent(s, t):
            raise self._fail(action, f"{self._tid(t)} is not adjacent to {self._tid(s)}")
        if not self.attack_allowed(s, t):
            raise self._fail(action, f"{self._tid(t)} is the defender's last territory and nobody may be "
                             f"eliminated before round {self.rules.elimination_protection_rounds + 1}")
        if isinstance(action, Attack):
            dice = self._count(action, action.dice, "dice")
            if not 1 <= dice <= self.max_attack_dice(s):
                raise self._fail(action, f"attack with 1 to {self.max_attack_dice(s)} dice")
        else:
            stop = self._count(action, action.stop_at, "the stop level")
            if not 1 <= stop < self.armies[s]:
                raise self._fail(action, f"the stop level must be between 1 and {self.armies[s] - 1}")

    def _check_defend(self, action: Defend) -> None:
        if self.phase is not P.DEFEND:
            raise self._fail(action, "no defence is being chosen")
        dice = self._count(action, action.dice, "dice")
        if not 1 <= dice <= self.max_defend_dice(self.target):
            raise self._fail(action, f"defend with 1 to {self.max_defend_dice(self.target)} dice")

    def _check_roll(self, action: Roll) -> None:
        if self.phase is not P.ROLL:
            raise self._fail(action, "no battle roll is awaited")
        if len(action.attack) != self.attack_dice or len(action.defend) != self.defend_dice:
            raise self._fail(action, f"this roll is {self.attack_dice} attack and {self.defend_dice} defence dice")
        for die in action.attack + action.defend:
            if die.__class__ is not int or not 1 <= die <= 6:
                raise self._fail(action, f"a die shows 1 to 6, not {die!r}")

    def _check_occupy(self, action: Occupy) -> None:
        if self.phase is not P.OCCUPY:
            raise self._fail(action, "nothing was conquered")
        count = self._count(action, action.count, "the count")
        low, high = self.occupy_range()
        if not low <= count <= high:
            raise self._fail(action, f"move {low} to {high} armies into {self._tid(self.target)}")

    def _check_fortify(self, action: Fortify) -> None:
        if self.phase is not P.FORTIFY:
            raise self._fail(action, "armies are moved in the fortify phase")
        self._territory(action, action.source)
        self._territory(action, action.target)
        count = self._count(action, action.count, "the count")
        s, t = action.source, action.target
        if not self.fortify_allowed(s, t):
            how = "adjacent" if self.rules.fortify_path == "adjacent" else "connected through your territories"
            raise self._fail(action, f"move between two of your territories that are {how}, "
                             f"from one with at least 2 armies")
        if not 1 <= count < self.armies[s]:
            raise self._fail(action, f"move 1 to {self.armies[s] - 1} armies, leaving one behind")

    def _check_draw(self, action: Draw) -> None:
        if self.phase is not P.DRAW:
            raise self._fail(action, "no card draw is awaited")
        pile = self.deck if self.deck else self.discard
        if action.card not in pile:
            raise self._fail(action, f"card {action.card!r} is not in the deck")

    def _check_deal(self, action: Deal) -> None:
        raise self._fail(action, "a game is dealt once, when it is created")

    # ----------------------------------------------------------------------------------------------- deal

    def _deal(self, deal: Deal) -> None:
        n = self.map.size
        order = deal.territory_order
        if sorted(order) != list(range(n)):
            raise RulesetError(f"the deal must list each of the {n} territories once")
        if not 0 <= deal.first_player < self.players:
            raise RulesetError(f"first player {deal.first_player} is not a seat of {self.players}")
        if self.rules.objective == "missions":
            if len(deal.missions) != self.players or len(set(deal.missions)) != self.players:
                raise RulesetError(f"the deal must give each of the {self.players} players a different mission")
            for m in deal.missions:
                if m not in self.rules.missions:
                    raise RulesetError(f"mission {m} is not in ruleset {self.rules.name!r}")
        elif deal.missions:
            raise RulesetError(f"ruleset {self.rules.name!r} has no missions")
        self.missions = tuple(deal.missions)
        self.first_player = deal.first_player
        for i, t in enumerate(order):
            seat = (deal.first_player + i) % self.players
            self.owner[t] = seat
            self.armies[t] = 1
            self.territory_count[seat] += 1
        self.placed_total = n
        start = self.rules.starting_armies[self.players]
        for seat in range(self.players):
            self.reserve[seat] = max(0, start - self.territory_count[seat])
        self.current = deal.first_player
        if any(self.reserve):
            self.current = self._next_with_reserve(deal.first_player, include_self=True)
            self._start_setup_batch()
        else:
            self._start_turn(deal.first_player, [])

    def _next_with_reserve(self, seat: int, include_self: bool = False) -> int:
        for step in range(0 if include_self else 1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.reserve[candidate]:
                return candidate
        return -1

    def _start_setup_batch(self) -> None:
        batch = self.rules.initial_placement_batch
        reserve = self.reserve[self.current]
        self.pool = min(batch, reserve) if batch else reserve
        self.reserve[self.current] -= self.pool
        self.phase = P.SETUP

    # ------------------------------------------------------------------------------------------ handlers

    def _do_place(self, action: Place, events: list[Event]) -> None:
        t, count = action.territory, action.count
        self.armies[t] += count
        self.placed_total += count
        self.pool -= count
        events.append(ArmiesPlaced(self.current, t, count))
        if self.phase is P.SETUP:
            if self.pool == 0:
                nxt = self._next_with_reserve(self.current)
                if nxt < 0:
                    self._start_turn(self.first_player, events)
                else:
                    self.current = nxt
                    self._start_setup_batch()
                    events.append(PhaseStarted(nxt, P.SETUP))
            return
        self._check_win(events)

    def _set_kind(self, cards: tuple[int, ...]) -> str:
        kind = cardlib.set_kind(tuple(cardlib.card_symbol(self.map, c) for c in cards))  # type: ignore[arg-type]
        assert kind is not None  # checked by _check
        return kind

    def _bonus_cards(self, cards: tuple[int, ...]) -> list[int]:
        """The traded cards that earn the territory bonus: their territory is the trader's."""
        me = self.current
        matching = [c for c in cards if c < self.map.size and self.owner[c] == me]
        limit = self.rules.territory_bonus_per_trade
        return matching[:limit] if limit else matching

    def _territory_bonus_total(self, cards: tuple[int, ...]) -> int:
        return self.rules.territory_bonus * len(self._bonus_cards(cards))

    def _do_trade(self, action: Trade, events: list[Event]) -> None:
        me = self.current
        cards = action.cards
        kind = self._set_kind(cards)
        armies = self.rules.set_value(kind, self.sets_traded)
        self.sets_traded += 1
        bonus_cards = self._bonus_cards(cards)
        hand = self.hands[me]
        for c in cards:
            hand.remove(c)
            self.discard.append(c)
        bonus = self.rules.territory_bonus
        on_territory = self.rules.territory_bonus_placement == "on_territory"
        pool_bonus = 0 if on_territory else bonus * len(bonus_cards)
        events.append(CardsTraded(me, cards, kind, armies, pool_bonus))
        if on_territory:
            for c in bonus_cards:
                self.armies[c] += bonus
                self.placed_total += bonus
                events.append(ArmiesPlaced(me, c, bonus))
        self.pool += armies + pool_bonus
        self._check_win(events)

    def _do_end_phase(self, action: EndPhase, events: list[Event]) -> None:
        phase = self.phase
        if phase is P.REINFORCE:
            self.phase = P.ATTACK
            events.append(PhaseStarted(self.current, P.ATTACK))
        elif phase is P.ELIMINATION_TRADE:
            self.forced_trade_down_to = -1
            self.phase = P.ATTACK
            events.append(PhaseStarted(self.current, P.ATTACK))
        elif phase is P.ATTACK:
            self.phase = P.FORTIFY
            events.append(PhaseStarted(self.current, P.FORTIFY))
        else:
            self._end_turn(events)

    def _do_attack(self, action: Attack, events: list[Event]) -> None:
        self.source, self.target = action.source, action.target
        self.attack_dice = action.dice
        self.blitz_stop = 0
        self.attacked_this_turn = True
        self._await_defence()

    def _do_blitz(self, action: Blitz, events: list[Event]) -> None:
        self.source, self.target = action.source, action.target
        self.blitz_stop = action.stop_at
        self.attack_dice = self.max_attack_dice(action.source)
        self.attacked_this_turn = True
        self._await_defence()

    def _await_defence(self) -> None:
        if self.rules.automatic_defence:
            self.defend_dice = self.max_defend_dice(self.target)
            self.phase = P.ROLL
        else:
            self.phase = P.DEFEND

    def _do_defend(self, action: Defend, events: list[Event]) -> None:
        self.defend_dice = action.dice
        self.phase = P.ROLL

    def _do_roll(self, action: Roll, events: list[Event]) -> None:
        s, t = self.source, self.target
        attacker_losses, defender_losses = resolve_battle(action.attack, action.defend)
        self.armies[s] -= attacker_losses
        self.armies[t] -= defender_losses
        self.lost_total += attacker_losses + defender_losses
        events.append(BattleRolled(s, t, action.attack, action.defend, attacker_losses, defender_losses))
        if self.armies[t] == 0:
            self._conquer(events)
            return
        if self.blitz_stop and self.armies[s] > self.blitz_stop and self.armies[s] >= 2:
            self.attack_dice = self.max_attack_dice(s)
            self._await_defence()
            return
        self.phase = P.ATTACK

    def _conquer(self, events: list[Event]) -> None:
        s, t, me = self.source, self.target, self.current
        loser = self.owner[t]
        moved = self.attack_dice if self.rules.occupation_minimum == "last_dice" else 1
        self.owner[t] = me
        self.territory_count[me] += 1
        self.territory_count[loser] -= 1
        self.armies[s] -= moved
        self.armies[t] = moved
        self.occupy_min = moved
        self.last_dice = self.attack_dice
        self.conquered_this_turn = True
        events.append(TerritoryConquered(t, s, me, loser, moved))
        eliminated_now = self.territory_count[loser] == 0
        if eliminated_now:
            self.eliminated[loser] = True
            self.eliminated_by[loser] = me
            taken = self.hands[loser]
            self.hands[me].extend(taken)
            self.hands[loser] = []
            events.append(PlayerEliminated(loser, me, len(taken)))
        self._check_win(events)
        if self.phase is P.OVER:
            return
        self.phase = P.OCCUPY
        self._eliminated_pending = eliminated_now

    _eliminated_pending = False

    def _do_occupy(self, action: Occupy, events: list[Event]) -> None:
        s, t = self.source, self.target
        extra = action.count - self.armies[t]
        if extra:
            self.armies[s] -= extra
            self.armies[t] += extra
        events.append(ArmiesMoved(s, t, action.count))
        self.phase = P.ATTACK
        if self._eliminated_pending:
            self._eliminated_pending = False
            # The conqueror may (or, over a hand limit, must) trade the cards taken from the beaten player at once.
            if self.valid_trades():
                rules = self.rules
                hand = len(self.hands[self.current])
                if rules.elimination_trade_hand and hand >= rules.elimination_trade_hand:
                    self.forced_trade_down_to = rules.elimination_trade_down_to
                self.phase = P.ELIMINATION_TRADE
                events.append(PhaseStarted(self.current, P.ELIMINATION_TRADE))
        self._check_win(events)

    def _do_fortify(self, action: Fortify, events: list[Event]) -> None:
        self.armies[action.source] -= action.count
        self.armies[action.target] += action.count
        events.append(ArmiesMoved(action.source, action.target, action.count))
        self.fortifies_done += 1
        self._check_win(events)
        if self.phase is not P.OVER and self.fortifies_done >= self.rules.fortify_moves:
            self._end_turn(events)

    def _do_draw(self, action: Draw, events: list[Event]) -> None:
        if not self.deck:
            # The empty deck is reshuffled from the discards; which card comes up is the chance outcome itself.
            self.deck, self.discard = self.discard, []
            events.append(DeckReshuffled(len(self.deck)))
        self.deck.remove(action.card)
        self.hands[self.current].append(action.card)
        events.append(CardDrawn(self.current, action.card))
        self._next_turn(events)

    # ------------------------------------------------------------------------------------------ turn flow

    def _end_turn(self, events: list[Event]) -> None:
        if self.conquered_this_turn and (self.deck or self.discard):
            self.phase = P.DRAW
            return
        self._next_turn(events)

    def _next_turn(self, events: list[Event]) -> None:
        seat = self.current
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if not self.eliminated[candidate]:
                break
        self._start_turn(candidate, events, previous=seat)

    def _start_turn(self, seat: int, events: list[Event], previous: int | None = None) -> None:
        first = self.first_player
        if previous is None or (seat - first) % self.players <= (previous - first) % self.players:
            self.round += 1
        self.turn += 1
        self.current = seat
        self.conquered_this_turn = False
        self.attacked_this_turn = False
        self.fortifies_done = 0
        self.source = self.target = -1
        self.pool = self.reinforcements_for(seat)
        self.phase = P.REINFORCE
        events.append(TurnStarted(seat, self.turn, self.round, self.pool))

    def _check_win(self, events: list[Event]) -> None:
        me = self.current
        if self.rules.objective == "world":
            won = self.territory_count[me] == self.map.size
            reason = "world domination"
        else:
            won = mission_complete(self, me) or len(self.live_players()) == 1
            reason = f"mission {self.missions[me]}"
        if won:
            self.winner = me
            self.over_reason = reason
            self.phase = P.OVER
            events.append(GameOver(me, reason))

    def _connected_own(self, source: int) -> set[int]:
        return reachable(self.map.neighbours, source, self.owner)  # source is the current player's

    # ------------------------------------------------------------------------------------------ snapshot

    def clone(self) -> Game:
        """An independent copy (for undo and look-ahead): the mutable containers are copied, the rest shared."""
        other = copy.copy(self)
        other.owner = self.owner[:]
        other.armies = self.armies[:]
        other.territory_count = self.territory_count[:]
        other.hands = [h[:] for h in self.hands]
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.eliminated = self.eliminated[:]
        other.eliminated_by = self.eliminated_by[:]
        other.reserve = self.reserve[:]
        other.log = self.log[:]
        return other

    def snapshot(self) -> dict[str, Any]:
        """Every field that defines the state, JSON-ready; equal states give equal snapshots."""
        return {
            "rules": self.rules.name,
            "map": self.map.name,
            "players": self.players,
            "phase": self.phase.value,
            "current": self.current,
            "first_player": self.first_player,
            "turn": self.turn,
            "round": self.round,
            "owner": list(self.owner),
            "armies": list(self.armies),
            "hands": [sorted(h) for h in self.hands],
            "deck": sorted(self.deck),
            "discard": sorted(self.discard),
            "missions": list(self.missions),
            "eliminated": list(self.eliminated),
            "eliminated_by": list(self.eliminated_by),
            "reserve": list(self.reserve),
            "pool": self.pool,
            "sets_traded": self.sets_traded,
            "conquered_this_turn": self.conquered_this_turn,
            "attacked_this_turn": self.attacked_this_turn,
            "fortifies_done": self.fortifies_done,
            "forced_trade_down_to": self.forced_trade_down_to,
            "battle": [self.source, self.target, self.attack_dice, self.defend_dice, self.blitz_stop,
                       self.occupy_min, self._eliminated_pending],
            "winner": self.winner,
            "over_reason": self.over_reason,
            "placed_total": self.placed_total,
            "lost_total": self.lost_total,
        }

    def digest(self) -> str:
        """SHA-256 of the canonical snapshot: equal for equal states."""
        blob = json.dumps(self.snapshot(), sort_keys=True, separators=(",", ":")).encode()
        return hashlib.sha256(blob).hexdigest()


_HANDLERS: dict[type, Any] = {
    Place: Game._do_place,
    Trade: Game._do_trade,
    EndPhase: Game._do_end_phase,
    Attack: Game._do_attack,
    Blitz: Game._do_blitz,
    Defend: Game._do_defend,
    Roll: Game._do_roll,
    Occupy: Game._do_occupy,
    Fortify: Game._do_fortify,
    Draw: Game._do_draw,
    Deal: None,
}

_CHECKS: dict[type, Any] = {
    Place: Game._check_place,
    Trade: Game._check_trade,
    EndPhase: Game._check_end_phase,
    Attack: Game._check_attack,
    Blitz: Game._check_attack,
    Defend: Game._check_defend,
    Roll: Game._check_roll,
    Occupy: Game._check_occupy,
    Fortify: Game._check_fortify,
    Draw: Game._check_draw,
    Deal: Game._check_deal,
}
