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
    """The queries and moves that tell armies from fleets and count the units that already moved this turn."""

    __slots__ = ()

    def is_coastal(self, t: int) -> bool:
        """The territory has a sea link: fleets may lie there."""
        return t in self._coastal

    def sails(self, source: int, target: int) -> bool:
        """Units crossing this link are fleets (fleets on, and a sea link)."""
        return self._fleets_on and self.map.is_sea_link(source, target)

    def units_for_link(self, source: int, target: int) -> int:
        """The units at `source` of the kind that crosses to `target`: its fleets over a sea link, its armies over
        land (all its units without fleets)."""
        if not self._fleets_on:
            return self.armies[source]
        fleets = self.fleets[source]
        return fleets if self.map.is_sea_link(source, target) else self.armies[source] - fleets

    def defending_fleet(self, target: int) -> bool:
        """The unit that defends `target` now is a fleet (its armies are gone)."""
        return self._fleets_on and self.fleets[target] == self.armies[target] > 0

    def attack_allowed(self, source: int, target: int) -> bool:
        if not Position.attack_allowed(self, source, target):
            return False
        return not self._fleets_on or self.units_for_link(source, target) > 0

    def fortify_allowed(self, source: int, target: int) -> bool:
        if not Position.fortify_allowed(self, source, target):
            return False
        return not (self._fleets_on or self._one_move) or self.movable(source, target) > 0

    def movable(self, source: int, target: int) -> int:
        """The most units a fortify move from `source` to `target` may take now: all but one, of the link's kind,
        less those that arrived this turn (one_move_per_unit)."""
        most = self.armies[source] - 1
        kind = self.units_for_link(source, target)
        if self._one_move:
            sea = self.sails(source, target)
            for where, armies, fleets in self.turn_state.arrived:
                if where == source:
                    kind -= fleets if sea else armies
                    break
        return max(0, min(most, kind))

    def movable_words(self, source: int, target: int, most: int) -> str:
        """Why no more than `most` units may move from `source` to `target` (for a refused move)."""
        kind = ("fleets" if self.sails(source, target) else "armies") if self._fleets_on else "armies"
        why = [f"{kind} cross the {'sea' if self.map.is_sea_link(source, target) else 'land'} link"
               ] if self._fleets_on else []
        if self._one_move:
            why.append("units that moved in this turn stay")
        why.append("one unit stays behind")
        where = f"{self.map.id(source)} to {self.map.id(target)}"
        amount = f"no {kind} may move" if most == 0 else f"move 1 to {most} {kind}"
        return f"{amount} from {where} ({', '.join(why)})"

    def occupy_range(self) -> tuple[int, int]:
        low, high = Position.occupy_range(self)
        if not self._fleets_on:
            return low, high
        battle = self.battle
        assert battle is not None
        s, t = battle.source, battle.target
        return low, self.armies[t] + min(self.armies[s] - 1, self.units_for_link(s, t))

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
