"""Armies and fleets (lamorisse-1954), and units that move one territory a turn. Pure: no I/O, no random, no clock.

A territory's `armies[t]` counts all its units, `fleets[t]` how many of them are fleets, so every rule that counts
units (ownership, conservation, the unit that must stay behind) works unchanged. With `fleets` on:
* armies march over land links and fleets sail over sea links: an attack, a move-in and a move across a sea link
  use fleets, across a land link armies [interpretation];
* a fleet is placed only on a territory with a sea link;
* a territory defends with its armies first, its fleets last [interpretation];
* a fleet's die counts `fleet_die_handicap` less against an army, in every battle between them or only when the
  fleet attacks (`fleet_handicap`).
With `one_move_per_unit`, units that moved into a territory this turn (a move-in or a move) do not move again in
the fortify phase; after a conquest they may still attack onward. Units that go on from a territory are counted
from those that arrived there first.
"""

from __future__ import annotations

from conquista.rules.position import Position


class UnitRules(Position):
    """The moves that tell armies from fleets and count the units that already moved this turn (their queries are
    the position's)."""

    __slots__ = ()

    def _move_units(self, source: int, target: int, count: int, *, onward: bool = True) -> None:
        """Move `count` units from `source` to `target` (fleets over a sea link), noting them as arrived. `onward`
        (a move-in after a conquest): those that go on are counted from the units that arrived at `source` first;
        a fortify move takes only units that had not moved (`movable`), so the arrived stay arrived."""
        armies = self.armies
        self._set(armies, source, armies[source] - count)
        self._set(armies, target, armies[target] + count)
        sea = self.sails(source, target)
        if sea:
            fleets = self.fleets
            self._set(fleets, source, fleets[source] - count)
            self._set(fleets, target, fleets[target] + count)
        if self._one_move:
            self._note_arrival(source, target, count, sea, onward)

    def _note_arrival(self, source: int, target: int, count: int, sea: bool, onward: bool) -> None:
        arrived = {where: (a, f) for where, a, f in self.turn_state.arrived}
        if onward:
            a, f = arrived.get(source, (0, 0))
            arrived[source] = (a, max(0, f - count)) if sea else (max(0, a - count), f)
        a, f = arrived.get(target, (0, 0))
        arrived[target] = (a, f + count) if sea else (a + count, f)
        kept = tuple((where, a, f) for where, (a, f) in sorted(arrived.items()) if a or f)
        self.turn_state = self.turn_state._replace(arrived=kept)
