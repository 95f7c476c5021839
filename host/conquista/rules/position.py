"""The state of a game and every question about it: the fields, the queries, and the primitives the rules change the
state with (each change is recorded, so that `Game.undo` takes it back). Pure: no I/O, no random, no clock.

python-chess's split: `Position` is its `BaseBoard` (the pieces and what can be read off them), `Game`
(rules/engine.py) its `Board` (the rules and the move stack: check, apply, undo, save). The rules themselves are
functions of a position, one module per concept: the turn (rules/turns.py), fights (rules/combat.py), the 1954
distributions (rules/income.py), the tournament ending (rules/tournament.py) and the table's features
(rules/table_features.py). A ruleset's features step into the turn's flow only at the hooks of `TurnFeature`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from conquista.errors import IllegalActionError
from conquista.rules import cards as cardlib
from conquista.rules import power_cards
from conquista.rules.actions import (
    Attack,
    Blitz,
    ClockOut,
    ClosingRoll,
    Deal,
    Defend,
    Draw,
    EndPhase,
    Fortify,
    Leave,
    Occupy,
    Place,
    Roll,
    TimeOut,
    Trade,
)
from conquista.rules.battle import DiceRule, RollResolver, resolver_for
from conquista.rules.choices import CardDeck, EliminationTrade, FortifyPath, Rounding
from conquista.rules.events import (
    PHASE_CLOSING_ROLL,
    PHASE_DEFEND,
    PHASE_DRAW,
    PHASE_ELIMINATION_TRADE,
    PHASE_NEUTRAL_ATTACK,
    PHASE_NEUTRAL_REINFORCE,
    PHASE_OCCUPY,
    PHASE_OVER,
    PHASE_REINFORCE,
    PHASE_ROLL,
    Event,
)
from conquista.rules.events import Phase as P
from conquista.rules.fleet_battle import battle_resolvers
from conquista.rules.graph import reachable
from conquista.rules.mapdata import GameMap
from conquista.rules.rulesets import Ruleset
from conquista.rules.state import CHANCE, FIELDS, TERMINAL, Battle, Mover, TurnState

# The ruleset choices the hot steps test, bound once (as rules/events.py binds the phases): a member read
# from its Enum class costs a lookup through the class each time.
_POWER: Final = CardDeck.POWER
_TAKEN: Final = EliminationTrade.TAKEN
_ADJACENT: Final = FortifyPath.ADJACENT
_UP: Final = Rounding.UP

PLACING = (P.SETUP, P.REINFORCE, P.ELIMINATION_TRADE)


def is_index(value: object, size: int) -> bool:
    """A whole number in 0..size-1 (a bool is not one, whatever it equals)."""
    return value.__class__ is int and 0 <= value < size


def _dice_text(dice: object) -> str:
    return str(list(dice)) if isinstance(dice, tuple) else repr(dice)


def not_a_whole_number(what: str, value: object) -> str:
    """The refusal of an action field that must be a whole number."""
    return f"{what} must be a whole number, got {value!r}"


class TurnFeature:
    """A feature of a ruleset that steps into the turn's flow (rules/turns.py). The flow calls every feature the
    ruleset selected (`Game` picks them: rules/engine.py) at these points and nowhere else; each hook's default
    leaves the flow as it is."""

    def passes_turn(self, game: Position, events: list[Event]) -> bool:
        """The current player's turn is over and nothing is left to draw: True when the feature passes the turn on
        itself (or holds it, for a roll), so the next seat's turn does not start."""
        return False

    def neutral_reinforcement_announced(self, game: Position, events: list[Event]) -> None:
        """The neutral army's reinforcements were just announced (the phase is NEUTRAL_REINFORCE)."""

    def skips_neutral_attack(self, game: Position) -> bool:
        """True when the neutral army's attacks are skipped this turn (the current player attacks at once)."""
        return False


class Position:
    """A game's state, its queries and its recorded changes."""

    # Every field of the state (state.FIELDS), then what is not state; `Game` adds its move stack.
    __slots__ = (*(name for name, _ in FIELDS), "rules", "map", "players", "neutral", "features", "changes",
                 "resolve", "size", "attacker_max", "defender_max", "automatic_defence", "ask_on_choice",
                 "fleets_on", "one_move", "_coastal", "fleet_resolvers")
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
    left: list[bool]
    reserve: list[int]
    pool: int
    sets_traded: int
    turn_state: TurnState
    battle: Battle | None
    winner: int | None
    over_reason: str
    placed_total: int
    lost_total: int
    undealt: list[int]
    draws_due: int
    fleets: list[int]
    clock_out_round: int
    turn_conquests: int
    tiebreak: tuple[int, ...]
    tiebreak_played: int
    # What is not state (set by `set_rules`): the rules, the map, the features the ruleset selected, the record of
    # changes, and the ruleset's parameters the hot steps read, kept as plain attributes.
    rules: Ruleset
    map: GameMap
    players: int
    # The neutral army's owner value (an index past the last seat, counted in `territory_count`), or None.
    neutral: int | None
    features: tuple[TurnFeature, ...]
    # The changes made, flat so that a change adds no container: three items each, (list, index, old value), or
    # (list, None, old contents) for a list changed other than by index. The change primitives below append to it
    # (and the two hottest steps, a roll and a conquest, append theirs themselves); `rollback` takes them back.
    changes: list[Any]
    resolve: RollResolver
    size: int
    attacker_max: int
    defender_max: int
    automatic_defence: bool
    ask_on_choice: bool
    fleets_on: bool
    one_move: bool
    _coastal: frozenset[int]
    fleet_resolvers: dict[tuple[bool, bool], RollResolver]

    def set_rules(self, rules: Ruleset, game_map: GameMap, players: int, features: tuple[TurnFeature, ...]) -> None:
        """What is not state: the rules, the map, the features, an empty record of changes, the rules' parameters."""
        self.rules = rules
        self.map = game_map
        self.players = players
        self.neutral = players if rules.neutral_army else None
        self.features = features
        self.size = game_map.size
        self.changes = []
        self.resolve = resolver_for(DiceRule.of(rules))
        self.attacker_max = rules.attacker_dice_max
        self.defender_max = rules.defender_dice_max
        self.automatic_defence = rules.automatic_defence
        self.ask_on_choice = rules.defence_asked_only_on_choice
        self.fleets_on = rules.fleets
        self.one_move = rules.one_move_per_unit
        self._coastal = frozenset(t for link in game_map.sea_links for t in link)
        self.fleet_resolvers = battle_resolvers(rules) if rules.fleets else {}

    # ----------------------------------------------------------------------------------------------- queries

    @property
    def to_move(self) -> int | Mover:
        """The seat that must act now, or CHANCE when dice or a card draw are awaited, or TERMINAL when over. For the
        neutral army its acting seat is the current player's opponent."""
        phase = self.phase
        if phase is PHASE_ROLL or phase is PHASE_DRAW or phase is PHASE_CLOSING_ROLL:
            return CHANCE
        if phase is PHASE_DEFEND:
            assert self.battle is not None
            return self.seat_for(self.owner[self.battle.target])
        if phase is PHASE_OVER:
            return TERMINAL
        if self.neutral is not None and self.acting_owner() == self.neutral:
            return self.opponent()
        return self.current

    def seat_for(self, owner: int) -> int:
        """The seat that acts for `owner`: the owner itself, or for the neutral army the current player's opponent."""
        return self.opponent() if owner == self.neutral else owner

    def opponent(self) -> int:
        """The current player's opponent in a two-player game (the seat that acts for the neutral army)."""
        return 1 - self.current

    def acting_owner(self) -> int:
        """Whose armies the player to move commands: the neutral army's during its reinforcement and its attacks
        (and their move-in), the defender's while the defence is chosen, else the current player's."""
        phase = self.phase
        if phase is PHASE_NEUTRAL_REINFORCE or phase is PHASE_NEUTRAL_ATTACK:
            return self.neutral  # type: ignore[return-value]  # these phases exist only with a neutral army
        battle = self.battle
        if battle is not None:
            if phase is PHASE_DEFEND:
                return self.owner[battle.target]
            if self.owner[battle.source] == self.neutral:
                return self.owner[battle.source]
        return self.current

    def in_neutral_step(self) -> bool:
        """The opponent is acting for the neutral army: placing its reinforcements, its attacks, their dice and
        move-in (and the current player's defence against them)."""
        phase = self.phase
        if phase is PHASE_NEUTRAL_REINFORCE or phase is PHASE_NEUTRAL_ATTACK:
            return True
        battle = self.battle
        return battle is not None and self.neutral is not None and self.owner[battle.source] == self.neutral

    def neutral_commander_gone(self) -> bool:
        """The seat that acts for the neutral army this turn has left, and the game does not wait for it."""
        return (self.neutral is not None and self.rules.neutral_steps_never_wait
                and self.left[self.opponent()])

    def defends_by_itself(self, defender: int) -> bool:
        """Whether `defender` (an owner) rolls the most dice with nobody asked: a seat that left, or the neutral army
        when its commander has left."""
        if defender < self.players:
            return self.left[defender]
        return self.neutral_commander_gone()

    def is_neutral(self, owner: int) -> bool:
        return owner == self.neutral

    @property
    def over(self) -> bool:
        return self.phase is PHASE_OVER

    def is_chance(self) -> bool:
        return self.phase is PHASE_ROLL or self.phase is PHASE_DRAW or self.phase is PHASE_CLOSING_ROLL

    def live_players(self) -> list[int]:
        return [p for p in range(self.players) if not self.eliminated[p]]

    def active_players(self) -> list[int]:
        """Seats still playing: neither eliminated nor gone."""
        return [p for p in range(self.players) if not self.eliminated[p] and not self.left[p]]

    def border_territories(self, seat: int) -> list[int]:
        """The seat's territories next to another owner's, in map order (all the seat's when none is)."""
        owner, neighbours = self.owner, self.map.neighbours
        own = [t for t in range(self.size) if owner[t] == seat]
        border = [t for t in own if any(owner[n] != seat for n in neighbours[t])]
        return border or own

    def income_row(self, seat: int) -> tuple[int, int]:
        """(armies, cards) of the round income by territories held (`income_table`): the row of the largest count
        not above the territories held, (0, 0) below the first row."""
        held = self.territory_count[seat]
        row = (0, 0)
        for territories, armies, cards in self.rules.income_table:
            if territories > held:
                break
            row = (armies, cards)
        return row

    def reinforcements_for(self, seat: int) -> int:
        rules = self.rules
        if rules.income_table:
            return self.income_row(seat)[0]
        count = max(rules.reinforcement_minimum, self.territory_count[seat] // rules.reinforcement_divisor)
        if rules.continent_bonuses:
            owner = self.owner
            for continent in self.map.continents:
                # A plain loop: all() over a generator cost twice as much at every turn's start.
                for t in continent.territories:
                    if owner[t] != seat:
                        break
                else:
                    count += continent.bonus
        return count

    def neutral_reinforcements(self) -> int:
        """Half the current player's income this turn (territories and continents; card sets do not count)."""
        income = self.reinforcements_for(self.current)
        return (income + 1) // 2 if self.rules.neutral_reinforcement_rounding is _UP else income // 2

    def total_armies(self) -> int:
        return sum(self.armies)

    def valid_trades(self, seat: int | None = None) -> list[tuple[int, ...]]:
        hand = self.hands[self.current if seat is None else seat]
        if self.rules.card_deck is _POWER:
            return power_cards.valid_trades(hand)
        if self.phase is PHASE_ELIMINATION_TRADE and self.rules.elimination_trade_cards is _TAKEN:
            taken = self.turn_state.taken_cards  # only sets made of the cards just taken (italian)
            hand = [c for c in hand if c in taken]
        if len(hand) < 3:
            return []
        return list(cardlib.valid_trades(self.map, hand, self.rules.valid_sets))

    def trade_value(self, cards: tuple[int, ...]) -> int:
        """Armies the current player would get for trading `cards` now (set value plus territory bonus)."""
        if self.rules.card_deck is _POWER:
            return self.power_value(cards)
        kind = self._set_kind(cards)
        return self.rules.set_value(kind, self.sets_traded) + self._territory_bonus_total(cards)

    def power_value(self, cards: tuple[int, ...]) -> int:
        """Armies for a power-card trade: an eagle alone, or four different figures."""
        eagle = power_cards.trade_kind(cards) == "eagle"
        return self.rules.power_eagle_armies if eagle else self.rules.power_set_armies

    def occupy_range(self) -> tuple[int, int]:
        """After a conquest: the fewest and the most armies that may end up in the conquered territory (with
        fleets: of the units that cross the link)."""
        battle = self.battle
        if self.phase is not PHASE_OCCUPY or battle is None or battle.occupy_min is None:
            raise IllegalActionError("nothing was conquered: there is no move-in to choose", phase=self.phase,
                                     player=self.current, reason="nothing was conquered")
        s, t = battle.source, battle.target
        if self.fleets_on:
            return battle.occupy_min, self.armies[t] + min(self.armies[s] - 1, self.units_for_link(s, t))
        return battle.occupy_min, self.armies[s] + self.armies[t] - 1

    # ------------------------------------------------------------------------------ armies and fleets

    def is_coastal(self, t: int) -> bool:
        """The territory has a sea link: fleets may lie there."""
        return t in self._coastal

    def sails(self, source: int, target: int) -> bool:
        """Units crossing this link are fleets (fleets on, and a sea link)."""
        return self.fleets_on and self.map.is_sea_link(source, target)

    def units_for_link(self, source: int, target: int) -> int:
        """The units at `source` of the kind that crosses to `target`: its fleets over a sea link, its armies over
        land (all its units without fleets)."""
        if not self.fleets_on:
            return self.armies[source]
        fleets = self.fleets[source]
        return fleets if self.map.is_sea_link(source, target) else self.armies[source] - fleets

    def defending_fleet(self, target: int) -> bool:
        """The unit that defends `target` now is a fleet (its armies are gone)."""
        return self.fleets_on and self.fleets[target] == self.armies[target] > 0

    def movable(self, source: int, target: int) -> int:
        """The most units a fortify move from `source` to `target` may take now: all but one, of the link's kind,
        less those that arrived this turn (one_move_per_unit)."""
        most = self.armies[source] - 1
        kind = self.units_for_link(source, target)
        if self.one_move:
            sea = self.sails(source, target)
            for where, armies, fleets in self.turn_state.arrived:
                if where == source:
                    kind -= fleets if sea else armies
                    break
        return max(0, min(most, kind))

    def movable_words(self, source: int, target: int, most: int) -> str:
        """Why no more than `most` units may move from `source` to `target` (for a refused move)."""
        kind = ("fleets" if self.sails(source, target) else "armies") if self.fleets_on else "armies"
        why = [f"{kind} cross the {'sea' if self.map.is_sea_link(source, target) else 'land'} link"
               ] if self.fleets_on else []
        if self.one_move:
            why.append("units that moved in this turn stay")
        why.append("one unit stays behind")
        where = f"{self.map.id(source)} to {self.map.id(target)}"
        amount = f"no {kind} may move" if most == 0 else f"move 1 to {most} {kind}"
        return f"{amount} from {where} ({', '.join(why)})"

    def max_attack_dice(self, source: int) -> int:
        return min(self.attacker_max, self.armies[source] - 1)

    def max_defend_dice(self, target: int) -> int:
        return min(self.defender_max, self.armies[target])

    def must_trade(self) -> bool:
        """True while the player to move may not end the phase because of a hand limit."""
        hand = len(self.hands[self.current])
        if self.phase is PHASE_REINFORCE:
            limit = self.rules.forced_trade_hand
            return bool(limit) and hand >= limit and bool(self.valid_trades())
        if self.phase is PHASE_ELIMINATION_TRADE:
            down_to = self.turn_state.forced_trade_down_to
            return down_to is not None and hand > down_to and bool(self.valid_trades())
        return False

    def can_attack_from(self, source: int) -> bool:
        attacker = self.neutral if self.phase is PHASE_NEUTRAL_ATTACK else self.current
        return self.owner[source] == attacker and self.armies[source] >= 2

    def attack_allowed(self, source: int, target: int) -> bool:
        owner = self.owner
        attacker = self.current
        defender = owner[target]
        if defender < 0:
            return False  # not dealt yet (progressive deal): nobody's to attack
        if self.phase is PHASE_NEUTRAL_ATTACK:
            # Neutral armies attack only the player whose turn it is: never neutral against neutral, and never the
            # opponent who commands them.
            if defender != attacker:
                return False
            attacker = self.neutral  # type: ignore[assignment]
        if owner[source] != attacker or self.armies[source] < 2:
            return False
        # The neighbours' tuple (a handful of numbers) read in place: the same answer as `map.adjacent`, no call.
        if defender == attacker or target not in self.map.neighbours[source]:
            return False
        # Italian rule: nobody may be eliminated before the end of the protected rounds.
        if self.territory_count[defender] == 1 and self.round <= self.rules.elimination_protection_rounds:
            return False
        return not self.fleets_on or self.units_for_link(source, target) > 0

    def fortify_allowed(self, source: int, target: int) -> bool:
        """A fortify move from `source` to `target` may take at least one unit now."""
        if not self.fortify_path_open(source, target):
            return False
        return not (self.fleets_on or self.one_move) or self.movable(source, target) > 0

    def fortify_path_open(self, source: int, target: int) -> bool:
        """Both are the current player's, `source` has an army to spare, and the ruleset's path joins them (whether
        a unit of the link's kind may move is `movable`)."""
        owner, me = self.owner, self.current
        if source == target or owner[source] != me or owner[target] != me or self.armies[source] < 2:
            return False
        if self.rules.fortify_path is _ADJACENT:
            return self.map.adjacent(source, target)
        return target in self.connected_own(source)

    def connected_own(self, source: int) -> set[int]:
        return reachable(self.map.neighbours, source, self.owner)  # source is the current player's

    # ---------------------------------------------------------------------------------------- cards

    def _set_kind(self, cards: tuple[int, ...]) -> str:
        kind = cardlib.set_kind(tuple(cardlib.card_symbol(self.map, c) for c in cards))  # type: ignore[arg-type]
        assert kind is not None  # checked before a trade
        return kind

    def bonus_cards(self, cards: tuple[int, ...]) -> list[int]:
        """The traded cards that earn the territory bonus: their territory is the trader's."""
        me = self.current
        matching = [c for c in cards if c < self.size and self.owner[c] == me]
        limit = self.rules.territory_bonus_per_trade
        return matching[:limit] if limit else matching

    def _territory_bonus_total(self, cards: tuple[int, ...]) -> int:
        return self.rules.territory_bonus * len(self.bonus_cards(cards))

    # ------------------------------------------------------------------------------------ change primitives

    def rollback(self, mark: int) -> None:
        """Take back every change recorded since `changes` was `mark` items long, the last first."""
        changes = self.changes
        for at in range(len(changes) - 3, mark - 1, -3):
            container, index, old = changes[at], changes[at + 1], changes[at + 2]
            if index is None:
                container[:] = old
            else:
                container[index] = old
        del changes[mark:]

    def change(self, container: list[Any], index: int, value: Any) -> None:
        self.changes += (container, index, container[index])
        container[index] = value

    def keep(self, container: list[Any]) -> None:
        """Remember the whole list before it is changed other than by index (append, remove)."""
        self.changes += (container, None, container[:])

    def move_units(self, source: int, target: int, count: int, *, onward: bool = True) -> None:
        """Move `count` units from `source` to `target` (fleets over a sea link), noting them as arrived. `onward`
        (a move-in after a conquest): those that go on are counted from the units that arrived at `source` first;
        a fortify move takes only units that had not moved (`movable`), so the arrived stay arrived."""
        # Every conquest and move-in comes here: the two patches are recorded at once, as `change` would.
        armies = self.armies
        before_s, before_t = armies[source], armies[target]
        self.changes += (armies, source, before_s, armies, target, before_t)
        armies[source] = before_s - count
        armies[target] = before_t + count
        sea = self.fleets_on and self.map.is_sea_link(source, target)
        if sea:
            fleets = self.fleets
            self.change(fleets, source, fleets[source] - count)
            self.change(fleets, target, fleets[target] + count)
        if self.one_move:
            self._note_arrival(source, target, count, sea, onward)

    def _note_arrival(self, source: int, target: int, count: int, sea: bool, onward: bool) -> None:
        arrived = {where: (a, f) for where, a, f in self.turn_state.arrived}
        if onward:
            a, f = arrived.get(source, (0, 0))
            arrived[source] = (a, max(0, f - count)) if sea else (max(0, a - count), f)
        a, f = arrived.get(target, (0, 0))
        arrived[target] = (a, f + count) if sea else (a + count, f)
        kept = tuple((where, a, f) for where, (a, f) in sorted(arrived.items()) if a or f)
        self.turn_state = self.turn_state._replace(arrived=kept)

    def describe(self, action: object) -> str:
        """A human name for an action, with territory ids instead of indices (any field value is named; anything
        that is not an action by its repr)."""
        tid = self.tid
        match action:
            case Place(t, c, fleet):
                return f"place {c!r} {'fleets ' if fleet is True else ''}on {tid(t)}"
            case Attack(s, t, d):
                return f"attack {tid(s)} → {tid(t)} with {_dice_of(d)}"
            case Blitz(s, t, k, None):
                return f"blitz {tid(s)} → {tid(t)} stopping at {k!r}"
            case Blitz(s, t, k, d):
                return f"blitz {tid(s)} → {tid(t)} with {_dice_of(d)}, stopping at {k!r}"
            case Fortify(s, t, c):
                return f"fortify {c!r} from {tid(s)} to {tid(t)}"
            case Trade(cs):
                names = ", ".join(self.card_name(c) for c in cs) if isinstance(cs, tuple) else repr(cs)
                return "trade cards " + names
            case Occupy(c):
                return f"occupy with {c!r}"
            case Defend(d):
                return f"defend with {_dice_of(d)}"
            case Roll(a, d, _):
                return f"roll {_dice_text(a)} vs {_dice_text(d)}"
            case Draw(c):
                return f"draw card {self.card_name(c)}"
            case EndPhase():
                return f"end {self.phase.value}"
            case Leave(seat):
                who = self.rules.colours[seat] if is_index(seat, self.players) else f"seat {seat!r}"
                return f"{who} leaves the game"
            case TimeOut():
                return "time-out"
            case ClockOut():
                return "the tournament clock runs out"
            case ClosingRoll(dice, _):
                return f"closing roll {_dice_text(dice)}"
            case Deal():
                return "deal"
            case _:
                return repr(action)

    def tid(self, t: object) -> str:
        return self.map.id(t) if is_index(t, self.size) else f"#{t!r}"  # type: ignore[arg-type]

    def card_name(self, card: object) -> str:
        if isinstance(card, int) and power_cards.is_power(card):
            return power_cards.name(card)
        if not is_index(card, self.size + self.rules.deck_jollies):
            return f"#{card!r}"
        assert isinstance(card, int)
        return self.map.id(card) if card < self.size else f"jolly#{card - self.size + 1}"

    def not_a_territory(self, t: object) -> str:
        """The refusal of an action field that is no territory of this map."""
        return f"{t!r} is not a territory of map {self.map.name!r}"


# Each rules module's table of the actions it referees: per action type, its check (the refusal's words, or None;
# changes nothing) and its apply (assumes a checked action, changes the position, appends the events). `Game` merges
# the tables (rules/engine.py).
Steps = dict[type, tuple[Callable[[Position, Any], "str | None"], Callable[[Position, Any, list[Event]], None]]]


def _dice_of(count: object) -> str:
    """An action's count of dice in words ("1 die", "2 dice"); anything else as it is."""
    # type() rather than ==: a float 1.0 or True is a wrong field to name as it is, and the compiled core (mypyc)
    # refuses to compare a float with an int literal in a function it typed by its callers.
    one = type(count) is int and count == 1
    return f"{count!r} {'die' if one else 'dice'}"
