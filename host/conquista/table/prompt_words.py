"""The step the table waits for, in words: what the terminal, the phones and the public board show as "pending"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.engine import Game
from conquista.rules.events import PLACING_PHASES, Phase
from conquista.table.logview import game_over_reason
from conquista.table.unit_kinds import units
from conquista.table.wording import owner_name, plural

if TYPE_CHECKING:
    from conquista.table.desk import Desk

POWER_QUESTION = "switch the board off? ROLL: yes, any other key: no"


def pending_text(referee: Desk) -> str:
    """The pending line: the mode's words (a question, the menu, dice typed in, the result, or the game's step)."""
    return referee.mode.pending(referee)


def game_over_pending(referee: Desk) -> str:
    game = referee.game
    assert game.winner is not None
    again = " · ROLL: a new game" if referee.new_game_offered else ""
    return f"{_colour(game, game.winner)} wins: {game_over_reason(game, game.winner, game.over_reason)}{again}"


def play_pending(referee: Desk) -> str:
    """The step the game waits for, in words."""
    game = referee.game
    phase = game.phase
    text = _phase_pending(referee, game, phase) + _dealt_pending(referee, game)
    to_move = game.to_move
    if game.neutral is not None and isinstance(to_move, int) and game.acting_owner() == game.neutral:
        return f"{_colour(game, to_move)} acts for the neutral army: {text}"  # the opponent acts for it
    return text


def _phase_pending(referee: Desk, game: Game, phase: Phase) -> str:
    if phase is Phase.NEUTRAL_REINFORCE:
        return f"place {plural(game.pool, 'army')} on neutral territories: tap them"
    if phase is Phase.NEUTRAL_ATTACK and referee.source < 0:
        return (f"tap a neutral territory to attack {_colour(game, game.current)} from, or NEXT to end the "
                f"neutral turn")
    if phase in PLACING_PHASES:   # the neutral army's placing was answered above
        trade = " · a set can be traded: ROLL" if phase is not Phase.SETUP and game.valid_trades() else ""
        forced = " (must trade)" if game.must_trade() else ""
        if game.pool and game.rules.fleets:
            return f"place {plural(game.pool, 'unit')} (tap: an army, long press: a fleet){trade}{forced}"
        if game.pool:
            return f"place {plural(game.pool, 'army')}: tap your territories{trade}{forced}"
        return f"NEXT ends the phase{trade}{forced}"
    if phase is Phase.ATTACK or phase is Phase.NEUTRAL_ATTACK:
        if referee.source < 0:
            return "tap a territory to attack from, or NEXT to fortify"
        if referee.target < 0:
            return f"from {_name(game, referee.source)}: tap a territory to attack"
        by_sea = " by sea, with fleets" if game.sails(referee.source, referee.target) else ""
        return (f"{_name(game, referee.source)} → {_name(game, referee.target)}{by_sea}: "
                f"ROLL rolls {plural(referee.count, 'die')}, hold ROLL to blitz with "
                f"{'it' if referee.count == 1 else 'them'}")
    if phase is Phase.DEFEND and game.battle is not None:
        battle = game.battle
        defender = _colour(game, game.owner[battle.target])
        # "turn to change" only where turning changes something (one army defends with one die).
        change = " (turn to change)" if game.max_defend_dice(battle.target) > 1 else ""
        return (f"{defender} defends {_name(game, battle.target)} against {_name(game, battle.source)}: "
                f"{plural(referee.count, 'die')}{change}, ROLL confirms")
    if phase is Phase.OCCUPY and game.battle is not None:
        low, high = game.occupy_range()
        moved = units(game, referee.count, game.battle.source, game.battle.target)
        return f"move {moved} into {_name(game, game.battle.target)}, from {low} to {high}: ROLL confirms"
    if phase is Phase.FORTIFY:
        what = "units" if game.rules.fleets else "armies"
        if referee.source < 0:
            return f"tap a territory to move {what} from, or NEXT to end the turn"
        if referee.target < 0:
            return f"from {_name(game, referee.source)}: tap a destination"
        s, t = referee.source, referee.target
        most = f" (at most {game.movable(s, t)})" if game.rules.fleets or game.rules.one_move_per_unit else ""
        return f"move {units(game, referee.count, s, t)}{most} from {_name(game, s)} to {_name(game, t)}: ROLL"
    return ""


def _dealt_pending(referee: Desk, game: Game) -> str:
    """Newly dealt territories blink until someone taps each to say its army is on the board."""
    blinking = len(referee.dealt.blinking(game))
    if not blinking:
        return ""
    what = "dealt territory blinks" if blinking == 1 else "dealt territories blink"
    return f" · {blinking} {what}: put an army on each and tap it"


def _name(game: Game, t: int) -> str:
    return game.map.territories[t].name_en


def _colour(game: Game, seat: int | None) -> str:
    return owner_name(game, seat) if seat is not None else "nobody"  # "neutral" for the neutral army
