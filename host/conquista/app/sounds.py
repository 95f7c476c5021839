"""The board's buzzer, driven from the referee's state (see `table/buzzer_cues.py` for the cues): the effect router
(app/routing.py) calls it after routing every input and before every frame; the table is looked at again only when
the referee's `version` moved, and the tune playing goes on with time."""

from __future__ import annotations

from conquista.devices.interfaces import Buzzer
from conquista.table.buzzer_cues import TableSnapshot, Tune, cues_between
from conquista.table.referee import Referee
from conquista.table.referee_records import EffectKind
from conquista.table.table_view import TableView


def snapshot(view: TableView) -> TableSnapshot:
    game = view.game
    refusals = [start for _t, start, kind in view.effects if kind == EffectKind.ILLEGAL.value]
    return TableSnapshot(
        current=game.current,
        owner=tuple(game.owner),
        alive=frozenset(game.owner),
        last_refusal=max([*refusals, view.refused_at]),
        fault=bool(view.fault or view.storage_fault),
        over=game.over,
    )


class CuePlayer:
    """Plays one cue at a time on the buzzer; a muted board (the profile's `buzzer.muted`) stays silent."""

    def __init__(self, buzzer: Buzzer | None, *, muted: bool = False) -> None:
        self.buzzer = buzzer
        self.muted = muted
        self._before: TableSnapshot | None = None
        self._version = -1            # the referee's version `_before` was taken at
        self._referee: Referee | None = None
        self._tune: Tune | None = None
        self._sounding: float | None = None

    def update(self, referee: Referee, now: float) -> None:
        """Call after the referee's effects were routed, before the frame is drawn: a cue starts when the table
        changed (its version moved) in a way that deserves one; the tune playing goes on."""
        view = referee.view()
        if view.version != self._version or referee is not self._referee:
            after = snapshot(view)
            if self._before is not None:
                cues = cues_between(self._before, after)
                if cues and (self._tune is None or cues[0] >= self._tune.cue or self._tune.over(now)):
                    self._tune = Tune(cues[0], now)
            self._before, self._version, self._referee = after, view.version, referee
        self._sound(None if self._tune is None else self._tune.frequency_at(now))

    def _sound(self, frequency: float | None) -> None:
        if self.buzzer is None or self.muted or frequency == self._sounding:
            return
        if frequency is None:
            self.buzzer.stop()
        else:
            self.buzzer.play(frequency)
        self._sounding = frequency

    def close(self) -> None:
        self._sound(None)
