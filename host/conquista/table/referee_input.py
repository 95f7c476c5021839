"""How the play modes (table/modes.py) read gestures: taps select, place and attack; the encoder sets a count; the
buttons confirm, end a phase or take back (physical dice typed in are table/modes.py's `TypingDice`).

Each function decides from the table (`Desk`) and the play mode's selection (`Selection`, a value) and returns the
selection to hold after the gesture (None: as it is); what it does to the game goes through the referee's methods
(`apply_action`, `illegal`, `refuse`, `undo_last`), which make the change, say the refusal or settle the next
phase. Where an action reads the selection (a blitz, a roll), the selection is held first. Pure: time is passed
in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.actions import Attack, Blitz, Defend, EndPhase, Fortify, Occupy, Place, Trade
from conquista.rules.choices import FortifyPath
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.table.gestures import Button
from conquista.table.referee_records import ATTACKING, PLACING, Selection
from conquista.table.wording import plural

if TYPE_CHECKING:
    from conquista.table.desk import Desk


Chosen = Selection | None   # the selection to hold after a gesture; None: as it is


def tap_occupy(referee: Desk, t: int, now: float) -> Chosen:
    """Moving in after a conquest: a tap on the target moves one more, on the source one fewer."""
    game = referee.game
    battle = game.battle
    if battle is None:
        referee.illegal(t, now, "not now")
        return None
    low, high = game.occupy_range()
    sel = referee.selection
    if t == battle.target:
        return sel.with_count(min(high, sel.count + 1))
    if t == battle.source:
        return sel.with_count(max(low, sel.count - 1))
    source, target = referee.territory_name(battle.source), referee.territory_name(battle.target)
    kind = "fleets" if game.sails(battle.source, battle.target) else "armies"
    referee.illegal(t, now, f"move {kind} from {source} into {target}")
    return None


def confirmed(referee: Desk, t: int) -> None:
    """A tap on a newly dealt territory: its army is on the board now (referee state only: nothing is placed)."""
    game = referee.game
    left = len(referee.dealt.blinking(game))
    more = f"; {left} more {'territory blinks' if left == 1 else 'territories blink'}" if left else ""
    referee.notice(f"{referee.territory_name(t)}: {referee.seat_name(game.owner[t])}'s army is on the board{more}")


def tap_place(referee: Desk, t: int, now: float, long: bool, me: int) -> Chosen:
    """A tap places one army; with fleets (lamorisse-1954) a long press places one fleet instead. The table's words
    for the usual refusals (another's territory, an empty pool, a fleet with no sea link) name the territory and the
    button to press, which the tests and the players know, and flash the territory; any other refusal is the
    engine's own reason (`Game.apply` checks the placement once), refused as `apply_action` refuses one."""
    game = referee.game
    fleet = long and game.rules.fleets
    words = _place_words(referee, t, me, fleet)
    if words:
        referee.illegal(t, now, words)
        return None
    if not referee.apply_action(Place(t, 1, True) if fleet else Place(t, 1), now):
        return None
    return referee.selection.placed(t, fleet)


def _place_words(referee: Desk, t: int, me: int, fleet: bool) -> str:
    """The table's words for a placement it refuses ("": none, the engine has the last word)."""
    game = referee.game
    if game.owner[t] != me:
        yours = "the neutral army's" if me == game.neutral else "yours"
        return f"{referee.territory_name(t)} is not {yours}"
    if not game.pool:
        return "no armies left to place: NEXT ends the phase"
    if fleet and not game.is_coastal(t):
        return f"{referee.territory_name(t)} has no sea link: a fleet needs one"
    return ""


def tap_fortify(referee: Desk, t: int, now: float) -> Chosen:
    """Tap the source, then the destination: the count starts at the most units that may move there."""
    game = referee.game
    sel = referee.selection
    if game.owner[t] != game.current:
        referee.illegal(t, now, f"{referee.territory_name(t)} is not yours")
        return None
    if t == sel.source:
        return sel.cleared()
    source, moved_on = sel.source, ""
    if source >= 0:
        # With a destination chosen, a territory with armies to spare becomes the new source (a change of mind);
        # one without can only be another destination.
        if game.fortify_allowed(source, t) and (sel.target < 0 or game.armies[t] < 2):
            return sel.with_target(t, game.movable(source, t))
        joined = game.fortify_path_open(source, t)
        if sel.target < 0 and _units_limited(game) and joined:
            # Joined and yours, but no unit of the link's kind may move (or all of them moved in this turn).
            referee.illegal(t, now, referee.readable(game.movable_words(source, t, 0)))
            return None
        # Not joined to the source: with no army to spare it can be no source either, so the refusal names the
        # cause (not "no army to spare", which sent players counting armies); with armies to spare it becomes the
        # source, and the words say why it did not become the destination.
        if not joined and game.armies[t] < 2:
            referee.illegal(t, now, _not_joined(referee, source, t))
            return None
        if not joined and sel.target < 0:
            moved_on = _not_joined(referee, source, t)
    if game.armies[t] < 2:
        referee.illegal(t, now, f"{referee.territory_name(t)} has no army to spare")
        return None
    if _units_limited(game) and not any(game.fortify_allowed(t, n) for n in game.map.neighbours[t]):
        name = referee.territory_name(t)
        referee.illegal(t, now, f"no unit may move from {name} to a territory of yours next "
                                f"to it (units that moved in this turn stay)")
        return None
    if moved_on:
        referee.notice(f"{moved_on}; {referee.territory_name(t)} is the source now")
    return sel.with_source(t)


def _not_joined(referee: Desk, source: int, t: int) -> str:
    """Why `t` cannot be the destination of a move from `source`, both the player's: the ruleset's path does not
    join them."""
    game = referee.game
    s_name, t_name = referee.territory_name(source), referee.territory_name(t)
    if game.rules.fortify_path is FortifyPath.ADJACENT:
        return f"{t_name} is not connected to {s_name}: a move goes to a neighbouring territory"
    return f"{t_name} is not connected to {s_name} through your territories"


def _units_limited(game: Game) -> bool:
    """Not every unit may move: fleets sail and armies march (lamorisse-1954), or units move once a turn."""
    return game.rules.fleets or game.rules.one_move_per_unit


def tap_attack(referee: Desk, t: int, now: float, long: bool, me: int) -> Chosen:
    """A tap in the attack phase (the player's, or the neutral army's with `me` its owner value): choose the
    source, then the target; a long press on the target blitzes at once."""
    game, owner = referee.game, referee.game.owner
    sel = referee.selection
    if owner[t] == me:
        if t == sel.source:
            referee.notice(f"{referee.territory_name(t)} deselected")
            return sel.cleared()
        if game.armies[t] < 2:
            referee.illegal(t, now, f"{referee.territory_name(t)} needs at least 2 armies to attack")
            return None
        return sel.with_source(t)
    if sel.source < 0:
        first = "a neutral territory" if me == game.neutral else "one of your territories"
        referee.illegal(t, now, f"tap {first} first")
        return None
    if not game.attack_allowed(sel.source, t):
        referee.illegal(t, now, referee.readable(game.check(Attack(sel.source, t, 1)) or "not now"))
        return None
    chosen = sel.with_target(t, game.max_attack_dice(sel.source))
    if not long:
        return chosen
    referee.hold(chosen)   # held before the blitz: what holds after it is the attack phase's to say (`settle`)
    blitz(referee, now)
    return None


def turn(referee: Desk, steps: int, now: float) -> Chosen:
    """The encoder turned `steps` (negative: back): more armies where the last were placed (back: placements
    taken back), or the count of dice or units."""
    game = referee.game
    phase = game.phase
    sel = referee.selection
    if phase in PLACING:
        return _turn_placing(referee, sel, steps, now)
    if phase in ATTACKING and sel.target >= 0:
        return sel.with_count(_clamp(sel.count + steps, 1, game.max_attack_dice(sel.source)))
    if phase is Phase.OCCUPY:
        return sel.with_count(_clamp(sel.count + steps, *game.occupy_range()))
    if phase is Phase.FORTIFY and sel.target >= 0:
        return sel.with_count(_clamp(sel.count + steps, 1, game.movable(sel.source, sel.target)))
    if phase is Phase.DEFEND and game.battle is not None:
        return sel.with_defence(_clamp(sel.defence + steps, 1, game.max_defend_dice(game.battle.target)))
    return None


def _turn_placing(referee: Desk, sel: Selection, steps: int, now: float) -> Chosen:
    game = referee.game
    if sel.last_placed >= 0 and game.owner[sel.last_placed] != game.acting_owner():
        # The last placement was another player's (a set-up batch passed on).
        sel = sel.placed(-1, sel.last_fleet)
        referee.hold(sel)
    if steps > 0 and sel.last_placed < 0:
        referee.refuse_quietly("tap a territory first: the encoder then places more armies there")
    elif steps > 0 and game.pool:
        count = min(steps, game.pool)
        t = sel.last_placed
        referee.apply_action(Place(t, count, True) if sel.last_fleet else Place(t, count), now)
    elif steps < 0:
        for _ in range(-steps):
            if not isinstance(referee.game.log[-1], Place) or not referee.undo_last():
                break
    return None


def press(referee: Desk, button: Button, now: float, held: bool) -> Chosen:
    """NEXT ends the phase, CANCEL takes back the selection or the last placement or move; ROLL confirms."""
    game = referee.game
    phase = game.phase
    sel = referee.selection
    if button is Button.NEXT:
        if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE, *ATTACKING, Phase.FORTIFY, Phase.NEUTRAL_REINFORCE):
            refused = game.check(EndPhase())
            if refused is not None:
                referee.refuse(now, referee.readable(refused))
                return None
            referee.hold(sel.cleared())
            referee.apply_action(EndPhase(), now)
        else:
            referee.refuse(now, _left_to_do(referee))
        return None
    if button is Button.CANCEL:
        # A selection is cancelled first; then the last placement or move of this turn is taken back.
        if sel.source >= 0 and phase in (*ATTACKING, Phase.FORTIFY):
            return sel.cleared()
        if not referee.undo_last():
            referee.refuse(now, "nothing to undo (a roll is never undone)")
        return None
    _roll(referee, sel, now, held)
    return None


def _left_to_do(referee: Desk) -> str:
    """What NEXT waits for in a step it cannot end: the step's own words, not "finish this step first"."""
    game = referee.game
    battle = game.battle
    if game.phase is Phase.SETUP:
        noun = "unit" if game.rules.fleets else "army"   # lamorisse-1954 places armies or fleets
        count, nouns = plural(game.pool, noun).split(" ", 1)    # "3", "armies"
        return f"place your {count} remaining {nouns} first"
    if game.phase is Phase.OCCUPY and battle is not None:
        kind = "fleets" if game.sails(battle.source, battle.target) else "armies"
        return (f"choose how many {kind} move into {referee.territory_name(battle.target)} first: turn to change, "
                f"ROLL confirms")
    if game.phase is Phase.DEFEND and battle is not None:
        defender = referee.seat_name(game.owner[battle.target])
        return f"{defender} chooses the dice defending {referee.territory_name(battle.target)} first: ROLL confirms"
    return "finish this step first"


def _roll(referee: Desk, sel: Selection, now: float, held: bool) -> None:
    """ROLL: confirm, or roll."""
    game = referee.game
    phase = game.phase
    if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
        if held:
            # A held ROLL is a blitz: after an elimination the player often still holds it for the next
            # attack, and cards must never be spent by a gesture meant for something else.
            return referee.refuse(now, "a held ROLL blitzes in the attack only: press ROLL briefly to trade cards")
        trades = game.valid_trades()
        if not trades:
            return referee.refuse(now, "no set of cards to trade")
        referee.apply_action(Trade(max(trades, key=game.trade_value)), now)
    elif phase in ATTACKING:
        if sel.target < 0:
            referee.refuse(now, "tap a source and a target first")
        elif held:
            blitz(referee, now)
        else:
            referee.apply_action(Attack(sel.source, sel.target, sel.count), now)
    elif phase is Phase.OCCUPY:
        referee.apply_action(Occupy(sel.count), now)
    elif phase is Phase.FORTIFY:
        if sel.target < 0:
            referee.refuse(now, "tap a source and a destination first")
        else:
            referee.apply_action(Fortify(sel.source, sel.target, sel.count), now)
    elif phase is Phase.DEFEND:
        referee.apply_action(Defend(sel.defence), now)
    else:
        referee.refuse(now, "nothing to confirm")


def blitz(referee: Desk, now: float) -> None:
    """A blitz with the dice the encoder chose (decided 2026-11-28); the most dice are saved as None, as every
    blitz was before the choice counted (the same rolls)."""
    sel = referee.selection
    dice = sel.count if sel.count < referee.game.max_attack_dice(sel.source) else None
    referee.apply_action(Blitz(sel.source, sel.target, 1, dice), now)


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))
