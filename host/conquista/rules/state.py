"""The records a game's state is made of, and the one list of its fields.

`Battle` is the battle in progress and `TurnState` the current turn's bookkeeping; both are immutable, so the
engine's undo keeps a reference instead of a copy. `FIELDS` names every field of a `Game` once, with its kind:
`clone()`, `snapshot()`, `from_snapshot()` and the undo record are all derived from it.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple

from conquista.rules.events import Phase


class Mover(Enum):
    """Who acts when no seat does: `Game.to_move` is a seat number or one of these."""

    CHANCE = "chance"       # dice or a card draw are awaited (OpenSpiel's chance player)
    TERMINAL = "terminal"   # the game is over


CHANCE = Mover.CHANCE
TERMINAL = Mover.TERMINAL
# The owner of a territory not dealt yet (lamorisse-1954's progressive deal): below every owner value, so `owner[t]
# < 0` reads "nobody's" (an int, not None, so that every owner value can index a list of seats or colours).
UNDEALT = -1


class Battle(NamedTuple):
    """The battle in progress, from the attack to the last roll or the move into the conquered territory."""

    source: int
    target: int
    attack_dice: int
    defend_dice: int               # 0 until the defender has chosen (automatic defence sets it at once)
    stop_at: int | None = None     # a blitz rolls on until the source is down to this; None: a single roll
    last_dice: int | None = None   # the attacker's dice in the roll that conquered
    occupy_min: int | None = None  # armies already moved in at the conquest (the least the occupation leaves)
    elimination_pending: bool = False  # the conquest eliminated a player: a card trade may follow the move-in


class TurnState(NamedTuple):
    """The current turn's bookkeeping."""

    conquered: bool = False
    attacked: bool = False
    fortifies_done: int = 0
    forced_trade_down_to: int | None = None  # after an elimination: trade until the hand is this small
    # After an elimination under `elimination_trade_cards = "taken"`: the cards taken, the only ones tradable now.
    taken_cards: tuple[int, ...] = ()
    # Under `one_move_per_unit`: units that moved into a territory this turn, as (territory, armies, fleets) sorted
    # by territory; they do not move again in the fortify phase.
    arrived: tuple[tuple[int, int, int], ...] = ()


class Kind(Enum):
    VALUE = "value"        # an immutable value: shared by a clone, kept by reference for undo
    LIST = "list"          # a list of immutable values, changed in place
    LISTS = "lists"        # a list of lists (the hands), each changed in place
    PHASE = "phase"
    BATTLE = "battle"
    TURN = "turn"
    TUPLE = "tuple"


# Every field of a game's state, once. Order is the snapshot's order.
FIELDS: tuple[tuple[str, Kind], ...] = (
    ("phase", Kind.PHASE),
    ("current", Kind.VALUE),
    ("first_player", Kind.VALUE),
    ("turn", Kind.VALUE),
    ("round", Kind.VALUE),
    ("owner", Kind.LIST),
    ("armies", Kind.LIST),
    ("territory_count", Kind.LIST),
    ("hands", Kind.LISTS),
    ("deck", Kind.LIST),
    ("discard", Kind.LIST),
    ("missions", Kind.TUPLE),
    ("eliminated", Kind.LIST),
    ("eliminated_by", Kind.LIST),
    ("left", Kind.LIST),            # seats that left the game (players_may_leave): their armies only defend
    ("reserve", Kind.LIST),
    ("pool", Kind.VALUE),
    ("sets_traded", Kind.VALUE),
    ("turn_state", Kind.TURN),
    ("battle", Kind.BATTLE),
    ("winner", Kind.VALUE),
    ("over_reason", Kind.VALUE),
    ("placed_total", Kind.VALUE),
    ("lost_total", Kind.VALUE),
    # The progressive deal (lamorisse-1954): territories still to deal, in the order the Deal gave them.
    ("undealt", Kind.LIST),
    # Card draws still due now: the power cards of the first distribution or of a turn's income (lamorisse-1954).
    ("draws_due", Kind.VALUE),
    # Fleets (lamorisse-1954): how many of each territory's units (`armies`) are fleets.
    ("fleets", Kind.LIST),
    # The tournament ending (tournament_ending): the round the clock ran out in (0: not yet), the current player's
    # conquests this turn (more than `closing_roll_conquests_max` skip the closing roll), and a tie-break round's
    # seats in the order they play, with how many of them have started their turn.
    ("clock_out_round", Kind.VALUE),
    ("turn_conquests", Kind.VALUE),
    ("tiebreak", Kind.TUPLE),
    ("tiebreak_played", Kind.VALUE),
)
FIELD_NAMES = tuple(name for name, _ in FIELDS)
# Fields replaced rather than changed in place: the undo record keeps them by reference.
# The phase and the two records are kept apart in the undo history (`RECORD_FIELDS`): without them the saved tuple
# holds only atomic values, which the garbage collector stops tracking, so a long game's history costs no
# collection time (a named tuple is always tracked).
SCALAR_FIELDS = tuple(name for name, kind in FIELDS
                      if kind not in (Kind.LIST, Kind.LISTS, Kind.PHASE, Kind.BATTLE, Kind.TURN))
RECORD_FIELDS = ("phase", "battle", "turn_state")
# The scalars a step of a fight (an attack or a blitz, the defender's dice, a roll, the move-in) may change: its
# conquest counts for the tournament, its losses count, and the game may end. The undo record of those steps, half
# of every game's actions, keeps only these (tests/rules/test_undo_snapshot.py checks that the rest stay as they were).
FIGHT_SCALARS = ("turn_conquests", "lost_total", "winner", "over_reason")
assert set(FIGHT_SCALARS) < set(SCALAR_FIELDS)


def encode_field(kind: Kind, value: Any) -> Any:
    """A field's JSON-ready form."""
    if kind is Kind.PHASE:
        return value.value
    if kind is Kind.LIST or kind is Kind.TUPLE:
        return list(value)
    if kind is Kind.LISTS:
        return [list(v) for v in value]
    if kind is Kind.BATTLE or kind is Kind.TURN:
        return None if value is None else value._asdict()
    return value


def decode_field(kind: Kind, value: Any) -> Any:
    """The inverse of `encode_field`."""
    if kind is Kind.PHASE:
        return Phase(value)
    if kind is Kind.LIST:
        return list(value)
    if kind is Kind.TUPLE:
        return tuple(value)
    if kind is Kind.LISTS:
        return [list(v) for v in value]
    if kind is Kind.BATTLE:
        return None if value is None else Battle(**value)
    if kind is Kind.TURN:
        return TurnState(**{**value, "taken_cards": tuple(value.get("taken_cards", ())),
                            "arrived": tuple(tuple(a) for a in value.get("arrived", ()))})
    return value
