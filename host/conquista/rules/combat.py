"""The rules of a fight: an attack or a blitz, the defender's dice, each roll, the conquest and the move-in.
Pure: no I/O, no random, no clock.

Each action has a check (why it is refused, or None; changes nothing) and an apply (assumes a checked action,
appends the events). A roll is the hot path of every simulation: its check and its apply are kept lean.
"""

from __future__ import annotations

from typing import Final

from conquista.rules.actions import Attack, Blitz, Defend, Occupy, Roll
from conquista.rules.choices import EliminationTrade, Objective, OccupationMinimum
from conquista.rules.events import (
    PHASE_ATTACK,
    PHASE_DEFEND,
    PHASE_ELIMINATION_TRADE,
    PHASE_NEUTRAL_ATTACK,
    PHASE_OCCUPY,
    PHASE_OVER,
    PHASE_ROLL,
    ArmiesMoved,
    BattleRolled,
    Event,
    NeutralArmyDefeated,
    PhaseStarted,
    PlayerEliminated,
    TerritoryConquered,
)
from conquista.rules.position import Position, Steps, not_a_whole_number
from conquista.rules.state import Battle, TurnState
from conquista.rules.turns import check_win, check_win_out_of_turn

# The ruleset choices the hot steps test, bound once (as rules/events.py binds the phases): a member read
# from its Enum class costs a lookup through the class each time.
_TAKEN: Final = EliminationTrade.TAKEN
_WORLD: Final = Objective.WORLD
_LAST_DICE: Final = OccupationMinimum.LAST_DICE

# The records of every roll, attack and conquest are built with every field given, by tuple.__new__: a named tuple's
# own constructor is a Python function around that very call, and costs twice as much on the hottest path.
_new = tuple.__new__


# ------------------------------------------------------------------------------------------------------ attack

def check_attack(game: Position, action: Attack | Blitz) -> str | None:
    neutral = game.phase is PHASE_NEUTRAL_ATTACK
    if game.phase is not PHASE_ATTACK and not neutral:
        return "attacks happen in the attack phase"
    blitz = action.__class__ is Blitz or isinstance(action, Blitz)  # the exact class first: no call
    if blitz and not game.rules.blitz:
        return f"{game.rules.name} has no blitz"
    s, t, size = action.source, action.target, game.size
    if s.__class__ is not int or not 0 <= s < size:
        return game.not_a_territory(s)
    if t.__class__ is not int or not 0 <= t < size:
        return game.not_a_territory(t)
    if not game.attack_allowed(s, t):  # one query on the way of every attack; the words only for a refusal
        return attack_refusal(game, s, t)
    if isinstance(action, Attack):
        dice = action.dice
        if dice.__class__ is not int:
            return not_a_whole_number("dice", dice)
        if not 1 <= dice <= game.max_attack_dice(s):
            return f"attack with {_one_to(game.max_attack_dice(s))}"
    else:
        stop = action.stop_at
        if stop.__class__ is not int:
            return not_a_whole_number("the stop level", stop)
        if not 1 <= stop < game.armies[s]:
            return f"the stop level must be between 1 and {game.armies[s] - 1}"
        chosen = action.dice
        if chosen is not None and chosen.__class__ is not int:
            return not_a_whole_number("dice", chosen)
        if chosen is not None and not 1 <= chosen <= game.max_attack_dice(s):
            return f"blitz with {_one_to(game.max_attack_dice(s))}"
    return None


def apply_attack(game: Position, action: Attack | Blitz, events: list[Event]) -> None:
    s, t = action.source, action.target
    stop: int | None
    if isinstance(action, Attack):
        dice, stop = action.dice, None
    else:
        # The dice the attacker chose (decided 2026-11-28), or the most; the battle's attack dice then cap every
        # later roll of the blitz (apply_roll), which only ever lowers them as the armies left allow.
        most = game.armies[s] - 1  # max_attack_dice(s), asked on every blitz
        dice, stop = action.dice or (most if most < game.attacker_max else game.attacker_max), action.stop_at
    if not game.turn_state.attacked and game.phase is not PHASE_NEUTRAL_ATTACK:
        turn = game.turn_state
        game.turn_state = TurnState(turn.conquered, True, turn.fortifies_done, turn.forced_trade_down_to,
                                    turn.taken_cards, turn.arrived)
    # The battle made once, with its defence when that is rolled unasked (await_defence's choice).
    defend = _unasked_defence(game, t)
    game.battle = _new(Battle, (s, t, dice, defend, stop, None, None, False))
    game.phase = PHASE_ROLL if defend else PHASE_DEFEND


def attack_refusal(game: Position, s: int, t: int) -> str:
    """Why an attack from `s` on `t` is refused (for a pair `attack_allowed` refuses), in a player's words."""
    neutral = game.phase is PHASE_NEUTRAL_ATTACK
    attacker, whose = (game.neutral, "the neutral army's") if neutral else (game.current, "yours")
    tid = game.tid
    if game.owner[s] != attacker:
        return f"{tid(s)} is not {whose}"
    if game.armies[s] < 2:
        return f"{tid(s)} needs at least 2 armies to attack"
    if game.owner[t] < 0:
        return f"{tid(t)} has not been dealt yet: nobody holds it"
    if game.owner[t] == attacker:
        return f"{tid(t)} is {whose}"
    if neutral and game.owner[t] != game.current:
        return (f"{tid(t)} is not player {game.current + 1}'s: the neutral army attacks only the player "
                f"whose turn it is")
    if not game.map.adjacent(s, t):
        return f"{tid(t)} is not adjacent to {tid(s)}"
    if game.fleets_on and not game.units_for_link(s, t):
        return (f"{tid(s)} has no fleet to cross the sea to {tid(t)}: only fleets attack over sea"
                if game.map.is_sea_link(s, t) else
                f"{tid(s)} has no army to attack {tid(t)} over land: fleets attack only over sea")
    return (f"{tid(t)} is its owner's last territory: nobody may be eliminated before round "
            f"{game.rules.elimination_protection_rounds + 1}")


def await_defence(game: Position, battle: Battle) -> None:
    """The battle waits for the defender's choice of dice, or for the roll when there is no choice to ask."""
    defend = _unasked_defence(game, battle.target)
    if defend:
        game.battle = battle if battle.defend_dice == defend else _new(Battle, (
            battle.source, battle.target, battle.attack_dice, defend, battle.stop_at, None, None, False))
        game.phase = PHASE_ROLL
    else:
        game.battle = battle
        game.phase = PHASE_DEFEND


def _unasked_defence(game: Position, target: int) -> int:
    """The dice `target` defends with when they are rolled without a question, 0 when the defender is asked."""
    # A seat that left defends by itself, with the most dice, whatever the ruleset lets defenders choose (and
    # the neutral army when the opponent who chooses for it has left). One legal count of dice is no choice: it
    # is rolled without a question (decided 2026-11-26).
    defender = game.owner[target]
    armies = game.armies[target]
    defend = armies if armies < game.defender_max else game.defender_max
    if (game.automatic_defence or (defend == 1 and game.ask_on_choice)
            or (game.left[defender] if defender < game.players else game.neutral_commander_gone())):
        return defend
    return 0


def _defence_choice_kept(game: Position, target: int, before: int, after: int) -> bool:
    """In a blitz the defender is asked again only when the choice changes: the legal counts of dice (1 up to
    the most the armies allow) and [interpretation] the attacker's dice, which the defender hears before
    choosing (the caller compares those). `before` and `after` are the target's armies either side of the
    roll. A defender who left meanwhile is not kept to an earlier answer: they roll the most dice."""
    if game.defends_by_itself(game.owner[target]):
        return False
    most = game.defender_max
    return (before if before < most else most) == (after if after < most else most)


# ----------------------------------------------------------------------------------------------------- defence

def check_defend(game: Position, action: Defend) -> str | None:
    battle = game.battle
    if game.phase is not PHASE_DEFEND or battle is None:
        return "no defence is being chosen"
    dice = action.dice
    if dice.__class__ is not int:
        return not_a_whole_number("dice", dice)
    if not 1 <= dice <= game.max_defend_dice(battle.target):
        return f"defend with {_one_to(game.max_defend_dice(battle.target))}"
    return None


def apply_defend(game: Position, action: Defend, events: list[Event]) -> None:
    battle = game.battle
    assert battle is not None  # checked
    # Built directly: a named tuple's _replace costs twice as much, and every roll of a chosen defence comes here
    # (before the defence is chosen a battle has no conquest fields yet).
    game.battle = Battle(battle.source, battle.target, battle.attack_dice, action.dice, battle.stop_at)
    game.phase = PHASE_ROLL


# -------------------------------------------------------------------------------------------------------- roll

def check_roll(game: Position, action: Roll) -> str | None:
    battle = game.battle
    if game.phase is not PHASE_ROLL or battle is None:
        return "no battle roll is awaited"
    attack, defend = action.attack, action.defend
    if (attack.__class__ is not tuple or defend.__class__ is not tuple
            or len(attack) != battle.attack_dice or len(defend) != battle.defend_dice):
        return (f"this roll is {dice_count(battle.attack_dice, 'attack')} and "
                f"{dice_count(battle.defend_dice, 'defence')}")
    for die in attack:
        if die.__class__ is not int or not 0 < die < 7:
            return f"a die shows 1 to 6, not {die!r}"
    for die in defend:
        if die.__class__ is not int or not 0 < die < 7:
            return f"a die shows 1 to 6, not {die!r}"
    if action.source.__class__ is not str:
        return f"the dice source is a name, not {action.source!r}"
    return None


def apply_roll(game: Position, action: Roll, events: list[Event]) -> None:
    # The hot path of every simulation: losses from the resolver's table, no copies.
    battle = game.battle
    assert battle is not None  # checked
    if game.fleets_on:
        _roll_units(game, battle, action.attack, action.defend, events)
        return
    settle_roll(game, battle, action, game.resolve(action.attack, action.defend), events)


def settle_roll(game: Position, battle: Battle, action: Roll, losses: tuple[int, int],
                events: list[Event] | None) -> None:
    """A checked roll without fleets whose losses are known: `apply_roll`'s step, and the engine's for a ready roll
    (it has looked the dice up already). `events` None: a game that keeps no undo (`Game.drop_undo`) and returns no
    events, whose roll makes neither its event nor its two change records (thrown away at once, a roll every other
    step); a conquest's records and events are made as ever."""
    attack, defend = action.attack, action.defend
    s, t = battle.source, battle.target
    attacker_losses, defender_losses = losses
    # A void roll (ties re-rolled, rules/battle.py: no loss on either side) is logged, changes no army and leaves
    # the battle at this roll with the same dice, a single attack and a blitz alike (a defender who chose keeps
    # the choice). An automatic blitz stays at the roll by itself; the other two ways out check for it.
    armies = game.armies
    before_s, before_t = armies[s], armies[t]
    if events is not None:
        game.changes += (armies, s, before_s, armies, t, before_t)  # two changes recorded at once, as `change` would
    left = armies[s] = before_s - attacker_losses
    right = armies[t] = before_t - defender_losses
    game.lost_total += attacker_losses + defender_losses
    if events is not None:
        events.append(_new(BattleRolled, (s, t, attack, defend, attacker_losses, defender_losses, False, False)))
    if not right:
        _conquer(game, battle, events)
        return
    stop = battle.stop_at
    if stop is not None and left > stop and left >= 2:
        # Never more than the blitz rolled so far: the attacker's choice, lowered as the armies left require (the
        # most dice, for a blitz that took the most, is the same rule: armies only fall during a blitz).
        chosen = battle.attack_dice
        dice = left - 1 if left - 1 < chosen else chosen
        if game.automatic_defence:
            defender_max = game.defender_max
            defence = right if right < defender_max else defender_max
            if dice != battle.attack_dice or defence != battle.defend_dice:
                game.battle = _new(Battle, (s, t, dice, defence, stop, None, None, False))
            return  # the blitz rolls on: still a chance step
        if not attacker_losses and not defender_losses:
            return
        if game.ask_on_choice and dice == battle.attack_dice and _defence_choice_kept(game, t, before_t, right):
            return  # the same question as before the roll: the defender's answer stands, the blitz rolls on
        await_defence(game, battle if dice == battle.attack_dice else Battle(s, t, dice, battle.defend_dice, stop))
        return
    if not attacker_losses and not defender_losses:
        return
    game.battle = None
    game.phase = PHASE_NEUTRAL_ATTACK if game.owner[s] == game.neutral else PHASE_ATTACK


def _roll_units(game: Position, battle: Battle, attack: tuple[int, ...], defend: tuple[int, ...],
                events: list[Event]) -> None:
    """A roll with fleets on (one die each): the unit that fought on each side loses, a fleet's die counts less
    against an army (rules/fleet_battle.py). Otherwise as `apply_roll`."""
    s, t = battle.source, battle.target
    attack_fleet, defend_fleet = game.map.is_sea_link(s, t), game.defending_fleet(t)
    attacker_losses, defender_losses = game.fleet_resolvers[attack_fleet, defend_fleet](attack, defend)
    armies, fleets = game.armies, game.fleets
    if attacker_losses:
        game.change(armies, s, armies[s] - attacker_losses)
        if attack_fleet:
            game.change(fleets, s, fleets[s] - attacker_losses)
    if defender_losses:
        game.change(armies, t, armies[t] - defender_losses)
        if defend_fleet:
            game.change(fleets, t, fleets[t] - defender_losses)
    game.lost_total += attacker_losses + defender_losses
    events.append(BattleRolled(s, t, attack, defend, attacker_losses, defender_losses, attack_fleet,
                               defend_fleet))
    if not armies[t]:
        _conquer(game, battle, events)
        return
    void = not attacker_losses and not defender_losses
    stop = battle.stop_at
    if stop is not None and armies[s] > stop and armies[s] >= 2 and game.units_for_link(s, t):
        if not game.automatic_defence and not void:
            await_defence(game, battle)
        return  # the blitz rolls on (one die each: the dice never change)
    if void:
        return
    game.battle = None
    game.phase = PHASE_ATTACK


def _conquer(game: Position, battle: Battle, events: list[Event] | None) -> None:
    """`events` None, as `settle_roll` was given: no conquest event and no records of its changes of owner, counts
    and armies (a game without undo); what follows a conquest (an elimination, a win) is made as ever."""
    s, t = battle.source, battle.target
    me = game.owner[s]  # the current player, or the neutral army in its turn
    by_neutral = me == game.neutral
    loser = game.owner[t]
    moved = battle.attack_dice if game.rules.occupation_minimum is _LAST_DICE else 1
    owner, counts, armies = game.owner, game.territory_count, game.armies
    units_apart = game.fleets_on or game.one_move  # fleets or arrivals to keep: `move_units` moves the units
    quiet = events is None
    if events is None:
        events = []  # for what follows a conquest; the conquest itself is neither recorded nor told
        if not units_apart:
            armies[s] -= moved
            armies[t] += moved
    elif units_apart:
        # The three changes recorded at once, as `change` would (a conquest ends every other blitz).
        game.changes += (owner, t, loser, counts, me, counts[me], counts, loser, counts[loser])
    else:
        # ... and the move-in's two after them, as `move_units` records them for armies alone.
        game.changes += (owner, t, loser, counts, me, counts[me], counts, loser, counts[loser],
                         armies, s, armies[s], armies, t, armies[t])
        armies[s] -= moved
        armies[t] += moved
    owner[t] = me
    counts[me] += 1
    counts[loser] -= 1
    if units_apart:
        game.move_units(s, t, moved)  # the target is empty: it holds what moved in
    if not by_neutral:
        game.turn_conquests += 1  # the tournament's closing roll is skipped after more than two
    if not game.turn_state.conquered and not by_neutral:  # a neutral conquest earns no card
        turn = game.turn_state
        game.turn_state = TurnState(True, turn.attacked, turn.fortifies_done, turn.forced_trade_down_to,
                                    turn.taken_cards, turn.arrived)
    if not quiet:
        events.append(_new(TerritoryConquered, (t, s, me, loser, moved)))
    eliminated_now = counts[loser] == 0
    if eliminated_now and loser == game.neutral:
        eliminated_now = False  # from now on a plain duel
        events.append(NeutralArmyDefeated(me))
    if eliminated_now and by_neutral:
        game.change(game.eliminated, loser, True)
        game.change(game.eliminated_by, loser, me)
        events.append(PlayerEliminated(loser, me, 0))  # the neutral army takes no cards
        eliminated_now = False
    elif eliminated_now:
        game.change(game.eliminated, loser, True)
        game.change(game.eliminated_by, loser, me)
        taken = game.hands[loser]
        game.keep(taken)
        game.keep(game.hands[me])
        game.hands[me].extend(taken)
        events.append(PlayerEliminated(loser, me, len(taken)))
        if game.rules.elimination_trade_cards is _TAKEN:
            game.turn_state = game.turn_state._replace(taken_cards=tuple(taken))
        taken.clear()
    game.battle = _new(Battle, (s, t, battle.attack_dice, battle.defend_dice, battle.stop_at, battle.attack_dice,
                                moved, eliminated_now))
    # World domination without a neutral army is won only when the conqueror's territories and the undealt ones
    # make the whole board: short of that `check_win` could find nothing, and its call is not made (every conquest).
    if (by_neutral or game.neutral is not None or game.rules.objective is not _WORLD
            or counts[me] + len(game.undealt) >= game.size):
        check_win(game, events, game.opponent() if by_neutral else None)
    if eliminated_now and game.phase is not PHASE_OVER:
        check_win_out_of_turn(game, events)
    if game.phase is not PHASE_OVER:
        game.phase = PHASE_OCCUPY


# ----------------------------------------------------------------------------------------------------- move-in

def check_occupy(game: Position, action: Occupy) -> str | None:
    if game.phase is not PHASE_OCCUPY:
        return "nothing was conquered"
    count = action.count
    if count.__class__ is not int:
        return not_a_whole_number("the count", count)
    battle = game.battle
    assert battle is not None
    # `occupy_range()` without the call for armies alone (the occupy phase is checked, a conquest set occupy_min).
    if battle.occupy_min is None or game.fleets_on:
        low, high = game.occupy_range()
    else:
        armies = game.armies
        low, high = battle.occupy_min, armies[battle.source] + armies[battle.target] - 1
    if not low <= count <= high:
        return f"move {low} to {high} armies into {game.tid(battle.target)}"
    return None


def apply_occupy(game: Position, action: Occupy, events: list[Event]) -> None:
    battle = game.battle
    assert battle is not None  # checked
    count = action.count
    s, t = battle.source, battle.target
    armies = game.armies
    extra = count - armies[t]
    if extra and (game.fleets_on or game.one_move):
        game.move_units(s, t, extra)
    elif extra:  # armies alone: `move_units`'s two changes, recorded as it records them
        game.changes += (armies, s, armies[s], armies, t, armies[t])
        armies[s] -= extra
        armies[t] += extra
    events.append(_new(ArmiesMoved, (s, t, count)))
    game.phase = PHASE_NEUTRAL_ATTACK if game.owner[s] == game.neutral else PHASE_ATTACK
    game.battle = None
    # The conqueror may (or, over a hand limit, must) trade at once: any set, or (italian) only sets made of the
    # cards taken from the beaten player. valid_trades() answers for the elimination-trade phase.
    if battle.elimination_pending:
        game.phase = PHASE_ELIMINATION_TRADE
        if game.valid_trades():
            rules = game.rules
            hand = len(game.hands[game.current])
            if rules.elimination_trade_hand and hand >= rules.elimination_trade_hand:
                game.turn_state = game.turn_state._replace(forced_trade_down_to=rules.elimination_trade_down_to)
            events.append(PhaseStarted(game.current, PHASE_ELIMINATION_TRADE))
        else:
            game.phase = PHASE_ATTACK
            if game.turn_state.taken_cards:
                game.turn_state = game.turn_state._replace(taken_cards=())
    # A move-in changes no territory's owner: world domination was asked of the same seat with the same counts at
    # the conquest (`_conquer`), unless the neutral army conquered (it asks for its commander). A mission may count
    # armies.
    if game.rules.objective is not _WORLD or game.neutral is not None:
        check_win(game, events)


STEPS: Steps = {Attack: (check_attack, apply_attack), Blitz: (check_attack, apply_attack),
                Defend: (check_defend, apply_defend), Roll: (check_roll, apply_roll),
                Occupy: (check_occupy, apply_occupy)}


def dice_count(count: int, which: str = "") -> str:
    """"1 die", "3 dice" ("1 attack die" with `which`)."""
    return f"{count} {which + ' ' if which else ''}{'die' if count == 1 else 'dice'}"


def _one_to(most: int) -> str:
    """The dice one may choose: "1 die" when one is all there is, else "1 to 3 dice"."""
    return "1 die" if most == 1 else f"1 to {most} dice"
