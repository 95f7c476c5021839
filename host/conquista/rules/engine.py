"""The game engine: one state machine referees every ruleset. Pure: no I/O, no random, no clock.

`Game(rules, map, players, deal)` starts a game from a dealt board; `legal_actions()` lists what the player to
move (or chance) may do; `check(action)` says why an action is refused, in a player's words (None when it is legal:
the table shows these words rather than working legality out itself); `apply(action)` refuses with the same words
(IllegalActionError) or changes the state and returns typed events; `undo()` takes
the last applied action back (python-chess's push/pop). Dice rolls and card draws are chance actions supplied by the
caller, so the action log replays the game bit for bit. `snapshot()`/`from_snapshot()` save and rebuild a position.
`Leave` and `TimeOut` are table events, not moves: `legal_actions()` never lists them (`check()` does).

`Game` is a `Position` (rules/position.py: the state, its queries, its recorded changes) with the move stack: the
log and the undo history. Each action type has a check and an apply, functions of a position in the module of its
concept: the turn (rules/turns.py), fights (rules/combat.py), the tournament ending (rules/tournament.py), a player
leaving and a turn's time-out (rules/table_features.py). `apply` is the check, then the apply. The features a
ruleset has step into the turn's flow as `TurnFeature`s, chosen here (`features_of`).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from operator import attrgetter
from typing import Any, Self

from conquista.errors import IllegalActionError, MapError, RulesetError
from conquista.rules import combat, power_cards, table_features, tournament, turns
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
from conquista.rules.battle import DICE_ID, NumberedRolls, numbered_rolls
from conquista.rules.choices import CardDeck, FortifyPath, Objective
from conquista.rules.events import Event
from conquista.rules.events import Phase as P
from conquista.rules.mapdata import GameMap
from conquista.rules.missions import check_map_supports
from conquista.rules.position import PLACING, Position, Steps, TurnFeature
from conquista.rules.rulesets import Ruleset
from conquista.rules.state import (
    CHANCE,
    FIELDS,
    FIGHT_SCALARS,
    SCALAR_FIELDS,
    TERMINAL,
    UNDEALT,
    Battle,
    Kind,
    Mover,
    TurnState,
    decode_field,
    encode_field,
)
from conquista.rules.table_features import ClockKey
from conquista.rules.tournament import CLOSING_OUTCOMES, Stage, TournamentStatus

__all__ = ["CHANCE", "TERMINAL", "Battle", "Game", "Mover", "TurnState"]

_save_scalars = attrgetter(*SCALAR_FIELDS)
_save_fight_scalars = attrgetter(*FIGHT_SCALARS)
_OVER = P.OVER
_ROLL = P.ROLL


def _sorted_outcomes(n: int) -> list[tuple[int, ...]]:
    return sorted({tuple(sorted(p, reverse=True)) for p in product(range(1, 7), repeat=n)})


# Distinct roll outcomes (order of dice never changes a battle), built once: legal_actions() at a roll lists these.
_ROLL_OUTCOMES: dict[tuple[int, int], tuple[Roll, ...]] = {}


def _roll_outcomes(attack: int, defend: int) -> tuple[Roll, ...]:
    key = (attack, defend)
    if key not in _ROLL_OUTCOMES:
        _ROLL_OUTCOMES[key] = tuple(Roll(a, d) for a in _sorted_outcomes(attack) for d in _sorted_outcomes(defend))
    return _ROLL_OUTCOMES[key]



def features_of(rules: Ruleset) -> tuple[TurnFeature, ...]:
    """The features of `rules` that step into the turn's flow, in the order the flow calls them."""
    features: list[TurnFeature] = []
    if rules.tournament_ending:
        features.append(tournament.TournamentEnding())
    if rules.neutral_army and rules.neutral_steps_never_wait:
        features.append(table_features.NeutralStepsNeverWait())
    return tuple(features)


class Game(Position):
    """One game: its position and its move stack. Mutable; `replay()` of its log rebuilds an equal one."""

    # The move stack: the actions applied and the undo history.
    __slots__ = ("_history", "_numbered", "log", "undoable")
    log: list[Action]
    _history: list[Any]
    # False after `drop_undo()`: `apply` keeps no undo record (a whole game that nobody takes back).
    undoable: bool
    # The numbered rolls of the last source `apply_roll_number` was given, under this game's dice rule.
    _numbered: NumberedRolls | None

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        # `clone()` and `from_snapshot()` make a game that is not dealt with `cls.__new__(cls)`: a class compiled
        # with mypyc (`make fast`) has that only when it defines __new__ itself.
        return super().__new__(cls)

    def __init__(self, rules: Ruleset, game_map: GameMap, players: int, deal: Deal) -> None:
        rules.check_players(players)
        if rules.neutral_army and players != 2:
            raise RulesetError(f"ruleset {rules.name!r} has a neutral army, a two-player game: not for {players} "
                               f"players (set neutral_army = false)")
        owners = players + rules.neutral_army
        if game_map.size < owners:  # a player dealt nothing has no move, and the bots and the deal assume one
            raise MapError(f"map {game_map.name!r} has {game_map.size} territories, fewer than the {owners} "
                           f"{'players and the neutral army' if rules.neutral_army else 'players'}: every one "
                           "needs a territory; use fewer players or a bigger map")
        if rules.objective is Objective.MISSIONS:
            check_map_supports(game_map, rules.missions)
        self._start(rules, game_map, players)
        n = game_map.size
        self.owner = [UNDEALT] * n              # every territory is dealt by `turns.deal`, or later (progressive)
        self.armies = [0] * n
        self.territory_count = [0] * (players + rules.neutral_army)  # the neutral army is counted past the seats
        self.hands = [[] for _ in range(players)]
        self.deck = (power_cards.deck(rules.power_figure_sets, rules.power_eagles) if rules.card_deck is CardDeck.POWER
                     else list(range(n + rules.deck_jollies)))
        self.discard = []
        self.missions = ()
        self.eliminated = [False] * players
        self.eliminated_by = [None] * players
        self.left = [False] * players          # seats that left the game (players_may_leave)
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
        self.undealt = []                      # the progressive deal's territories still to deal, in order
        self.draws_due = 0                     # card draws due now (power cards: first distribution, income)
        self.fleets = [0] * n                  # how many of each territory's units are fleets (lamorisse-1954)
        self.clock_out_round = 0               # the tournament ending (rules/tournament.py)
        self.turn_conquests = 0
        self.tiebreak = ()
        self.tiebreak_played = 0
        turns.deal(self, deal)
        self.changes.clear()  # the deal is the game's start: nothing before it to undo
        self.log.append(deal)

    def _start(self, rules: Ruleset, game_map: GameMap, players: int) -> None:
        """What is not state: the rules and their features, and an empty move stack."""
        self.set_rules(rules, game_map, players, features_of(rules))
        self.log = []
        self.undoable = True
        # The undo history, flat so that an action adds no container of its own: five items per applied action,
        # the scalars it may replace (a tuple of atomic values, which the garbage collector stops tracking), its
        # phase, battle and turn state, and where its changes start in the position's record of changes.
        self._history = []
        self._numbered = None

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
        if phase is P.CLOSING_ROLL:
            return list(CLOSING_OUTCOMES)
        if phase is P.DEFEND:
            assert battle is not None
            return [Defend(d) for d in range(1, self.max_defend_dice(battle.target) + 1)]
        if phase is P.OCCUPY:
            low, high = self.occupy_range()
            return [Occupy(c) for c in range(low, high + 1)]
        if phase is P.NEUTRAL_REINFORCE or phase is P.NEUTRAL_ATTACK:
            me = self.acting_owner()
        own = [t for t in range(self.size) if self.owner[t] == me]
        if phase is P.NEUTRAL_REINFORCE:
            return [Place(t, c) for t in own for c in range(1, self.pool + 1)]
        if phase in PLACING:
            if phase is not P.SETUP:
                out.extend(Trade(c) for c in self.valid_trades())
            out.extend(Place(t, c) for t in own for c in range(1, self.pool + 1))
            if self.fleets_on:
                out.extend(Place(t, c, True) for t in own if self.is_coastal(t) for c in range(1, self.pool + 1))
            if phase is not P.SETUP and self.pool == 0 and not self.must_trade():
                out.append(EndPhase())
            return out
        if phase is P.ATTACK or phase is P.NEUTRAL_ATTACK:
            return self._legal_attacks(own)
        if phase is P.FORTIFY:
            return self._legal_fortifies(own)
        raise AssertionError(f"no legal actions defined for phase {phase}")  # every phase is handled above

    def _legal_attacks(self, own: list[int]) -> list[Action]:
        out: list[Action] = []
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

    def _legal_fortifies(self, own: list[int]) -> list[Action]:
        out: list[Action] = []
        me = self.current
        for s in own:
            if self.armies[s] < 2:
                continue
            targets = (self.map.neighbours[s] if self.rules.fortify_path is FortifyPath.ADJACENT
                       else sorted(self.connected_own(s)))
            for t in targets:
                if t != s and self.owner[t] == me:
                    most = self.movable(s, t) if self.fleets_on or self.one_move else self.armies[s] - 1
                    out.extend(Fortify(s, t, c) for c in range(1, most + 1))
        out.append(EndPhase())
        return out

    def check(self, action: Action) -> str | None:
        """Why `action` is refused now, in a player's words (territories by their ids), or None when it is legal.
        Changes nothing. The table shows this reason for a refused tap rather than working legality out again."""
        if self.phase is _OVER:
            return "the game is over"
        entry = _STEPS.get(action.__class__) or _step_for(action)
        if entry is None:
            return "a game is dealt once, when it is created" if isinstance(action, Deal) else "not a game action"
        return entry[0](self, action)

    def is_legal(self, action: Action) -> bool:
        return self.check(action) is None

    # ------------------------------------------------------------------------------------------ apply, undo

    def apply(self, action: Action) -> list[Event]:
        """Check `action` and apply it. Raises IllegalActionError (state unchanged) if it is not legal now."""
        # The check and the apply found by one dictionary look-up of the action's exact type: this is the hottest
        # call of every simulation. Anything unusual (a subclass, a Deal, a game over) goes the long way.
        entry = _entry_of(action.__class__)
        if entry is None or self.phase is _OVER:
            entry = self._step(action)
        check, step, save = entry
        reason = check(self, action)
        if reason is not None:
            raise self.refusal(action, reason)
        events: list[Event] = []
        if self.undoable:
            undo = (save(self), self.phase, self.battle, self.turn_state, len(self.changes))
            step(self, action, events)
            self._history += undo
        else:
            step(self, action, events)
            self.changes.clear()
        self.log.append(action)
        return events

    def apply_ready_roll(self, roll: Roll) -> None:
        """Apply a battle roll that its chance source made for exactly the awaited battle's dice (the seeded dice's
        ready rolls, dice/ready_rolls.py: whole numbers 1 to 6, by construction), in a game that keeps no undo: the
        same step as `apply`, without its undo record, its events and the die-by-die check (the source made the roll
        to fit: its dice counts and faces are looked up, a bool taken for the number it equals).
        The simulate loop's chance step, half of a game's actions. A game that keeps its undo, a game at another
        step, or a roll of other dice takes `apply`'s whole path (and its refusal)."""
        battle = self.battle
        attack, defend = roll.attack, roll.defend
        attack_id, defend_id = _dice_id(attack), _dice_id(defend)
        # What the source guarantees, asked cheaply (a table look-up tells dice of 1 to 6 from anything else, and
        # numbers them for the losses): anything else is refused as `apply` refuses it.
        if (self.undoable or self.phase is not _ROLL or battle is None or roll.__class__ is not Roll
                or len(attack) != battle.attack_dice or len(defend) != battle.defend_dice
                or attack_id is None or defend_id is None or roll.source.__class__ is not str):
            self.apply(roll)
            return
        if self.fleets_on:
            _apply_roll(self, roll, [])
        else:
            _settle_roll(self, battle, roll, self.resolve.losses(attack_id, defend_id), None)
        self.changes.clear()
        self.log.append(roll)

    # `number` typed loosely, as an action's fields are (benchmarks/build_fast.py `loosen_actions`): compiled, an int
    # parameter would take True for 1 before the check below saw it.
    def apply_roll_number(self, number: Any, source: str) -> None:
        """Apply the awaited battle's roll numbered `number` (`NumberedRolls`: the faces less one as base-6 digits,
        the attacker's dice first) from the chance source named `source`: `apply(Roll(...))` of that roll, the roll
        logged as `apply` logs it. In a game that keeps no undo, without fleets, this is one table look-up for the
        roll and its losses (the roll is made from the battle's own dice counts, so nothing in it needs a check)
        and no events: the simulate loop's chance step, a third of a game's steps. Anything else takes `apply`'s
        whole path; a number that is no roll of the battle's dice, or no awaited roll, is refused."""
        battle = self.battle
        numbered = self._numbered
        if numbered is None or numbered.source is not source:
            numbered = self._numbered = numbered_rolls(self.resolve, source)
        if battle is None or self.phase is not _ROLL:
            raise IllegalActionError(f"roll number {number} is illegal in phase {self.phase.value}: no battle roll is "
                                     "awaited", phase=self.phase, player=self.current,
                                     reason="no battle roll is awaited")
        attack, defend = battle.attack_dice, battle.defend_dice
        try:
            made = numbered.tables[attack][defend][number] if number.__class__ is int and number >= 0 else None
        except (IndexError, TypeError):
            made = None
        if made is None:
            made = numbered.entry(attack, defend, number)
            if made is None:
                reason = (f"this roll is {attack} attack and {defend} defence dice, numbered 0 to "
                          f"{6 ** (attack + defend) - 1}")
                raise IllegalActionError(f"roll number {number!r} is illegal: {reason}", phase=self.phase,
                                         player=self.current, reason=reason)
        roll, losses = made
        if self.undoable or self.fleets_on:
            self.apply(roll)
            return
        _settle_roll(self, battle, roll, losses, None)
        self.changes.clear()
        self.log.append(roll)

    def drop_undo(self) -> None:
        """Keep no undo history from now on (`undo()` has nothing to take back): for a whole game that nobody takes
        back, `conquista simulate`'s, whose undo records were a tenth of its time. The table's games keep theirs."""
        self.undoable = False
        self._history.clear()
        self.changes.clear()

    def can_undo(self) -> bool:
        return bool(self._history)

    def undo(self) -> Action:
        """Take back the last applied action exactly and return it. Any action can be undone (the referee decides
        which ones it offers); a game made by `from_snapshot()` or `clone()` cannot go back before that moment."""
        history = self._history
        if not history:
            raise IllegalActionError("nothing to undo", phase=self.phase, player=self.current,
                                     reason="nothing to undo")
        saved, self.phase, self.battle, self.turn_state, mark = history[-5:]
        del history[-5:]
        self.rollback(mark)
        for name, value in zip(SCALAR_FIELDS if len(saved) == _ALL_SCALARS else FIGHT_SCALARS, saved, strict=True):
            setattr(self, name, value)
        return self.log.pop()

    def _step(self, action: Action) -> Entry:
        """The check and the apply of `action`, and what its undo record keeps; raises IllegalActionError when the
        game is over or `action` is no game action."""
        if self.phase is P.OVER:
            raise self.refusal(action, "the game is over")
        # One dictionary look-up by the action's exact type (a chain of isinstance tests cost most of a roll's
        # overhead); a subclass of an action type finds its step by isinstance.
        step = _STEPS.get(action.__class__) or _step_for(action)
        if step is None:
            if isinstance(action, Deal):
                raise self.refusal(action, "a game is dealt once, when it is created")
            raise IllegalActionError(f"{action!r} is not a game action", action=action, phase=self.phase,
                                     player=self.current, reason="not a game action")
        return step

    def refusal(self, action: object, reason: str) -> IllegalActionError:
        """The error `apply` raises for a refused `action`: the action named, the phase, the player and `reason`."""
        text = self.describe(action)
        return IllegalActionError(f"{text} is illegal in phase {self.phase.value} (player {self.current + 1}): "
                                  f"{reason}", action=action, phase=self.phase, player=self.current, reason=reason)

    # ------------------------------------------------------------------------------------------ the features' queries

    def tournament_stage(self) -> Stage:
        return tournament.stage(self)

    def closing_number(self) -> int | None:
        """The tournament's closing roll's number this round (rules/tournament.py), or None before the last round."""
        return tournament.closing_number(self)

    def tournament_status(self, elapsed_s: float) -> TournamentStatus:
        """What the board shows of a tournament game after `elapsed_s` seconds of play (rules/tournament.py)."""
        return tournament.status(self, elapsed_s)

    def clock_key(self) -> ClockKey:
        """What one run of the turn clock is for (rules/table_features.py)."""
        return table_features.clock_key(self)

    def turn_clock_runs(self) -> bool:
        """Whether the game is at a step the turn clock times (rules/table_features.py)."""
        return table_features.turn_clock_runs(self)

    # ------------------------------------------------------------------------------------------ snapshot

    def clone(self) -> Game:
        """An independent copy (for look-ahead): lists are copied, immutable values and records shared. The clone
        keeps the log but not the undo history: it cannot undo past the moment it was made."""
        other = Game.__new__(Game)
        other._start(self.rules, self.map, self.players)
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
        if "left" not in data and "players" in data:  # a snapshot made before players could leave
            data = {**data, "left": [False] * int(data["players"])}
        data = {"undealt": [], "draws_due": 0, **data}  # a snapshot made before the 1954 game
        if "fleets" not in data and isinstance(data.get("armies"), list):  # ... or before its fleets
            data = {**data, "fleets": [0] * len(data["armies"])}
        # ... or before the tournament ending
        data = {"clock_out_round": 0, "turn_conquests": 0, "tiebreak": [], "tiebreak_played": 0, **data}
        expected = {"rules", "map", "players", *(name for name, _ in FIELDS)}
        if set(data) != expected:
            wrong = sorted(set(data) ^ expected)
            raise RulesetError(f"a game snapshot has exactly the engine's fields; these differ: {', '.join(wrong)}")
        if data["rules"] != rules.name or data["map"] != game_map.name:
            raise RulesetError(f"the snapshot is of ruleset {data['rules']!r} on map {data['map']!r}, "
                               f"not {rules.name!r} on {game_map.name!r}")
        game = cls.__new__(cls)
        game._start(rules, game_map, int(data["players"]))
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
        # Keys added since the first golden transcripts appear only when set, so those digests stay as they were.
        later: dict[str, Any] = {"taken_cards": sorted(turn.taken_cards)} if turn.taken_cards else {}
        if any(self.left):
            later["left"] = list(self.left)
        if self.undealt:
            later["undealt"] = list(self.undealt)
        if self.draws_due:
            later["draws_due"] = self.draws_due
        if self.fleets_on:
            later["fleets"] = list(self.fleets)
        if turn.arrived:
            later["arrived"] = [list(a) for a in turn.arrived]
        if self.rules.tournament_ending:
            later["tournament"] = [self.clock_out_round, self.turn_conquests, list(self.tiebreak),
                                   self.tiebreak_played]
        return {**later,
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
        import hashlib  # here: a board's start (which never asks for a digest) need not load OpenSSL
        import json

        blob = json.dumps(self._canonical(), sort_keys=True, separators=(",", ":")).encode()
        return hashlib.sha256(blob).hexdigest()


Entry = tuple[Callable[[Position, Any], "str | None"], Callable[[Position, Any, list[Event]], None],
              Callable[["Game"], tuple[Any, ...]]]
_ALL_SCALARS = len(SCALAR_FIELDS)
# Every action type's check and apply, from the module of its concept.
_STEP_OF: Steps = {**turns.STEPS, **combat.STEPS, **tournament.STEPS, **table_features.STEPS}
_FIGHTS = (Roll, Defend, Attack, Blitz, Occupy)
# Each action type's check and apply (functions of a position), and the scalars its undo record keeps, for `apply`.
_STEPS: dict[type, Entry] = {
    kind: (check, step, _save_fight_scalars if kind in _FIGHTS else _save_scalars)
    for kind, (check, step) in _STEP_OF.items()}


_entry_of = _STEPS.get
_dice_id = DICE_ID.get
_apply_roll = combat.apply_roll
_settle_roll = combat.settle_roll


def _step_for(action: object) -> Entry | None:
    """The entry of an instance of a subclass of an action type; None for anything else (a Deal included)."""
    for kind, entry in _STEPS.items():
        if isinstance(action, kind):
            return entry
    return None
