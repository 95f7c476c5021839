"""The game engine: one state machine referees every ruleset. Pure: no I/O, no random, no clock.

`Game(rules, map, players, deal)` starts a game from a dealt board; `legal_actions()` lists what the player to
move (or chance) may do; `apply(action)` checks legality, changes the state and returns typed events; `undo()` takes
the last applied action back (python-chess's push/pop). Dice rolls and card draws are chance actions supplied by the
caller, so the action log replays the game bit for bit. `snapshot()`/`from_snapshot()` save and rebuild a position.
"""

from __future__ import annotations

import hashlib
import json
from itertools import product
from operator import attrgetter
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
from conquista.rules.battle import DiceRule, resolver_for
from conquista.rules.choices import BonusPlacement, FortifyPath, Objective, OccupationMinimum
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
from conquista.rules.state import (
    CHANCE,
    FIELDS,
    SCALAR_FIELDS,
    TERMINAL,
    Battle,
    Kind,
    Mover,
    TurnState,
    decode_field,
    encode_field,
)

__all__ = ["CHANCE", "TERMINAL", "Battle", "Game", "Mover", "TurnState"]

_PLACING = (P.SETUP, P.REINFORCE, P.ELIMINATION_TRADE)
_save_scalars = attrgetter(*SCALAR_FIELDS)


def _sorted_outcomes(n: int) -> list[tuple[int, ...]]:
    return sorted({tuple(sorted(p, reverse=True)) for p in product(range(1, 7), repeat=n)})


# Distinct roll outcomes (order of dice never changes a battle), built once: legal_actions() at a roll lists these.
_ROLL_OUTCOMES: dict[tuple[int, int], tuple[Roll, ...]] = {}


def _roll_outcomes(attack: int, defend: int) -> tuple[Roll, ...]:
    key = (attack, defend)
    if key not in _ROLL_OUTCOMES:
        _ROLL_OUTCOMES[key] = tuple(Roll(a, d) for a in _sorted_outcomes(attack) for d in _sorted_outcomes(defend))
    return _ROLL_OUTCOMES[key]


def _is_index(value: object, size: int) -> bool:
    """A whole number in 0..size-1 (a bool is not one, whatever it equals)."""
    return value.__class__ is int and 0 <= value < size


class Game:
    """The state of one game. Mutable; `replay()` of its log rebuilds an equal one."""

    __slots__ = (*(name for name, _ in FIELDS), "rules", "map", "players", "log", "_saved", "_records", "_patches",
                 "_marks",
                 "_resolve", "_size", "_attacker_max", "_defender_max", "_automatic_defence")
    # The state (state.FIELDS lists the same names, with how each is copied and saved).
    phase: P
    current: int
    first_player: int
    turn: int
    round: int
    owner: list[int]
    armies: list[int]
    territory_count: list[int]
    hands: list[list[int]]
    deck: list[int]
    discard: list[int]
    missions: tuple[int, ...]
    eliminated: list[bool]
    eliminated_by: list[int | None]
    reserve: list[int]
    pool: int
    sets_traded: int
    turn_state: TurnState
    battle: Battle | None
    winner: int | None
    over_reason: str
    placed_total: int
    lost_total: int

    def __init__(self, rules: Ruleset, game_map: GameMap, players: int, deal: Deal) -> None:
        rules.check_players(players)
        if rules.objective is Objective.MISSIONS:
            check_map_supports(game_map, rules.missions)
        self._setup(rules, game_map, players)
        n = game_map.size
        self.owner = [-1] * n
        self.armies = [0] * n
        self.territory_count = [0] * players
        self.hands = [[] for _ in range(players)]
        self.deck = list(range(n + rules.deck_jollies))
        self.discard = []
        self.missions = ()
        self.eliminated = [False] * players
        self.eliminated_by = [None] * players
        self.reserve = [0] * players          # armies still to place during the initial placement
        self.phase = P.SETUP
        self.first_player = 0
        self.current = 0
        self.turn = 0
        self.round = 0
        self.pool = 0                          # armies to place now (setup batch, reinforcements, trade armies)
        self.sets_traded = 0
        self.turn_state = TurnState()
        self.battle = None
        self.winner = None
        self.over_reason = ""
        self.placed_total = 0                  # every army ever put on the board ...
        self.lost_total = 0                    # ... minus every army lost equals the board total
        self._deal(deal)
        self.log.append(deal)

    def _setup(self, rules: Ruleset, game_map: GameMap, players: int) -> None:
        """What is not state: the rules, the map, the log and the undo history, and caches of the rules."""
        self.rules = rules
        self.map = game_map
        self.players = players
        self._size = game_map.size
        self.log: list[Action] = []
        # The undo history, kept flat so that an action adds one record and no containers: per applied action the
        # replaced fields (`_saved`) and where its patches start (`_marks`); a patch is three items of `_patches`,
        # (list, index, old value), or (list, None, old contents) for a list changed other than by index.
        self._saved: list[tuple[Any, ...]] = []
        self._records: list[Any] = []  # phase, battle, turn_state per applied action, flat
        self._marks: list[int] = []
        self._patches: list[Any] = []
        self._resolve = resolver_for(DiceRule.of(rules))
        self._attacker_max = rules.attacker_dice_max
        self._defender_max = rules.defender_dice_max
        self._automatic_defence = rules.automatic_defence

    # ----------------------------------------------------------------------------------------------- queries

    @property
    def to_move(self) -> int | Mover:
        """The seat that must act now, or CHANCE when dice or a card draw are awaited, or TERMINAL when over."""
        phase = self.phase
        if phase is P.ROLL or phase is P.DRAW:
            return CHANCE
        if phase is P.DEFEND:
            assert self.battle is not None
            return self.owner[self.battle.target]
        if phase is P.OVER:
            return TERMINAL
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
        """After a conquest: the fewest and the most armies that may end up in the conquered territory."""
        battle = self.battle
        if self.phase is not P.OCCUPY or battle is None or battle.occupy_min is None:
            raise IllegalActionError("nothing was conquered: there is no move-in to choose", phase=self.phase,
                                     player=self.current, reason="nothing was conquered")
        return battle.occupy_min, self.armies[battle.source] + self.armies[battle.target] - 1

    def max_attack_dice(self, source: int) -> int:
        return min(self._attacker_max, self.armies[source] - 1)

    def max_defend_dice(self, target: int) -> int:
        return min(self._defender_max, self.armies[target])

    def must_trade(self) -> bool:
        """True while the player to move may not end the phase because of a hand limit."""
        hand = len(self.hands[self.current])
        if self.phase is P.REINFORCE:
            limit = self.rules.forced_trade_hand
            return bool(limit) and hand >= limit and bool(self.valid_trades())
        if self.phase is P.ELIMINATION_TRADE:
            down_to = self.turn_state.forced_trade_down_to
            return down_to is not None and hand > down_to and bool(self.valid_trades())
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
        if self.rules.fortify_path is FortifyPath.ADJACENT:
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
        battle = self.battle
        if phase is P.ROLL:
            assert battle is not None
            return list(_roll_outcomes(battle.attack_dice, battle.defend_dice))
        if phase is P.DRAW:
            pile = self.deck if self.deck else self.discard
            return [Draw(c) for c in sorted(pile)]
        if phase is P.DEFEND:
            assert battle is not None
            return [Defend(d) for d in range(1, self.max_defend_dice(battle.target) + 1)]
        if phase is P.OCCUPY:
            low, high = self.occupy_range()
            return [Occupy(c) for c in range(low, high + 1)]
        own = [t for t in range(self._size) if self.owner[t] == me]
        if phase in _PLACING:
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
                targets = (self.map.neighbours[s] if self.rules.fortify_path is FortifyPath.ADJACENT
                           else sorted(self._connected_own(s)))
                for t in targets:
                    if t != s and self.owner[t] == me:
                        out.extend(Fortify(s, t, c) for c in range(1, self.armies[s]))
            out.append(EndPhase())
            return out
        raise AssertionError(f"no legal actions defined for phase {phase}")  # every phase is handled above

    def check(self, action: Action) -> None:
        """Raise IllegalActionError, with its reason, if `action` is not legal now; change nothing."""
        self._dispatch(action, None)

    def is_legal(self, action: Action) -> bool:
        try:
            self._dispatch(action, None)
        except IllegalActionError:
            return False
        return True

    # ------------------------------------------------------------------------------------------ apply, undo

    def apply(self, action: Action) -> list[Event]:
        """Check `action` and apply it. Raises IllegalActionError (state unchanged) if it is not legal now."""
        saved = _save_scalars(self)
        records = (self.phase, self.battle, self.turn_state)
        mark = len(self._patches)
        events: list[Event] = []
        self._dispatch(action, events)
        self._saved.append(saved)
        self._records += records
        self._marks.append(mark)
        self.log.append(action)
        return events

    def can_undo(self) -> bool:
        return bool(self._marks)

    def undo(self) -> Action:
        """Take back the last applied action exactly and return it. Any action can be undone (the referee decides
        which ones it offers); a game made by `from_snapshot()` or `clone()` cannot go back before that moment."""
        if not self._marks:
            raise IllegalActionError("nothing to undo", phase=self.phase, player=self.current,
                                     reason="nothing to undo")
        patches, mark = self._patches, self._marks.pop()
        for at in range(len(patches) - 3, mark - 1, -3):
            container, index, old = patches[at], patches[at + 1], patches[at + 2]
            if index is None:
                container[:] = old
            else:
                container[index] = old
        del patches[mark:]
        for name, value in zip(SCALAR_FIELDS, self._saved.pop(), strict=True):
            setattr(self, name, value)
        records = self._records
        self.phase, self.battle, self.turn_state = records[-3], records[-2], records[-1]
        del records[-3:]
        return self.log.pop()

    def _set(self, container: list[Any], index: int, value: Any) -> None:
        self._patches += (container, index, container[index])
        container[index] = value

    def _keep(self, container: list[Any]) -> None:
        """Remember the whole list before it is changed other than by index (append, remove)."""
        self._patches += (container, None, container[:])

    def _fail(self, action: object, reason: str) -> IllegalActionError:
        text = self.describe(action)  # type: ignore[arg-type]
        return IllegalActionError(f"{text} is illegal in phase {self.phase.value} (player {self.current + 1}): "
                                  f"{reason}", action=action, phase=self.phase, player=self.current, reason=reason)

    def _dispatch(self, action: Action, events: list[Event] | None) -> None:
        """Check `action` and, unless `events` is None (a check only), apply it: each step validates everything
        before it changes anything, so a refused action leaves the state as it was."""
        if self.phase is P.OVER:
            raise self._fail(action, "the game is over")
        match action:
            case Roll():
                self._roll(action, events)
            case Place():
                self._place(action, events)
            case Attack() | Blitz():
                self._attack(action, events)
            case Occupy():
                self._occupy(action, events)
            case EndPhase():
                self._end_phase(action, events)
            case Fortify():
                self._fortify(action, events)
            case Trade():
                self._trade(action, events)
            case Defend():
                self._defend(action, events)
            case Draw():
                self._draw(action, events)
            case Deal():
                raise self._fail(action, "a game is dealt once, when it is created")
            case _:
                raise IllegalActionError(f"{action!r} is not a game action", action=action, phase=self.phase,
                                         player=self.current, reason="not a game action")

    def describe(self, action: Action) -> str:
        """A human name for an action, with territory ids instead of indices (any field value is named)."""
        tid = self._tid
        match action:
            case Place(t, c):
                return f"place {c!r} on {tid(t)}"
            case Attack(s, t, d):
                return f"attack {tid(s)} → {tid(t)} with {d!r} dice"
            case Blitz(s, t, k):
                return f"blitz {tid(s)} → {tid(t)} stopping at {k!r}"
            case Fortify(s, t, c):
                return f"fortify {c!r} from {tid(s)} to {tid(t)}"
            case Trade(cs):
                names = ", ".join(self._card_name(c) for c in cs) if isinstance(cs, tuple) else repr(cs)
                return "trade cards " + names
            case Occupy(c):
                return f"occupy with {c!r}"
            case Defend(d):
                return f"defend with {d!r} dice"
            case Roll(a, d, _):
                return f"roll {_dice_text(a)} vs {_dice_text(d)}"
            case Draw(c):
                return f"draw card {self._card_name(c)}"
            case EndPhase():
                return f"end {self.phase.value}"
            case Deal():
                return "deal"

    def _tid(self, t: object) -> str:
        return self.map.id(t) if _is_index(t, self._size) else f"#{t!r}"  # type: ignore[arg-type]

    def _card_name(self, card: object) -> str:
        if not _is_index(card, self._size + self.rules.deck_jollies):
            return f"#{card!r}"
        assert isinstance(card, int)
        return self.map.id(card) if card < self._size else f"jolly#{card - self._size + 1}"

    def _territory(self, action: Action, t: object) -> int:
        if not _is_index(t, self._size):
            raise self._fail(action, f"{t!r} is not a territory of map {self.map.name!r}")
        return t  # type: ignore[return-value]

    def _count(self, action: Action, value: object, what: str) -> int:
        if value.__class__ is not int:
            raise self._fail(action, f"{what} must be a whole number, got {value!r}")
        return value

    # ------------------------------------------------------------------------------------------ the actions

    def _place(self, action: Place, events: list[Event] | None) -> None:
        if self.phase not in _PLACING:
            raise self._fail(action, "armies are placed only during setup or reinforcement")
        t = self._territory(action, action.territory)
        count = self._count(action, action.count, "the count")
        if self.owner[t] != self.current:
            raise self._fail(action, f"{self._tid(t)} is not yours")
        if not 1 <= count <= self.pool:
            raise self._fail(action, f"you have {self.pool} armies to place")
        if events is None:
            return
        self._set(self.armies, t, self.armies[t] + count)
        self.placed_total += count
        self.pool -= count
        events.append(ArmiesPlaced(self.current, t, count))
        if self.phase is P.SETUP:
            if self.pool == 0:
                nxt = self._next_with_reserve(self.current)
                if nxt is None:
                    self._start_turn(self.first_player, events)
                else:
                    self.current = nxt
                    self._start_setup_batch()
                    events.append(PhaseStarted(nxt, P.SETUP))
            return
        self._check_win(events)

    def _trade(self, action: Trade, events: list[Event] | None) -> None:
        if self.phase is not P.REINFORCE and self.phase is not P.ELIMINATION_TRADE:
            raise self._fail(action, "cards are traded only before the first attack of the turn")
        me = self.current
        hand = self.hands[me]
        cards = action.cards
        if (cards.__class__ is not tuple or len(cards) != 3 or any(c.__class__ is not int for c in cards)
                or len(set(cards)) != 3 or any(c not in hand for c in cards)):
            raise self._fail(action, "a trade is three different cards from your hand")
        kind = cardlib.set_kind(tuple(cardlib.card_symbol(self.map, c) for c in cards))  # type: ignore[arg-type]
        if kind is None or kind not in self.rules.valid_sets:
            raise self._fail(action, f"not a set in {self.rules.name}")
        if events is None:
            return
        armies = self.rules.set_value(kind, self.sets_traded)
        self.sets_traded += 1
        bonus_cards = self._bonus_cards(cards)
        self._keep(hand)
        self._keep(self.discard)
        for c in cards:
            hand.remove(c)
            self.discard.append(c)
        bonus = self.rules.territory_bonus
        on_territory = self.rules.territory_bonus_placement is BonusPlacement.ON_TERRITORY
        pool_bonus = 0 if on_territory else bonus * len(bonus_cards)
        events.append(CardsTraded(me, cards, kind, armies, pool_bonus))
        if on_territory:
            for c in bonus_cards:
                self._set(self.armies, c, self.armies[c] + bonus)
                self.placed_total += bonus
                events.append(ArmiesPlaced(me, c, bonus))
        armies += pool_bonus
        self.pool += armies
        self._check_win(events)

    def _end_phase(self, action: EndPhase, events: list[Event] | None) -> None:
        phase = self.phase
        if phase is P.REINFORCE or phase is P.ELIMINATION_TRADE:
            if self.pool:
                raise self._fail(action, f"{self.pool} armies are still to place")
            if self.must_trade():
                raise self._fail(action, f"you hold {len(self.hands[self.current])} cards and must trade")
        elif phase is not P.ATTACK and phase is not P.FORTIFY:
            raise self._fail(action, "this phase ends by itself")
        if events is None:
            return
        if phase is P.REINFORCE:
            self.phase = P.ATTACK
            events.append(PhaseStarted(self.current, P.ATTACK))
        elif phase is P.ELIMINATION_TRADE:
            self.turn_state = self.turn_state._replace(forced_trade_down_to=None)
            self.phase = P.ATTACK
            events.append(PhaseStarted(self.current, P.ATTACK))
        elif phase is P.ATTACK:
            self.phase = P.FORTIFY
            events.append(PhaseStarted(self.current, P.FORTIFY))
        else:
            self._end_turn(events)

    def _attack(self, action: Attack | Blitz, events: list[Event] | None) -> None:
        if self.phase is not P.ATTACK:
            raise self._fail(action, "attacks happen in the attack phase")
        blitz = isinstance(action, Blitz)
        if blitz and not self.rules.blitz:
            raise self._fail(action, f"{self.rules.name} has no blitz")
        s = self._territory(action, action.source)
        t = self._territory(action, action.target)
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
        stop: int | None = None
        if isinstance(action, Attack):
            dice = self._count(action, action.dice, "dice")
            if not 1 <= dice <= self.max_attack_dice(s):
                raise self._fail(action, f"attack with 1 to {self.max_attack_dice(s)} dice")
        else:
            stop = self._count(action, action.stop_at, "the stop level")
            if not 1 <= stop < self.armies[s]:
                raise self._fail(action, f"the stop level must be between 1 and {self.armies[s] - 1}")
            dice = self.max_attack_dice(s)
        if events is None:
            return
        if not self.turn_state.attacked:
            turn = self.turn_state
            self.turn_state = TurnState(turn.conquered, True, turn.fortifies_done, turn.forced_trade_down_to)
        self._await_defence(Battle(s, t, dice, 0, stop))

    def _await_defence(self, battle: Battle) -> None:
        if self._automatic_defence:
            defend = self.max_defend_dice(battle.target)
            self.battle = battle if battle.defend_dice == defend else Battle(
                battle.source, battle.target, battle.attack_dice, defend, battle.stop_at)
            self.phase = P.ROLL
        else:
            self.battle = battle
            self.phase = P.DEFEND

    def _defend(self, action: Defend, events: list[Event] | None) -> None:
        battle = self.battle
        if self.phase is not P.DEFEND or battle is None:
            raise self._fail(action, "no defence is being chosen")
        dice = self._count(action, action.dice, "dice")
        if not 1 <= dice <= self.max_defend_dice(battle.target):
            raise self._fail(action, f"defend with 1 to {self.max_defend_dice(battle.target)} dice")
        if events is None:
            return
        self.battle = battle._replace(defend_dice=dice)
        self.phase = P.ROLL

    def _roll(self, action: Roll, events: list[Event] | None) -> None:
        # The hot path of every simulation: checks inline, losses from the resolver's table, no copies.
        battle = self.battle
        if self.phase is not P.ROLL or battle is None:
            raise self._fail(action, "no battle roll is awaited")
        attack, defend = action.attack, action.defend
        if (attack.__class__ is not tuple or defend.__class__ is not tuple
                or len(attack) != battle.attack_dice or len(defend) != battle.defend_dice):
            raise self._fail(action, f"this roll is {battle.attack_dice} attack and {battle.defend_dice} "
                             f"defence dice")
        for die in attack:
            if die.__class__ is not int or not 0 < die < 7:
                raise self._fail(action, f"a die shows 1 to 6, not {die!r}")
        for die in defend:
            if die.__class__ is not int or not 0 < die < 7:
                raise self._fail(action, f"a die shows 1 to 6, not {die!r}")
        if action.source.__class__ is not str:
            raise self._fail(action, f"the dice source is a name, not {action.source!r}")
        if events is None:
            return
        attacker_losses, defender_losses = self._resolve(attack, defend)
        s, t = battle.source, battle.target
        armies = self.armies
        before_s, before_t = armies[s], armies[t]
        self._patches += (armies, s, before_s, armies, t, before_t)
        left = armies[s] = before_s - attacker_losses
        right = armies[t] = before_t - defender_losses
        self.lost_total += attacker_losses + defender_losses
        events.append(BattleRolled(s, t, attack, defend, attacker_losses, defender_losses))
        if not right:
            self._conquer(battle, events)
            return
        stop = battle.stop_at
        if stop is not None and left > stop and left >= 2:
            dice = left - 1 if left - 1 < self._attacker_max else self._attacker_max
            if self._automatic_defence:
                defence = right if right < self._defender_max else self._defender_max
                if dice != battle.attack_dice or defence != battle.defend_dice:
                    self.battle = Battle(s, t, dice, defence, stop)
                return  # the blitz rolls on: still a chance step
            self._await_defence(battle if dice == battle.attack_dice else battle._replace(attack_dice=dice))
            return
        self.battle = None
        self.phase = P.ATTACK

    def _conquer(self, battle: Battle, events: list[Event]) -> None:
        s, t, me = battle.source, battle.target, self.current
        loser = self.owner[t]
        moved = battle.attack_dice if self.rules.occupation_minimum is OccupationMinimum.LAST_DICE else 1
        self._set(self.owner, t, me)
        counts = self.territory_count
        self._set(counts, me, counts[me] + 1)
        self._set(counts, loser, counts[loser] - 1)
        self._set(self.armies, s, self.armies[s] - moved)
        self._set(self.armies, t, moved)
        if not self.turn_state.conquered:
            turn = self.turn_state
            self.turn_state = TurnState(True, turn.attacked, turn.fortifies_done, turn.forced_trade_down_to)
        events.append(TerritoryConquered(t, s, me, loser, moved))
        eliminated_now = counts[loser] == 0
        if eliminated_now:
            self._set(self.eliminated, loser, True)
            self._set(self.eliminated_by, loser, me)
            taken = self.hands[loser]
            self._keep(taken)
            self._keep(self.hands[me])
            self.hands[me].extend(taken)
            events.append(PlayerEliminated(loser, me, len(taken)))
            taken.clear()
        self.battle = Battle(s, t, battle.attack_dice, battle.defend_dice, battle.stop_at, battle.attack_dice, moved,
                             eliminated_now)
        self._check_win(events)
        if self.phase is not P.OVER:
            self.phase = P.OCCUPY

    def _occupy(self, action: Occupy, events: list[Event] | None) -> None:
        if self.phase is not P.OCCUPY:
            raise self._fail(action, "nothing was conquered")
        count = self._count(action, action.count, "the count")
        low, high = self.occupy_range()
        battle = self.battle
        assert battle is not None
        if not low <= count <= high:
            raise self._fail(action, f"move {low} to {high} armies into {self._tid(battle.target)}")
        if events is None:
            return
        s, t = battle.source, battle.target
        extra = count - self.armies[t]
        if extra:
            self._set(self.armies, s, self.armies[s] - extra)
            self._set(self.armies, t, self.armies[t] + extra)
        events.append(ArmiesMoved(s, t, count))
        self.phase = P.ATTACK
        self.battle = None
        # The conqueror may (or, over a hand limit, must) trade the cards taken from the beaten player at once.
        if battle.elimination_pending and self.valid_trades():
            rules = self.rules
            hand = len(self.hands[self.current])
            if rules.elimination_trade_hand and hand >= rules.elimination_trade_hand:
                self.turn_state = self.turn_state._replace(forced_trade_down_to=rules.elimination_trade_down_to)
            self.phase = P.ELIMINATION_TRADE
            events.append(PhaseStarted(self.current, P.ELIMINATION_TRADE))
        self._check_win(events)

    def _fortify(self, action: Fortify, events: list[Event] | None) -> None:
        if self.phase is not P.FORTIFY:
            raise self._fail(action, "armies are moved in the fortify phase")
        s = self._territory(action, action.source)
        t = self._territory(action, action.target)
        count = self._count(action, action.count, "the count")
        if not self.fortify_allowed(s, t):
            how = ("adjacent" if self.rules.fortify_path is FortifyPath.ADJACENT
                   else "connected through your territories")
            raise self._fail(action, f"move between two of your territories that are {how}, "
                             f"from one with at least 2 armies")
        if not 1 <= count < self.armies[s]:
            raise self._fail(action, f"move 1 to {self.armies[s] - 1} armies, leaving one behind")
        if events is None:
            return
        self._set(self.armies, s, self.armies[s] - count)
        self._set(self.armies, t, self.armies[t] + count)
        events.append(ArmiesMoved(s, t, count))
        done = self.turn_state.fortifies_done + 1
        self.turn_state = self.turn_state._replace(fortifies_done=done)
        self._check_win(events)
        if not self.over and done >= self.rules.fortify_moves:
            self._end_turn(events)

    def _draw(self, action: Draw, events: list[Event] | None) -> None:
        if self.phase is not P.DRAW:
            raise self._fail(action, "no card draw is awaited")
        pile = self.deck if self.deck else self.discard
        card = action.card
        if card.__class__ is not int or card not in pile:
            raise self._fail(action, f"card {card!r} is not in the deck")
        if events is None:
            return
        deck, discard = self.deck, self.discard
        self._keep(deck)
        if not deck:
            # The empty deck is reshuffled from the discards; which card comes up is the chance outcome itself.
            self._keep(discard)
            deck[:] = discard
            discard.clear()
            events.append(DeckReshuffled(len(deck)))
        deck.remove(card)
        self._keep(self.hands[self.current])
        self.hands[self.current].append(card)
        events.append(CardDrawn(self.current, card))
        self._next_turn(events)

    # ------------------------------------------------------------------------------------------ cards

    def _set_kind(self, cards: tuple[int, ...]) -> str:
        kind = cardlib.set_kind(tuple(cardlib.card_symbol(self.map, c) for c in cards))  # type: ignore[arg-type]
        assert kind is not None  # checked before a trade
        return kind

    def _bonus_cards(self, cards: tuple[int, ...]) -> list[int]:
        """The traded cards that earn the territory bonus: their territory is the trader's."""
        me = self.current
        matching = [c for c in cards if c < self._size and self.owner[c] == me]
        limit = self.rules.territory_bonus_per_trade
        return matching[:limit] if limit else matching

    def _territory_bonus_total(self, cards: tuple[int, ...]) -> int:
        return self.rules.territory_bonus * len(self._bonus_cards(cards))

    # ----------------------------------------------------------------------------------------------- deal

    def _deal(self, deal: Deal) -> None:
        n = self._size
        order = deal.territory_order
        if sorted(order) != list(range(n)):
            raise RulesetError(f"the deal must list each of the {n} territories once")
        if not 0 <= deal.first_player < self.players:
            raise RulesetError(f"first player {deal.first_player} is not a seat of {self.players}")
        if self.rules.objective is Objective.MISSIONS:
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
        first_to_place = self._next_with_reserve(deal.first_player, include_self=True)
        if first_to_place is not None:
            self.current = first_to_place
            self._start_setup_batch()
        else:
            self._start_turn(deal.first_player, [])

    def _next_with_reserve(self, seat: int, include_self: bool = False) -> int | None:
        for step in range(0 if include_self else 1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.reserve[candidate]:
                return candidate
        return None

    def _start_setup_batch(self) -> None:
        batch = self.rules.initial_placement_batch
        reserve = self.reserve[self.current]
        self.pool = min(batch, reserve) if batch else reserve
        self._set(self.reserve, self.current, reserve - self.pool)
        self.phase = P.SETUP

    # ------------------------------------------------------------------------------------------ turn flow

    def _end_turn(self, events: list[Event]) -> None:
        if self.turn_state.conquered and (self.deck or self.discard):
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
        self.turn_state = TurnState()
        self.battle = None
        self.pool = self.reinforcements_for(seat)
        self.phase = P.REINFORCE
        events.append(TurnStarted(seat, self.turn, self.round, self.pool))

    def _check_win(self, events: list[Event]) -> None:
        me = self.current
        if self.rules.objective is Objective.WORLD:
            won = self.territory_count[me] == self._size
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
        """An independent copy (for look-ahead): lists are copied, immutable values and records shared. The clone
        keeps the log but not the undo history: it cannot undo past the moment it was made."""
        other = Game.__new__(Game)
        other._setup(self.rules, self.map, self.players)
        for name, kind in FIELDS:
            value = getattr(self, name)
            if kind is Kind.LIST:
                value = value[:]
            elif kind is Kind.LISTS:
                value = [v[:] for v in value]
            setattr(other, name, value)
        other.log = self.log[:]
        return other

    def snapshot(self) -> dict[str, Any]:
        """Every field that defines the state, JSON-ready, in the engine's own order (hands, deck and discard as
        they lie); `Game.from_snapshot()` rebuilds an equal game from it."""
        out: dict[str, Any] = {"rules": self.rules.name, "map": self.map.name, "players": self.players}
        for name, kind in FIELDS:
            out[name] = encode_field(kind, getattr(self, name))
        return out

    @classmethod
    def from_snapshot(cls, data: dict[str, Any], rules: Ruleset, game_map: GameMap) -> Game:
        """The game a `snapshot()` describes, under `rules` and on `game_map` (the snapshot names both). Its log and
        undo history start empty."""
        expected = {"rules", "map", "players", *(name for name, _ in FIELDS)}
        if set(data) != expected:
            wrong = sorted(set(data) ^ expected)
            raise RulesetError(f"a game snapshot has exactly the engine's fields; these differ: {', '.join(wrong)}")
        if data["rules"] != rules.name or data["map"] != game_map.name:
            raise RulesetError(f"the snapshot is of ruleset {data['rules']!r} on map {data['map']!r}, "
                               f"not {rules.name!r} on {game_map.name!r}")
        game = cls.__new__(cls)
        game._setup(rules, game_map, int(data["players"]))
        for name, kind in FIELDS:
            setattr(game, name, decode_field(kind, data[name]))
        return game

    def _canonical(self) -> dict[str, Any]:
        # The digest's form, unchanged since the first golden transcripts: sorted cards, -1 for "none", the
        # battle as a list. (The snapshot is the engine's own form; this one only feeds the digest.)
        battle = self.battle
        if battle is None:
            battle_list: list[Any] = [-1, -1, 0, 0, 0, 0, False]
        else:
            battle_list = [battle.source, battle.target, battle.attack_dice, battle.defend_dice,
                           battle.stop_at or 0, battle.occupy_min or 0,
                           self.phase is P.OCCUPY and battle.elimination_pending]
        turn = self.turn_state
        return {
            "rules": self.rules.name, "map": self.map.name, "players": self.players,
            "phase": self.phase.value, "current": self.current, "first_player": self.first_player,
            "turn": self.turn, "round": self.round, "owner": list(self.owner), "armies": list(self.armies),
            "hands": [sorted(h) for h in self.hands], "deck": sorted(self.deck), "discard": sorted(self.discard),
            "missions": list(self.missions), "eliminated": list(self.eliminated),
            "eliminated_by": [-1 if b is None else b for b in self.eliminated_by], "reserve": list(self.reserve),
            "pool": self.pool, "sets_traded": self.sets_traded, "conquered_this_turn": turn.conquered,
            "attacked_this_turn": turn.attacked, "fortifies_done": turn.fortifies_done,
            "forced_trade_down_to": -1 if turn.forced_trade_down_to is None else turn.forced_trade_down_to,
            "battle": battle_list, "winner": -1 if self.winner is None else self.winner,
            "over_reason": self.over_reason, "placed_total": self.placed_total, "lost_total": self.lost_total,
        }

    def digest(self) -> str:
        """SHA-256 of the canonical state: equal for equal states (the order cards lie in does not count)."""
        blob = json.dumps(self._canonical(), sort_keys=True, separators=(",", ":")).encode()
        return hashlib.sha256(blob).hexdigest()


def _dice_text(dice: object) -> str:
    return str(list(dice)) if isinstance(dice, tuple) else repr(dice)
