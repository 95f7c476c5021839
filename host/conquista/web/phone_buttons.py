"""Which of a seat's buttons do something now, and what each is called (issue 29): a phone offers only those, named
by what they do ("Move 3 in", "End attack"), in fixed places so the pad does not jump as the phase changes.

The slots are the board's buttons and its encoder: `roll` (confirm or roll), `blitz`, `cancel` (clear the selection,
or take back a placement), `less` and `more` (the encoder's turns), `all` (turn as far as the count goes) and NEXT
(end the phase) in one of three slots by the phase it ends: `end_place`, `end_attack`, `end_turn` (issue 40). Each
end of a phase has its own place, never where the step before it had a button, so a double tap on "End
reinforcement" never ends the attack too. What each does is the referee's (table/referee_input.py); this only says
which act and how.
"""

from __future__ import annotations

from conquista.rules.actions import EndPhase
from conquista.rules.engine import Game
from conquista.rules.events import PLACING_PHASES, Phase
from conquista.table.table_view import TableView
from conquista.table.unit_kinds import units
from conquista.table.wording import plural

ATTACKING = (Phase.ATTACK, Phase.NEUTRAL_ATTACK)
END_WORDS = {Phase.REINFORCE: "End reinforcement", Phase.NEUTRAL_REINFORCE: "Done placing",
             Phase.ELIMINATION_TRADE: "Done trading", Phase.ATTACK: "End attack",
             Phase.NEUTRAL_ATTACK: "End the neutral attack", Phase.FORTIFY: "End turn"}
END_SLOTS = {Phase.REINFORCE: "end_place", Phase.NEUTRAL_REINFORCE: "end_place", Phase.ELIMINATION_TRADE: "end_place",
             Phase.ATTACK: "end_attack", Phase.NEUTRAL_ATTACK: "end_attack", Phase.FORTIFY: "end_turn"}


def seat_buttons(table: TableView, seat: int) -> dict[str, str]:
    """The slots that act now for `seat`, each with its label; none while the seat is not to move."""
    game = table.game
    if game.to_move != seat or game.over:
        return {}
    if table.answering:
        return {"roll": "Yes", "cancel": "No"}
    if not table.in_play:      # the set-up menu, a fault, dice typed in at the board: nothing from here
        return {}
    phase = game.phase
    out: dict[str, str] = {}
    if phase in END_WORDS and game.check(EndPhase()) is None:
        out[END_SLOTS[phase]] = END_WORDS[phase]
    if phase in PLACING_PHASES:
        if table.can_undo:
            out["cancel"] = "Take back"
            out["less"] = "−"
        last = table.selection.last_placed
        if game.pool and last >= 0 and game.owner[last] == game.acting_owner():
            out["more"] = "+"
            out["all"] = "all"
        return out
    if phase in ATTACKING:
        if table.source >= 0:
            out["cancel"] = "Cancel"
        if table.target >= 0:
            out["roll"] = f"Roll {plural(table.selection.count, 'die')}"
            out["blitz"] = "Blitz"
            _counts(out, table.selection.count, game.max_attack_dice(table.source))
        return out
    if phase is Phase.DEFEND and game.battle is not None:
        out["roll"] = f"Defend with {plural(table.defence, 'die')}"
        _counts(out, table.defence, game.max_defend_dice(game.battle.target))
        return out
    if phase is Phase.OCCUPY and game.battle is not None:
        low, high = game.occupy_range()
        out["roll"] = f"Move {_moved(game, table.selection.count, game.battle.source, game.battle.target)} in"
        _counts(out, table.selection.count, high, low)
        return out
    if phase is Phase.FORTIFY:
        if table.source >= 0:
            out["cancel"] = "Cancel"
        elif table.can_undo:
            out["cancel"] = "Take back"
        if table.target >= 0:
            out["roll"] = f"Move {_moved(game, table.selection.count, table.source, table.target)}"
            _counts(out, table.selection.count, game.movable(table.source, table.target))
    return out


def _counts(out: dict[str, str], count: int, high: int, low: int = 1) -> None:
    """− and + where the count can still go down or up, and "all" (the most) where it is not the most yet."""
    if count > low:
        out["less"] = "−"
    if count < high:
        out["more"] = "+"
        out["all"] = "most"


def _moved(game: Game, count: int, source: int, target: int) -> str:
    """"3" on a button (armies go without saying), "3 fleets" where fleets sail."""
    words = units(game, count, source, target)
    return words if game.rules.fleets and "fleet" in words else str(count)
