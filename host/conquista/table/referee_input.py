"""How the referee takes gestures: taps select, place and attack; the encoder sets a count; the buttons confirm, end
a phase or take back (physical dice typed in are table/modes.py's `TypingDice`). The part of `Referee`
(table/referee.py) that reads gestures, kept apart for size; the referee's own helpers (`_apply`, `_illegal`, ...)
do the work. Pure: time is passed in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.actions import Attack, Blitz, Defend, EndPhase, Fortify, Occupy, Place, Trade
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.table.gestures import Button
from conquista.table.referee_records import ATTACKING, PLACING

if TYPE_CHECKING:
    from conquista.table.desk import Desk


def tap_occupy(referee: Desk, t: int, now: float) -> None:
    """Moving in after a conquest: a tap on the target moves one more, on the source one fewer."""
    game = referee.game
    battle = game.battle
    if battle is None:
        return referee.illegal(t, now, "not now")
    low, high = game.occupy_range()
    if t == battle.target:
        referee.count = min(high, referee.count + 1)
    elif t == battle.source:
        referee.count = max(low, referee.count - 1)
    else:
        source, target = referee.territory_name(battle.source), referee.territory_name(battle.target)
        kind = "fleets" if game.sails(battle.source, battle.target) else "armies"
        referee.illegal(t, now, f"move {kind} from {source} into {target}")


def confirmed(referee: Desk, t: int) -> None:
    """A tap on a newly dealt territory: its army is on the board now (referee state only: nothing is placed)."""
    game = referee.game
    left = len(referee.dealt.blinking(game))
    more = f"; {left} more {'territory blinks' if left == 1 else 'territories blink'}" if left else ""
    referee.notice(f"{referee.territory_name(t)}: {referee.seat_name(game.owner[t])}'s army is on the board{more}")


def tap_place(referee: Desk, t: int, now: float, long: bool, me: int) -> None:
    """A tap places one army; with fleets (lamorisse-1954) a long press places one fleet instead."""
    game = referee.game
    if game.owner[t] != me:
        yours = "the neutral army's" if me == game.neutral else "yours"
        return referee.illegal(t, now, f"{referee.territory_name(t)} is not {yours}")
    if not game.pool:
        return referee.illegal(t, now, "no armies left to place: NEXT ends the phase")
    fleet = long and game.rules.fleets
    if fleet and not game.is_coastal(t):
        return referee.illegal(t, now, f"{referee.territory_name(t)} has no sea link: a fleet needs one")
    referee.apply_action(Place(t, 1, True) if fleet else Place(t, 1), now)
    referee.last_placed, referee.last_fleet = t, fleet


def tap_fortify(referee: Desk, t: int, now: float) -> None:
    """Tap the source, then the destination: the count starts at the most units that may move there."""
    game = referee.game
    if game.owner[t] != game.current:
        return referee.illegal(t, now, f"{referee.territory_name(t)} is not yours")
    if t == referee.source:
        return referee.clear_selection()
    source = referee.source
    if source >= 0 and referee.target < 0:
        if game.fortify_allowed(source, t):
            referee.target = t
            referee.count = game.movable(source, t)
            return
        if _units_limited(game) and game.map.adjacent(source, t):
            # Adjacent and yours, but no unit of the link's kind may move (or all of them moved in this turn).
            return referee.illegal(t, now, referee.readable(game.movable_words(source, t, 0)))
    if game.armies[t] < 2:
        return referee.illegal(t, now, f"{referee.territory_name(t)} has no army to spare")
    if _units_limited(game) and not any(game.fortify_allowed(t, n) for n in game.map.neighbours[t]):
        name = referee.territory_name(t)
        return referee.illegal(t, now, f"no unit may move from {name} to a territory of yours next "
                                        f"to it (units that moved in this turn stay)")
    referee.source, referee.target = t, -1


def _units_limited(game: Game) -> bool:
    """Not every unit may move: fleets sail and armies march (lamorisse-1954), or units move once a turn."""
    return game.rules.fleets or game.rules.one_move_per_unit


def tap_attack(referee: Desk, t: int, now: float, long: bool, me: int) -> None:
    """A tap in the attack phase (the player's, or the neutral army's with `me` its owner value): choose the
    source, then the target; a long press on the target blitzes at once."""
    game, owner = referee.game, referee.game.owner
    if owner[t] == me:
        if t == referee.source:
            referee.notice(f"{referee.territory_name(t)} deselected")
            return referee.clear_selection()
        if game.armies[t] < 2:
            return referee.illegal(t, now, f"{referee.territory_name(t)} needs at least 2 armies to attack")
        referee.source, referee.target = t, -1
        return
    if referee.source < 0:
        first = "a neutral territory" if me == game.neutral else "one of your territories"
        return referee.illegal(t, now, f"tap {first} first")
    if not game.attack_allowed(referee.source, t):
        return referee.illegal(t, now, referee.readable(game.check(Attack(referee.source, t, 1)) or "not now"))
    referee.target = t
    referee.count = game.max_attack_dice(referee.source)
    if long:
        blitz(referee, now)


def turn(referee: Desk, steps: int, now: float) -> None:
    game = referee.game
    phase = game.phase
    if phase in PLACING:
        if referee.last_placed >= 0 and game.owner[referee.last_placed] != game.acting_owner():
            referee.last_placed = -1   # the last placement was another player's (a set-up batch passed on)
        if steps > 0 and referee.last_placed < 0:
            referee.message = "tap a territory first: the encoder then places more armies there"
        elif steps > 0 and game.pool:
            count = min(steps, game.pool)
            fleet = referee.last_fleet
            t = referee.last_placed
            referee.apply_action(Place(t, count, True) if fleet else Place(t, count), now)
        elif steps < 0:
            for _ in range(-steps):
                if not isinstance(referee.game.log[-1], Place) or not referee.undo_last():
                    break
        return
    if phase in ATTACKING and referee.target >= 0:
        referee.count = _clamp(referee.count + steps, 1, game.max_attack_dice(referee.source))
    elif phase is Phase.OCCUPY:
        referee.count = _clamp(referee.count + steps, *game.occupy_range())
    elif phase is Phase.FORTIFY and referee.target >= 0:
        referee.count = _clamp(referee.count + steps, 1, game.movable(referee.source, referee.target))
    elif phase is Phase.DEFEND and game.battle is not None:
        referee.count = _clamp(referee.count + steps, 1, game.max_defend_dice(game.battle.target))


def press(referee: Desk, button: Button, now: float, held: bool) -> None:
    game = referee.game
    phase = game.phase
    if button is Button.NEXT:
        if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE, *ATTACKING, Phase.FORTIFY, Phase.NEUTRAL_REINFORCE):
            refused = game.check(EndPhase())
            if refused is not None:
                return referee.refuse(now, referee.readable(refused))
            referee.clear_selection()
            referee.apply_action(EndPhase(), now)
        else:
            referee.refuse(now, "finish this step first")
        return
    if button is Button.CANCEL:
        # A selection is cancelled first; then the last placement or move of this turn is taken back.
        if referee.source >= 0 and phase in (*ATTACKING, Phase.FORTIFY):
            referee.clear_selection()
        elif not referee.undo_last():
            referee.refuse(now, "nothing to undo (a roll is never undone)")
        return
    # ROLL: confirm, or roll.
    if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
        if held:
            # A held ROLL is a blitz: after an elimination the player often still holds it for the next
            # attack, and cards must never be spent by a gesture meant for something else.
            return referee.refuse(now, "a held ROLL blitzes in the attack only: press ROLL briefly to trade cards")
        trades = game.valid_trades()
        if not trades:
            referee.refuse(now, "no set of cards to trade")
            return
        referee.apply_action(Trade(max(trades, key=game.trade_value)), now)
    elif phase in ATTACKING:
        if referee.target < 0:
            referee.refuse(now, "tap a source and a target first")
        elif held:
            blitz(referee, now)
        else:
            referee.apply_action(Attack(referee.source, referee.target, referee.count), now)
    elif phase is Phase.OCCUPY:
        referee.apply_action(Occupy(referee.count), now)
    elif phase is Phase.FORTIFY:
        if referee.target < 0:
            referee.refuse(now, "tap a source and a destination first")
        else:
            referee.apply_action(Fortify(referee.source, referee.target, referee.count), now)
    elif phase is Phase.DEFEND:
        referee.apply_action(Defend(referee.count), now)
    else:
        referee.refuse(now, "nothing to confirm")


def blitz(referee: Desk, now: float) -> None:
    """A blitz with the dice the encoder chose (decided 2026-11-28); the most dice are saved as None, as every
    blitz was before the choice counted (the same rolls)."""
    chosen = referee.count
    dice = chosen if chosen < referee.game.max_attack_dice(referee.source) else None
    referee.apply_action(Blitz(referee.source, referee.target, 1, dice), now)


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))
