"""How the play modes (table/modes.py) read gestures: taps select, place and attack; the encoder sets a count; the
buttons confirm, end a phase or take back (physical dice typed in are table/modes.py's `TypingDice`).

Each function reads the table's state (table/table_state.py: the game and the play mode's selection, values) and
returns what the table does (table/decisions.py): the selection to hold, the action to apply, the refusal to say,
the undo; the table's step carries it out, settling the next phase after an action. Where an action reads the
selection (a blitz, a roll), the selection is held first. Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.actions import Attack, Blitz, Defend, EndPhase, Fortify, Occupy, Place, Trade
from conquista.rules.choices import FortifyPath
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.table.decisions import (
    Apply,
    Confirmed,
    Decisions,
    Hold,
    Illegal,
    Notice,
    Placed,
    Refuse,
    Undo,
    UndoPlacements,
)
from conquista.table.gestures import Button
from conquista.table.referee_records import ATTACKING, PLACING, Selection
from conquista.table.wording import plural

if TYPE_CHECKING:
    from conquista.table.table_state import TableState

NOTHING: Decisions = ()


def _hold(selection: Selection) -> Decisions:
    return (Hold(selection),)


def tap_occupy(state: TableState, t: int) -> Decisions:
    """Moving in after a conquest: a tap on the target moves one more, on the source one fewer."""
    game = state.game
    battle = game.battle
    if battle is None:
        return (Illegal(t, "not now"),)
    low, high = game.occupy_range()
    sel = state.selection
    if t == battle.target:
        return _hold(sel.with_count(min(high, sel.count + 1)))
    if t == battle.source:
        return _hold(sel.with_count(max(low, sel.count - 1)))
    source, target = state.territory_name(battle.source), state.territory_name(battle.target)
    kind = "fleets" if game.sails(battle.source, battle.target) else "armies"
    return (Illegal(t, f"move {kind} from {source} into {target}"),)


def confirmed(state: TableState, t: int) -> Decisions:
    """A tap on a newly dealt territory: its army is on the board now (the table's own: nothing is placed)."""
    game = state.game
    left = len(state.dealt.confirm(game, t)[0].blinking(game))
    more = f"; {left} more {'territory blinks' if left == 1 else 'territories blink'}" if left else ""
    return (Confirmed(t), Notice(f"{state.territory_name(t)}: {state.seat_name(game.owner[t])}'s army is on the "
                                 f"board{more}"))


def tap_place(state: TableState, t: int, long: bool, me: int) -> Decisions:
    """A tap places one army; with fleets (lamorisse-1954) a long press places one fleet instead. The table's words
    for the usual refusals (another's territory, an empty pool, a fleet with no sea link) name the territory and the
    button to press, which the tests and the players know, and flash the territory; any other refusal is the
    engine's own reason (`Game.apply` checks the placement once), refused as `apply_action` refuses one."""
    game = state.game
    fleet = long and game.rules.fleets
    words = _place_words(state, t, me, fleet)
    if words:
        return (Illegal(t, words),)
    return Apply(Place(t, 1, True) if fleet else Place(t, 1)), Placed(t, fleet)


def _place_words(state: TableState, t: int, me: int, fleet: bool) -> str:
    """The table's words for a placement it refuses ("": none, the engine has the last word)."""
    game = state.game
    if game.owner[t] != me:
        yours = "the neutral army's" if me == game.neutral else "yours"
        return f"{state.territory_name(t)} is not {yours}"
    if not game.pool:
        return "no armies left to place: NEXT ends the phase"
    if fleet and not game.is_coastal(t):
        return f"{state.territory_name(t)} has no sea link: a fleet needs one"
    return ""


def tap_fortify(state: TableState, t: int) -> Decisions:
    """Tap the source, then the destination: the count starts at the most units that may move there."""
    game = state.game
    sel = state.selection
    if game.owner[t] != game.current:
        return (Illegal(t, f"{state.territory_name(t)} is not yours"),)
    if t == sel.source:
        return _hold(sel.cleared())
    source, moved_on = sel.source, ""
    if source >= 0:
        # With a destination chosen, a territory with armies to spare becomes the new source (a change of mind);
        # one without can only be another destination.
        if game.fortify_allowed(source, t) and (sel.target < 0 or game.armies[t] < 2):
            return _hold(sel.with_target(t, game.movable(source, t)))
        joined = game.fortify_path_open(source, t)
        if sel.target < 0 and _units_limited(game) and joined:
            # Joined and yours, but no unit of the link's kind may move (or all of them moved in this turn).
            return (Illegal(t, state.readable(game.movable_words(source, t, 0))),)
        # Not joined to the source: with no army to spare it can be no source either, so the refusal names the
        # cause (not "no army to spare", which sent players counting armies); with armies to spare it becomes the
        # source, and the words say why it did not become the destination.
        if not joined and game.armies[t] < 2:
            return (Illegal(t, _not_joined(state, source, t)),)
        if not joined and sel.target < 0:
            moved_on = _not_joined(state, source, t)
    if game.armies[t] < 2:
        return (Illegal(t, f"{state.territory_name(t)} has no army to spare"),)
    if _units_limited(game) and not any(game.fortify_allowed(t, n) for n in game.map.neighbours[t]):
        name = state.territory_name(t)
        return (Illegal(t, f"no unit may move from {name} to a territory of yours next "
                             f"to it (units that moved in this turn stay)"),)
    if moved_on:
        return Notice(f"{moved_on}; {state.territory_name(t)} is the source now"), Hold(sel.with_source(t))
    return _hold(sel.with_source(t))


def _not_joined(state: TableState, source: int, t: int) -> str:
    """Why `t` cannot be the destination of a move from `source`, both the player's: the ruleset's path does not
    join them."""
    game = state.game
    s_name, t_name = state.territory_name(source), state.territory_name(t)
    if game.rules.fortify_path is FortifyPath.ADJACENT:
        return f"{t_name} is not connected to {s_name}: a move goes to a neighbouring territory"
    return f"{t_name} is not connected to {s_name} through your territories"


def _units_limited(game: Game) -> bool:
    """Not every unit may move: fleets sail and armies march (lamorisse-1954), or units move once a turn."""
    return game.rules.fleets or game.rules.one_move_per_unit


def tap_attack(state: TableState, t: int, long: bool, me: int) -> Decisions:
    """A tap in the attack phase (the player's, or the neutral army's with `me` its owner value): choose the
    source, then the target; a long press on the target blitzes at once."""
    game, owner = state.game, state.game.owner
    sel = state.selection
    if owner[t] == me:
        if t == sel.source:
            return Notice(f"{state.territory_name(t)} deselected"), Hold(sel.cleared())
        if game.armies[t] < 2:
            return (Illegal(t, f"{state.territory_name(t)} needs at least 2 armies to attack"),)
        return _hold(sel.with_source(t))
    if sel.source < 0:
        first = "a neutral territory" if me == game.neutral else "one of your territories"
        return (Illegal(t, f"tap {first} first"),)
    if not game.attack_allowed(sel.source, t):
        return (Illegal(t, state.readable(game.check(Attack(sel.source, t, 1)) or "not now")),)
    chosen = sel.with_target(t, game.max_attack_dice(sel.source))
    if not long:
        return _hold(chosen)
    # Held before the blitz: what holds after it is the attack phase's to say (`settle`).
    return Hold(chosen), blitz(game, chosen)


def turn(state: TableState, steps: int) -> Decisions:
    """The encoder turned `steps` (negative: back): more armies where the last were placed (back: placements
    taken back), or the count of dice or units."""
    game = state.game
    phase = game.phase
    sel = state.selection
    if phase in PLACING:
        return _turn_placing(state, sel, steps)
    if phase in ATTACKING and sel.target >= 0:
        return _hold(sel.with_count(_clamp(sel.count + steps, 1, game.max_attack_dice(sel.source))))
    if phase is Phase.OCCUPY:
        return _hold(sel.with_count(_clamp(sel.count + steps, *game.occupy_range())))
    if phase is Phase.FORTIFY and sel.target >= 0:
        return _hold(sel.with_count(_clamp(sel.count + steps, 1, game.movable(sel.source, sel.target))))
    if phase is Phase.DEFEND and game.battle is not None:
        return _hold(sel.with_defence(_clamp(sel.defence + steps, 1, game.max_defend_dice(game.battle.target))))
    return NOTHING


def _turn_placing(state: TableState, sel: Selection, steps: int) -> Decisions:
    game = state.game
    held: Decisions = NOTHING
    if sel.last_placed >= 0 and game.owner[sel.last_placed] != game.acting_owner():
        # The last placement was another player's (a set-up batch passed on).
        sel = sel.placed(-1, sel.last_fleet)
        held = (Hold(sel),)
    if steps > 0 and sel.last_placed < 0:
        return *held, Refuse("tap a territory first: the encoder then places more armies there", quiet=True)
    if steps > 0 and game.pool:
        count = min(steps, game.pool)
        t = sel.last_placed
        return *held, Apply(Place(t, count, True) if sel.last_fleet else Place(t, count))
    if steps < 0:
        return *held, UndoPlacements(-steps)
    return held


def press(state: TableState, button: Button, held: bool) -> Decisions:
    """NEXT ends the phase, CANCEL takes back the selection or the last placement or move; ROLL confirms."""
    game = state.game
    phase = game.phase
    sel = state.selection
    if button is Button.NEXT:
        if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE, *ATTACKING, Phase.FORTIFY, Phase.NEUTRAL_REINFORCE):
            refused = game.check(EndPhase())
            if refused is not None:
                return (Refuse(state.readable(refused)),)
            return Hold(sel.cleared()), Apply(EndPhase())
        return (Refuse(_left_to_do(state)),)
    if button is Button.CANCEL:
        # A selection is cancelled first; then the last placement or move of this turn is taken back.
        if sel.source >= 0 and phase in (*ATTACKING, Phase.FORTIFY):
            return _hold(sel.cleared())
        return (Undo("nothing to undo (a roll is never undone)"),)
    return _roll(state, sel, held)


def _left_to_do(state: TableState) -> str:
    """What NEXT waits for in a step it cannot end: the step's own words, not "finish this step first"."""
    game = state.game
    battle = game.battle
    if game.phase is Phase.SETUP:
        noun = "unit" if game.rules.fleets else "army"   # lamorisse-1954 places armies or fleets
        count, nouns = plural(game.pool, noun).split(" ", 1)    # "3", "armies"
        return f"place your {count} remaining {nouns} first"
    if game.phase is Phase.OCCUPY and battle is not None:
        kind = "fleets" if game.sails(battle.source, battle.target) else "armies"
        return (f"choose how many {kind} move into {state.territory_name(battle.target)} first: turn to change, "
                f"ROLL confirms")
    if game.phase is Phase.DEFEND and battle is not None:
        defender = state.seat_name(game.owner[battle.target])
        return f"{defender} chooses the dice defending {state.territory_name(battle.target)} first: ROLL confirms"
    return "finish this step first"


def _roll(state: TableState, sel: Selection, held: bool) -> Decisions:
    """ROLL: confirm, or roll."""
    game = state.game
    phase = game.phase
    if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
        if held:
            # A held ROLL is a blitz: after an elimination the player often still holds it for the next
            # attack, and cards must never be spent by a gesture meant for something else.
            return (Refuse("a held ROLL blitzes in the attack only: press ROLL briefly to trade cards"),)
        trades = game.valid_trades()
        if not trades:
            return (Refuse("no set of cards to trade"),)
        return (Apply(Trade(max(trades, key=game.trade_value))),)
    if phase in ATTACKING:
        if sel.target < 0:
            return (Refuse("tap a source and a target first"),)
        if held:
            return (blitz(game, sel),)
        return (Apply(Attack(sel.source, sel.target, sel.count)),)
    if phase is Phase.OCCUPY:
        return (Apply(Occupy(sel.count)),)
    if phase is Phase.FORTIFY:
        if sel.target < 0:
            return (Refuse("tap a source and a destination first"),)
        return (Apply(Fortify(sel.source, sel.target, sel.count)),)
    if phase is Phase.DEFEND:
        return (Apply(Defend(sel.defence)),)
    return (Refuse("nothing to confirm"),)


def blitz(game: Game, sel: Selection) -> Apply:
    """A blitz with the dice the encoder chose (decided 2026-11-28); the most dice are saved as None, as every
    blitz was before the choice counted (the same rolls)."""
    dice = sel.count if sel.count < game.max_attack_dice(sel.source) else None
    return Apply(Blitz(sel.source, sel.target, 1, dice))


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))
