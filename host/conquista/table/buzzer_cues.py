"""The buzzer's cues: which moment of the game deserves a sound, and the short tune of each (pure: time passed in).

Cues are found by comparing two snapshots of the table taken a frame apart, so the referee needs no knowledge of
sound: a new current player is a turn start, a territory changing hands a conquest, a player with no territory
left an elimination, a new illegal-tap signal a refusal, a fault appearing a fault. When several happen in one
frame the most important one plays (an elimination is also a conquest).
"""

from __future__ import annotations

from enum import IntEnum

from conquista.rules.records import frozen_record

Note = tuple[float, float]  # (frequency in Hz, 0 for a rest; duration in seconds)


class Cue(IntEnum):
    """Value = priority: the highest of a frame's cues is the one played."""

    REFUSED = 1
    TURN_START = 2
    CONQUEST = 3
    ELIMINATION = 4
    FAULT = 5


# Each tune is told apart by its shape, not only its pitch: up for a turn, a rising arpeggio for a conquest, a fall
# for an elimination, a low double buzz for a refusal, a long high alarm for a fault. None lasts over a second.
TUNES: dict[Cue, tuple[Note, ...]] = {
    Cue.TURN_START: ((660.0, 0.08), (0.0, 0.04), (880.0, 0.12)),
    Cue.CONQUEST: ((523.0, 0.08), (659.0, 0.08), (784.0, 0.16)),
    Cue.ELIMINATION: ((784.0, 0.12), (659.0, 0.12), (523.0, 0.12), (392.0, 0.3)),
    Cue.REFUSED: ((196.0, 0.12), (0.0, 0.05), (196.0, 0.12)),
    Cue.FAULT: ((1568.0, 0.25), (0.0, 0.15), (1568.0, 0.25), (0.0, 0.15), (1568.0, 0.25)),
}


@frozen_record
class TableSnapshot:
    current: int
    owner: tuple[int, ...]
    alive: frozenset[int]
    last_refusal: float          # when the latest illegal-tap signal started (-inf: none yet)
    fault: bool
    over: bool


def cues_between(before: TableSnapshot, after: TableSnapshot) -> list[Cue]:
    cues = []
    if after.fault and not before.fault:
        cues.append(Cue.FAULT)
    if after.alive < before.alive:
        cues.append(Cue.ELIMINATION)
    if after.owner != before.owner and len(after.owner) == len(before.owner):
        cues.append(Cue.CONQUEST)
    if after.current != before.current and not after.over:
        cues.append(Cue.TURN_START)
    if after.last_refusal > before.last_refusal:
        cues.append(Cue.REFUSED)
    return sorted(cues, reverse=True)


@frozen_record
class Tune:
    cue: Cue
    start: float

    def frequency_at(self, now: float) -> float | None:
        """The frequency sounding at `now`, or None for silence (a rest, or the tune is over)."""
        at = now - self.start
        if at < 0:
            return None
        for frequency, duration in TUNES[self.cue]:
            if at < duration:
                return frequency or None
            at -= duration
        return None

    def over(self, now: float) -> bool:
        return now - self.start >= sum(duration for _, duration in TUNES[self.cue])
