"""The rules of a fight: an attack or a blitz, the defender's dice, each roll, the conquest and the move-in.
Pure: no I/O, no random, no clock. `_roll` is the hot path of every simulation: its checks are inline.
"""

from __future__ import annotations

from conquista.rules.actions import Attack, Blitz, Defend, Occupy, Roll
from conquista.rules.choices import EliminationTrade, OccupationMinimum
from conquista.rules.events import (
    ArmiesMoved,
    BattleRolled,
    Event,
    NeutralArmyDefeated,
    PhaseStarted,
    PlayerEliminated,
    TerritoryConquered,
)
from conquista.rules.events import Phase as P
from conquista.rules.state import Battle, TurnState
from conquista.rules.turns import TurnRules

# The records of every roll, attack and conquest are built with every field given, by tuple.__new__: a named tuple's
# own constructor is a Python function around that very call, and costs twice as much on the hottest path.
_new = tuple.__new__


class CombatRules(TurnRules):
    __slots__ = ()

    def _attack(self, action: Attack | Blitz, events: list[Event] | None) -> None:
        neutral = self.phase is P.NEUTRAL_ATTACK
        if self.phase is not P.ATTACK and not neutral:
            raise self.refusal(action, "attacks happen in the attack phase")
        blitz = isinstance(action, Blitz)
        if blitz and not self.rules.blitz:
            raise self.refusal(action, f"{self.rules.name} has no blitz")
        s, t, size = action.source, action.target, self._size
        if s.__class__ is not int or not 0 <= s < size or t.__class__ is not int or not 0 <= t < size:
            self._territory(action, s)  # refuses with the words
            self._territory(action, t)
        if not self.attack_allowed(s, t):  # one query on the way of every attack; the words only for a refusal
            raise self.refusal(action, self.attack_refusal(s, t))
        stop: int | None = None
        if isinstance(action, Attack):
            dice = self._count(action, action.dice, "dice")
            if not 1 <= dice <= self.max_attack_dice(s):
                raise self.refusal(action, f"attack with 1 to {self.max_attack_dice(s)} dice")
        else:
            stop = self._count(action, action.stop_at, "the stop level")
            if not 1 <= stop < self.armies[s]:
                raise self.refusal(action, f"the stop level must be between 1 and {self.armies[s] - 1}")
            dice = self.max_attack_dice(s)
        if events is None:
            return
        if not self.turn_state.attacked and not neutral:
            turn = self.turn_state
            self.turn_state = TurnState(turn.conquered, True, turn.fortifies_done, turn.forced_trade_down_to,
                                        turn.taken_cards, turn.arrived)
        self._await_defence(_new(Battle, (s, t, dice, 0, stop, None, None, False)))

    def attack_refusal(self, s: int, t: int) -> str:
        """Why an attack from `s` on `t` is refused (for a pair `attack_allowed` refuses), in a player's words."""
        neutral = self.phase is P.NEUTRAL_ATTACK
        attacker, whose = (self.neutral, "the neutral army's") if neutral else (self.current, "yours")
        if self.owner[s] != attacker:
            return f"{self._tid(s)} is not {whose}"
        if self.armies[s] < 2:
            return f"{self._tid(s)} needs at least 2 armies to attack"
        if self.owner[t] < 0:
            return f"{self._tid(t)} has not been dealt yet: nobody holds it"
        if self.owner[t] == attacker:
            return f"{self._tid(t)} is {whose}"
        if neutral and self.owner[t] != self.current:
            return (f"{self._tid(t)} is not player {self.current + 1}'s: the neutral army attacks only the player "
                    f"whose turn it is")
        if not self.map.adjacent(s, t):
            return f"{self._tid(t)} is not adjacent to {self._tid(s)}"
        if self._fleets_on and not self.units_for_link(s, t):
            return (f"{self._tid(s)} has no fleet to cross the sea to {self._tid(t)}: only fleets attack over sea"
                    if self.map.is_sea_link(s, t) else
                    f"{self._tid(s)} has no army to attack {self._tid(t)} over land: fleets attack only over sea")
        return (f"{self._tid(t)} is its owner's last territory: nobody may be eliminated before round "
                f"{self.rules.elimination_protection_rounds + 1}")

    def _await_defence(self, battle: Battle) -> None:
        # A seat that left defends by itself, with the most dice, whatever the ruleset lets defenders choose (and
        # the neutral army when the opponent who chooses for it has left). One legal count of dice is no choice: it
        # is rolled without a question (decided 2026-11-26).
        defender = self.owner[battle.target]
        armies = self.armies[battle.target]
        defend = armies if armies < self._defender_max else self._defender_max
        if (self._automatic_defence or (defend == 1 and self._ask_on_choice)
                or (self.left[defender] if defender < self.players else self.neutral_commander_gone())):
            self.battle = battle if battle.defend_dice == defend else _new(Battle, (
                battle.source, battle.target, battle.attack_dice, defend, battle.stop_at, None, None, False))
            self.phase = P.ROLL
        else:
            self.battle = battle
            self.phase = P.DEFEND

    def _defence_choice_kept(self, target: int, before: int, after: int) -> bool:
        """In a blitz the defender is asked again only when the choice changes: the legal counts of dice (1 up to
        the most the armies allow) and [interpretation] the attacker's dice, which the defender hears before
        choosing (the caller compares those). `before` and `after` are the target's armies either side of the
        roll. A defender who left meanwhile is not kept to an earlier answer: they roll the most dice."""
        if self.defends_by_itself(self.owner[target]):
            return False
        most = self._defender_max
        return (before if before < most else most) == (after if after < most else most)

    def _defend(self, action: Defend, events: list[Event] | None) -> None:
        battle = self.battle
        if self.phase is not P.DEFEND or battle is None:
            raise self.refusal(action, "no defence is being chosen")
        dice = self._count(action, action.dice, "dice")
        if not 1 <= dice <= self.max_defend_dice(battle.target):
            raise self.refusal(action, f"defend with 1 to {self.max_defend_dice(battle.target)} dice")
        if events is None:
            return
        # Built directly: a named tuple's _replace costs twice as much, and every roll of a chosen defence comes here
        # (before the defence is chosen a battle has no conquest fields yet).
        self.battle = Battle(battle.source, battle.target, battle.attack_dice, dice, battle.stop_at)
        self.phase = P.ROLL

    def _roll(self, action: Roll, events: list[Event] | None) -> None:
        # The hot path of every simulation: checks inline, losses from the resolver's table, no copies.
        battle = self.battle
        if self.phase is not P.ROLL or battle is None:
            raise self.refusal(action, "no battle roll is awaited")
        attack, defend = action.attack, action.defend
        if (attack.__class__ is not tuple or defend.__class__ is not tuple
                or len(attack) != battle.attack_dice or len(defend) != battle.defend_dice):
            raise self.refusal(action, f"this roll is {battle.attack_dice} attack and {battle.defend_dice} "
                             f"defence dice")
        for die in attack:
            if die.__class__ is not int or not 0 < die < 7:
                raise self.refusal(action, f"a die shows 1 to 6, not {die!r}")
        for die in defend:
            if die.__class__ is not int or not 0 < die < 7:
                raise self.refusal(action, f"a die shows 1 to 6, not {die!r}")
        if action.source.__class__ is not str:
            raise self.refusal(action, f"the dice source is a name, not {action.source!r}")
        if events is None:
            return
        s, t = battle.source, battle.target
        if self._fleets_on:
            self._roll_units(s, t, attack, defend, events)
            return
        attacker_losses, defender_losses = self._resolve(attack, defend)
        # A void roll (ties re-rolled, rules/battle.py: no loss on either side) is logged, changes no army and leaves
        # the battle at this roll with the same dice, a single attack and a blitz alike (a defender who chose keeps
        # the choice). An automatic blitz stays at the roll by itself; the other two ways out check for it.
        armies = self.armies
        before_s, before_t = armies[s], armies[t]
        self._patches += (armies, s, before_s, armies, t, before_t)
        left = armies[s] = before_s - attacker_losses
        right = armies[t] = before_t - defender_losses
        self.lost_total += attacker_losses + defender_losses
        events.append(_new(BattleRolled, (s, t, attack, defend, attacker_losses, defender_losses, False, False)))
        if not right:
            self._conquer(battle, events)
            return
        stop = battle.stop_at
        if stop is not None and left > stop and left >= 2:
            dice = left - 1 if left - 1 < self._attacker_max else self._attacker_max
            if self._automatic_defence:
                defence = right if right < self._defender_max else self._defender_max
                if dice != battle.attack_dice or defence != battle.defend_dice:
                    self.battle = _new(Battle, (s, t, dice, defence, stop, None, None, False))
                return  # the blitz rolls on: still a chance step
            if not attacker_losses and not defender_losses:
                return
            if self._ask_on_choice and dice == battle.attack_dice and self._defence_choice_kept(t, before_t, right):
                return  # the same question as before the roll: the defender's answer stands, the blitz rolls on
            self._await_defence(battle if dice == battle.attack_dice
                                else Battle(s, t, dice, battle.defend_dice, stop))
            return
        if not attacker_losses and not defender_losses:
            return
        self.battle = None
        self.phase = P.NEUTRAL_ATTACK if self.owner[s] == self.neutral else P.ATTACK

    def _roll_units(self, s: int, t: int, attack: tuple[int, ...], defend: tuple[int, ...],
                    events: list[Event]) -> None:
        """A roll with fleets on (one die each): the unit that fought on each side loses, a fleet's die counts less
        against an army (rules/fleet_battle.py). Otherwise as `_roll`."""
        battle = self.battle
        assert battle is not None
        attack_fleet, defend_fleet = self.map.is_sea_link(s, t), self.defending_fleet(t)
        attacker_losses, defender_losses = self._fleet_resolvers[attack_fleet, defend_fleet](attack, defend)
        armies, fleets = self.armies, self.fleets
        if attacker_losses:
            self.change(armies, s, armies[s] - attacker_losses)
            if attack_fleet:
                self.change(fleets, s, fleets[s] - attacker_losses)
        if defender_losses:
            self.change(armies, t, armies[t] - defender_losses)
            if defend_fleet:
                self.change(fleets, t, fleets[t] - defender_losses)
        self.lost_total += attacker_losses + defender_losses
        events.append(BattleRolled(s, t, attack, defend, attacker_losses, defender_losses, attack_fleet,
                                   defend_fleet))
        if not armies[t]:
            self._conquer(battle, events)
            return
        void = not attacker_losses and not defender_losses
        stop = battle.stop_at
        if stop is not None and armies[s] > stop and armies[s] >= 2 and self.units_for_link(s, t):
            if not self._automatic_defence and not void:
                self._await_defence(battle)
            return  # the blitz rolls on (one die each: the dice never change)
        if void:
            return
        self.battle = None
        self.phase = P.ATTACK

    def _conquer(self, battle: Battle, events: list[Event]) -> None:
        s, t = battle.source, battle.target
        me = self.owner[s]  # the current player, or the neutral army in its turn
        by_neutral = me == self.neutral
        loser = self.owner[t]
        moved = battle.attack_dice if self.rules.occupation_minimum is OccupationMinimum.LAST_DICE else 1
        owner, counts = self.owner, self.territory_count
        # The three patches recorded at once, as `change` would (a conquest ends every other blitz).
        self._patches += (owner, t, loser, counts, me, counts[me], counts, loser, counts[loser])
        owner[t] = me
        counts[me] += 1
        counts[loser] -= 1
        self.move_units(s, t, moved)  # the target is empty: it holds what moved in
        if not by_neutral:
            self.turn_conquests += 1  # the tournament's closing roll is skipped after more than two
        if not self.turn_state.conquered and not by_neutral:  # a neutral conquest earns no card
            turn = self.turn_state
            self.turn_state = TurnState(True, turn.attacked, turn.fortifies_done, turn.forced_trade_down_to,
                                        turn.taken_cards, turn.arrived)
        events.append(_new(TerritoryConquered, (t, s, me, loser, moved)))
        eliminated_now = counts[loser] == 0
        if eliminated_now and loser == self.neutral:
            eliminated_now = False  # from now on a plain duel
            events.append(NeutralArmyDefeated(me))
        if eliminated_now and by_neutral:
            self.change(self.eliminated, loser, True)
            self.change(self.eliminated_by, loser, me)
            events.append(PlayerEliminated(loser, me, 0))  # the neutral army takes no cards
            eliminated_now = False
        elif eliminated_now:
            self.change(self.eliminated, loser, True)
            self.change(self.eliminated_by, loser, me)
            taken = self.hands[loser]
            self.keep(taken)
            self.keep(self.hands[me])
            self.hands[me].extend(taken)
            events.append(PlayerEliminated(loser, me, len(taken)))
            if self.rules.elimination_trade_cards is EliminationTrade.TAKEN:
                self.turn_state = self.turn_state._replace(taken_cards=tuple(taken))
            taken.clear()
        self.battle = _new(Battle, (s, t, battle.attack_dice, battle.defend_dice, battle.stop_at, battle.attack_dice,
                                    moved, eliminated_now))
        self._check_win(events, self.opponent() if by_neutral else None)
        if eliminated_now and self.phase is not P.OVER:
            self._check_win_out_of_turn(events)
        if self.phase is not P.OVER:
            self.phase = P.OCCUPY

    def _occupy(self, action: Occupy, events: list[Event] | None) -> None:
        if self.phase is not P.OCCUPY:
            raise self.refusal(action, "nothing was conquered")
        count = self._count(action, action.count, "the count")
        low, high = self.occupy_range()
        battle = self.battle
        assert battle is not None
        if not low <= count <= high:
            raise self.refusal(action, f"move {low} to {high} armies into {self._tid(battle.target)}")
        if events is None:
            return
        s, t = battle.source, battle.target
        extra = count - self.armies[t]
        if extra:
            self.move_units(s, t, extra)
        events.append(_new(ArmiesMoved, (s, t, count)))
        self.phase = P.NEUTRAL_ATTACK if self.owner[s] == self.neutral else P.ATTACK
        self.battle = None
        # The conqueror may (or, over a hand limit, must) trade at once: any set, or (italian) only sets made of the
        # cards taken from the beaten player. valid_trades() answers for the elimination-trade phase.
        if battle.elimination_pending:
            self.phase = P.ELIMINATION_TRADE
            if self.valid_trades():
                rules = self.rules
                hand = len(self.hands[self.current])
                if rules.elimination_trade_hand and hand >= rules.elimination_trade_hand:
                    self.turn_state = self.turn_state._replace(forced_trade_down_to=rules.elimination_trade_down_to)
                events.append(PhaseStarted(self.current, P.ELIMINATION_TRADE))
            else:
                self.phase = P.ATTACK
                if self.turn_state.taken_cards:
                    self.turn_state = self.turn_state._replace(taken_cards=())
        self._check_win(events)
