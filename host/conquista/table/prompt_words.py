"""The step the table waits for, in words: what the terminal, the phones and the public board show as "pending"."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from conquista.rules.engine import Game
from conquista.rules.events import PLACING_PHASES, Phase
from conquista.table.logview import game_over_reason
from conquista.table.referee_records import Selection
from conquista.table.unit_kinds import units
from conquista.table.wording import owner_name, plural

if TYPE_CHECKING:
    from conquista.table.table_state import TableState

POWER_QUESTION = "switch the board off? ROLL: yes, any other key: no"


def pending_text(referee: TableState) -> str:
    """The pending line: the mode's words (a question, the menu, dice typed in, the result, or the game's step)."""
    return referee.mode.pending(referee)


def game_over_pending(referee: TableState) -> str:
    game = referee.game
    assert game.winner is not None
    again = " · ROLL: a new game" if referee.new_game_offered else ""
    return f"{_colour(game, game.winner)} wins: {game_over_reason(game, game.winner, game.over_reason)}{again}"


def play_pending(referee: TableState) -> str:
    """The step the game waits for, in words."""
    game = referee.game
    phase = game.phase
    text = _phase_pending(referee, game, phase) + _dealt_pending(referee, game)
    to_move = game.to_move
    if game.neutral is not None and isinstance(to_move, int) and game.acting_owner() == game.neutral:
        return f"{_colour(game, to_move)} acts for the neutral army: {text}"  # the opponent acts for it
    return text


class PlayStep(Enum):
    """Where a play step stands, from the phase and the play mode's selection: what the player to move does next.
    The one home of that decision; the board's words (`play_pending`) and a phone's (web/phone_words.py) each say it
    in their own terms."""

    PLACE = "place"                # armies (or the neutral army's) to place, or all placed
    ATTACK_FROM = "attack from"    # tap a source
    ATTACK_TO = "attack to"        # a source chosen: tap a target
    ATTACK = "attack"              # both chosen: roll or blitz
    DEFEND = "defend"              # the defender chooses its dice
    OCCUPY = "occupy"              # armies move in after a conquest
    MOVE_FROM = "move from"        # fortify: tap a source
    MOVE_TO = "move to"            # a source chosen: tap a destination
    MOVE = "move"                  # both chosen: how many move
    NONE = "none"                  # a step no gesture makes


def play_step(game: Game, selection: Selection) -> PlayStep:
    phase = game.phase
    if phase in PLACING_PHASES:
        return PlayStep.PLACE
    if phase is Phase.ATTACK or phase is Phase.NEUTRAL_ATTACK:
        return _of_pair(selection, PlayStep.ATTACK_FROM, PlayStep.ATTACK_TO, PlayStep.ATTACK)
    if phase is Phase.DEFEND and game.battle is not None:
        return PlayStep.DEFEND
    if phase is Phase.OCCUPY and game.battle is not None:
        return PlayStep.OCCUPY
    if phase is Phase.FORTIFY:
        return _of_pair(selection, PlayStep.MOVE_FROM, PlayStep.MOVE_TO, PlayStep.MOVE)
    return PlayStep.NONE


def _of_pair(selection: Selection, none: PlayStep, source: PlayStep, both: PlayStep) -> PlayStep:
    return none if selection.source < 0 else source if selection.target < 0 else both


def territory_name(game: Game, t: int) -> str:
    return game.map.territories[t].name_en


def _phase_pending(referee: TableState, game: Game, phase: Phase) -> str:
    sel = referee.selection
    step = play_step(game, sel)
    if phase is Phase.NEUTRAL_REINFORCE:
        return f"place {plural(game.pool, 'army')} on neutral territories: tap them"
    if phase is Phase.NEUTRAL_ATTACK and step is PlayStep.ATTACK_FROM:
        return (f"tap a neutral territory to attack {_colour(game, game.current)} from, or NEXT to end the "
                f"neutral turn")
    source, target, count = sel.source, sel.target, sel.count
    battle = game.battle
    match step:
        case PlayStep.PLACE:   # the neutral army's placing was answered above
            trade = " · a set can be traded: ROLL" if phase is not Phase.SETUP and game.valid_trades() else ""
            forced = " (must trade)" if game.must_trade() else ""
            if game.pool and game.rules.fleets:
                return f"place {plural(game.pool, 'unit')} (tap: an army, long press: a fleet){trade}{forced}"
            if game.pool:
                return f"place {plural(game.pool, 'army')}: tap your territories{trade}{forced}"
            return f"NEXT ends the phase{trade}{forced}"
        case PlayStep.ATTACK_FROM:
            return "tap a territory to attack from, or NEXT to fortify"
        case PlayStep.ATTACK_TO:
            return f"from {_name(game, source)}: tap a territory to attack"
        case PlayStep.ATTACK:
            by_sea = " by sea, with fleets" if game.sails(source, target) else ""
            return (f"{_name(game, source)} → {_name(game, target)}{by_sea}: "
                    f"ROLL rolls {plural(count, 'die')}, hold ROLL to blitz with "
                    f"{'it' if count == 1 else 'them'}")
        case PlayStep.DEFEND if battle is not None:
            defender = _colour(game, game.owner[battle.target])
            # "turn to change" only where turning changes something (one army defends with one die).
            change = " (turn to change)" if game.max_defend_dice(battle.target) > 1 else ""
            return (f"{defender} defends {_name(game, battle.target)} against {_name(game, battle.source)}: "
                    f"{plural(sel.defence, 'die')}{change}, ROLL confirms")
        case PlayStep.OCCUPY if battle is not None:
            low, high = game.occupy_range()
            moved = units(game, count, battle.source, battle.target)
            return f"move {moved} into {_name(game, battle.target)}, from {low} to {high}: ROLL confirms"
        case PlayStep.MOVE_FROM:
            what = "units" if game.rules.fleets else "armies"
            return f"tap a territory to move {what} from, or NEXT to end the turn"
        case PlayStep.MOVE_TO:
            return f"from {_name(game, source)}: tap a destination"
        case PlayStep.MOVE:
            most = (f" (at most {game.movable(source, target)})" if game.rules.fleets or game.rules.one_move_per_unit
                    else "")
            return (f"move {units(game, count, source, target)}{most} from {_name(game, source)} to "
                    f"{_name(game, target)}: ROLL")
    return ""


def _dealt_pending(referee: TableState, game: Game) -> str:
    """Newly dealt territories blink until someone taps each to say its army is on the board."""
    blinking = len(referee.dealt.blinking(game))
    if not blinking:
        return ""
    what = "dealt territory blinks" if blinking == 1 else "dealt territories blink"
    return f" · {blinking} {what}: put an army on each and tap it"


_name = territory_name


def _colour(game: Game, seat: int | None) -> str:
    return owner_name(game, seat) if seat is not None else "nobody"  # "neutral" for the neutral army
