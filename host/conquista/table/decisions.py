"""What the table's helpers decide (issue 36): the modes, the gesture reader, a player leaving, the turn clock and
the tournament clock read the table's state (table/table_state.py), a value, and return what the table does as a
tuple of these records; the table's one step (table/table_step.py) carries them out in order, and nothing else
changes the table. So no helper calls back into the referee in the middle of a step.

A refused `Apply` ends the decisions that follow it: they were decided for the action done (a placement's
selection, the words said after a leave).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from conquista.rules.actions import Action
from conquista.rules.engine import Game
from conquista.rules.records import frozen_record
from conquista.table.colours import RGB
from conquista.table.effects import Effect
from conquista.table.gestures import Gesture
from conquista.table.questions import TableQuestion
from conquista.table.referee_records import DiceEntry, Selection
from conquista.table.setup_choice import SetupChoice


class MenuView(Protocol):
    """The set-up menu (conquista.table.setup_menu.SetupMenu): shown, and stepped as a value."""

    message: str   # why the last gesture was refused ("" when it was taken)
    said: str      # what the last gesture switched (a notice)

    def describe(self) -> str: ...

    def ring(self, n: int, now: float) -> tuple[RGB, ...]: ...

    def view(self) -> dict[str, Any]: ...

    def stepped(self, gesture: Gesture) -> tuple[MenuView, SetupChoice | None]: ...


@frozen_record(slots=True)
class Apply:
    """Apply an action (a gesture's, or the table's own: a time-out, a leave); a refusal is said as a press's."""

    action: Action


@frozen_record(slots=True)
class Hold:
    """The play mode's selection from now on."""

    selection: Selection


@frozen_record(slots=True)
class Placed:
    """After a placement applied: the encoder places more where the last one went (`Selection.placed`)."""

    territory: int
    fleet: bool


@frozen_record(slots=True)
class ClearSelection:
    """Nothing selected any more (what the encoder places more of stays)."""


@frozen_record(slots=True)
class Confirmed:
    """A newly dealt territory tapped: its army is on the board now, and it stops blinking."""

    territory: int


@frozen_record(slots=True)
class Illegal:
    """A tap refused: the reason said and the territory flashes."""

    territory: int
    reason: str


@frozen_record(slots=True)
class Refuse:
    """A press that changes nothing: the reason said, and the buzzer sounds the refusal (`quiet`: no buzz, as the
    encoder turned to no effect)."""

    reason: str
    quiet: bool = False


@frozen_record(slots=True)
class Notice:
    """Words of what was done or decided (not a refusal)."""

    text: str


@frozen_record(slots=True, eq=False)
class NoticeOf:
    """Words of what an action just applied did, made from the game after it (a round number the action set)."""

    words: Callable[[Game], str]


@frozen_record(slots=True)
class Undo:
    """Take back the last placement or move of this turn; `refusal`: said as a press's when there is none."""

    refusal: str = ""


@frozen_record(slots=True)
class UndoPlacements:
    """The encoder turned back: up to `count` placements taken back, while the last action is a placement."""

    count: int


@frozen_record(slots=True)
class Log:
    """A line of the table's own in the log (a bot taking a seat)."""

    line: str


@frozen_record(slots=True)
class Ask:
    """Put a yes/no question to the table."""

    question: TableQuestion


@frozen_record(slots=True)
class Answer:
    """A question was answered (its mode already ended): the table answers its own, the rest leave as
    `Answered`."""

    question: TableQuestion
    yes: bool


@frozen_record(slots=True)
class EndAsked:
    """The asked mode (a question, the menu, dice typed in) is over."""


@frozen_record(slots=True)
class EndPower:
    """The power-off question is answered."""

    off: bool


@frozen_record(slots=True)
class TypeDice:
    """The physical dice being typed in, as they stand now."""

    entry: DiceEntry


@frozen_record(slots=True, eq=False)
class ShowMenu:
    """The set-up menu, as it stands after a gesture (a menu's step is a new menu)."""

    menu: MenuView


@frozen_record(slots=True)
class Give:
    """An effect for the shell (table/effects.py)."""

    effect: Effect


Decision = (Apply | Hold | Placed | ClearSelection | Confirmed | Illegal | Refuse | Notice | NoticeOf | Undo
            | UndoPlacements | Log | Ask | Answer | EndAsked | EndPower | TypeDice | ShowMenu | Give)
Decisions = tuple[Decision, ...]
