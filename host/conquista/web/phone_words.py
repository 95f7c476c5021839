"""What a seat's phone says about the step the table waits for: short, and in the phone's own terms.

The board's words (`table.pending`) are for the board and its buttons ("hold ROLL to blitz", "NEXT ends the phase");
a phone's buttons are named by what they do (web/phone_buttons.py), and its player taps territories on the board
(or, from a remote seat, on the board page). The player to move gets what to do now; every other phone gets who
plays and what they are doing, nothing about buttons that are not theirs. Questions, dice typed in and the end of
the game keep the board's words: they are the same for everyone; the set-up menu's knob words stay the board's.
"""

from __future__ import annotations

from conquista.rules.events import Phase
from conquista.table.prompt_words import PlayStep, play_step
from conquista.table.prompt_words import territory_name as _name
from conquista.table.table_view import TableView
from conquista.table.unit_kinds import units
from conquista.table.wording import owner_name, plural

DOING = {
    Phase.SETUP: "placing armies", Phase.REINFORCE: "placing reinforcements",
    Phase.ELIMINATION_TRADE: "trading cards", Phase.ATTACK: "attacking", Phase.ROLL: "attacking",
    Phase.DEFEND: "choosing the defence", Phase.OCCUPY: "moving in", Phase.FORTIFY: "moving armies",
    Phase.NEUTRAL_REINFORCE: "placing the neutral army", Phase.NEUTRAL_ATTACK: "attacking with the neutral army",
}


# While a new game is chosen, a phone does not repeat the board's knob and button words: the host's phone has its
# form, and the set-up is the host's.
MENU_WORDS = "A new game is being set up: the host chooses it on the host's phone or at the board"


def _board_words(table: TableView) -> bool:
    """The board's own words apply: a question, the set-up menu, dice typed in, the game over."""
    return table.board_words   # a fault leaves the words of what it holds


def waiting_words(table: TableView) -> str:
    """For a phone whose seat is not to move: who plays and what they do."""
    game = table.game
    if table.menu is not None:
        return MENU_WORDS
    if _board_words(table):
        return table.status.pending
    to_move = game.to_move
    if not isinstance(to_move, int):
        return "the board is rolling" if to_move is not None else ""
    if game.phase is Phase.DEFEND and game.battle is not None:
        battle = game.battle
        return (f"{owner_name(game, to_move)} defends {_name(game, battle.target)} against "
                f"{owner_name(game, game.owner[battle.source])}")
    doing = DOING.get(game.phase, game.phase.value)
    return f"{owner_name(game, to_move)} is {doing}"


def my_turn_words(table: TableView, remote: bool = False) -> str:
    """For the phone of the seat to move: what to do now, with the phone's buttons. A remote seat plays on the board
    page's map, away from the board: its words say so."""
    words = _my_turn_words(table)
    return words.replace("on the board", "on the map") if remote else words


def _my_turn_words(table: TableView) -> str:
    game = table.game
    if table.menu is not None:
        return MENU_WORDS
    if _board_words(table):
        return table.status.pending
    phase, sel = game.phase, table.selection
    source, target, count = sel.source, sel.target, sel.count
    neutral = " neutral" if phase in (Phase.NEUTRAL_REINFORCE, Phase.NEUTRAL_ATTACK) else ""
    battle = game.battle
    match play_step(game, sel):   # the table's decision of the step; the words are the phone's
        case PlayStep.PLACE:
            if game.must_trade():
                return "Trade a set first: tap it under Cards"
            if not game.pool:
                return "All placed: End reinforcement, then attack" if phase is Phase.REINFORCE else "All placed"
            what = plural(game.pool, "unit" if game.rules.fleets else "army")
            fleets = " (a long tap: a fleet)" if game.rules.fleets else ""
            return f"Place {what}: tap your{neutral} territories on the board{fleets}; + adds to the last one"
        case PlayStep.ATTACK_FROM:
            return f"Attack: tap one of your{neutral} territories on the board, then a target; or End attack"
        case PlayStep.ATTACK_TO:
            return f"From {_name(game, source)}: tap the territory to attack"
        case PlayStep.ATTACK:
            return f"{_name(game, source)} → {_name(game, target)}: roll the dice, or Blitz to fight to the end"
        case PlayStep.DEFEND if battle is not None:
            return f"Defend {_name(game, battle.target)} from {_name(game, battle.source)}: choose your dice"
        case PlayStep.OCCUPY if battle is not None:
            low, high = game.occupy_range()
            moved = units(game, count, battle.source, battle.target)
            return f"Move {moved} into {_name(game, battle.target)} ({low}–{high})"
        case PlayStep.MOVE_FROM:
            return "Fortify: tap a territory to move from, then where to; or End turn"
        case PlayStep.MOVE_TO:
            return f"From {_name(game, source)}: tap where to move"
        case PlayStep.MOVE:
            return f"Move {units(game, count, source, target)} from {_name(game, source)} to {_name(game, target)}"
    return table.status.pending
