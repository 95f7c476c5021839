"""The table's yes/no questions as values: what is asked (`QuestionKind`), the words, the ring's colour and whom it
is about. ROLL answers yes, CANCEL no. A question of the table's own (a player leaving, a bot for the seat) is
answered by the table as a pure function of the question (table/leaving.py); any other answer leaves the referee
as an `Answered` effect (table/effects.py) for the shell to act on (the resume question: conquista.journal.resume).
"""

from __future__ import annotations

from enum import Enum

from conquista.rules.records import frozen_record
from conquista.table.colours import RGB


class QuestionKind(Enum):
    LEAVE = "leave"          # the current player leaves the game? (CANCEL held down on one's turn)
    BOT_SEAT = "bot seat"    # ... and a bot plays on for them?
    RESUME = "resume"        # the unfinished game is resumed? (the shell answers: the journal)
    OTHER = "other"          # a question the shell put and answers itself


@frozen_record
class TableQuestion:
    """A yes/no question put to the table. `subject`: whom or what it is about (the seat that leaves, the saved
    game's id); `colour`: the whole ring flashes it (e.g. the seat that leaves) instead of green and red."""

    kind: QuestionKind
    text: str
    colour: RGB | None = None
    subject: int = -1
