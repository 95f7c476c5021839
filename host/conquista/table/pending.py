"""The step the table waits for, in words: what the terminal, the phones and the public board show as "pending"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.table.logview import game_over_reason
from conquista.table.wording import owner_name, plural

if TYPE_CHECKING:
    from conquista.table.referee import Referee

POWER_QUESTION = "switch the board off? ROLL: yes, any other key: no"


def pending_text(referee: Referee) -> str:
    game = referee.game
    phase = game.phase
    if referee.power_question:
        return POWER_QUESTION
    if referee.prompt:
        return referee.prompt
    if referee.menu is not None:
        return referee.menu.describe()
    if game.winner is not None:
        return f"{_colour(game, game.winner)} wins: {game_over_reason(game, game.winner, game.over_reason)}"
    if referee.entry is not None:
        return (f"enter die {len(referee.entry.values) + 1} of {referee.entry.needed}: {referee.entry.current} "
                f"(turn to change, ROLL confirms)")
    text = _phase_pending(referee, game, phase)
    to_move = game.to_move
    if game.neutral is not None and isinstance(to_move, int) and game.acting_owner() == game.neutral:
        return f"{_colour(game, to_move)} acts for the neutral army: {text}"  # the opponent acts for it
    return text


def _phase_pending(referee: Referee, game: Game, phase: Phase) -> str:
    if phase is Phase.NEUTRAL_REINFORCE:
        return f"place {plural(game.pool, 'army')} on neutral territories: tap them"
    if phase is Phase.NEUTRAL_ATTACK and referee.source < 0:
        return (f"tap a neutral territory to attack {_colour(game, game.current)} from, or NEXT to end the "
                f"neutral turn")
    if phase in (Phase.SETUP, Phase.REINFORCE, Phase.ELIMINATION_TRADE):
        trade = " · a set can be traded: ROLL" if phase is not Phase.SETUP and game.valid_trades() else ""
        forced = " (must trade)" if game.must_trade() else ""
        if game.pool:
            return f"place {plural(game.pool, 'army')}: tap your territories{trade}{forced}"
        return f"NEXT ends the phase{trade}{forced}"
    if phase is Phase.ATTACK or phase is Phase.NEUTRAL_ATTACK:
        if referee.source < 0:
            return "tap a territory to attack from, or NEXT to fortify"
        if referee.target < 0:
            return f"from {_name(game, referee.source)}: tap a territory to attack"
        return (f"{_name(game, referee.source)} → {_name(game, referee.target)}: "
                f"ROLL rolls {plural(referee.count, 'die')}, hold ROLL to blitz")
    if phase is Phase.DEFEND and game.battle is not None:
        battle = game.battle
        defender = _colour(game, game.owner[battle.target])
        return (f"{defender} defends {_name(game, battle.target)} against {_name(game, battle.source)}: "
                f"{plural(referee.count, 'die')} (turn to change), ROLL confirms")
    if phase is Phase.OCCUPY and game.battle is not None:
        low, high = game.occupy_range()
        return (f"move {plural(referee.count, 'army')} into {_name(game, game.battle.target)}, from {low} to {high}: "
                f"ROLL confirms")
    if phase is Phase.FORTIFY:
        if referee.source < 0:
            return "tap a territory to move armies from, or NEXT to end the turn"
        if referee.target < 0:
            return f"from {_name(game, referee.source)}: tap a destination"
        return (f"move {plural(referee.count, 'army')} from {_name(game, referee.source)} to "
                f"{_name(game, referee.target)}: ROLL")
    return ""


def _name(game: Game, t: int) -> str:
    return game.map.territories[t].name_en


def _colour(game: Game, seat: int | None) -> str:
    return owner_name(game, seat) if seat is not None else "nobody"  # "neutral" for the neutral army
