"""What the set-up menu returns (table/setup_menu.py): a game chosen at the board. Its own module, because the
referee gives it out in an effect (`SetupChosen`, table/effects.py) and the menu itself (its ring, its words) is no
concern of the effects."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from conquista.rules.records import frozen_record
from conquista.rules.ruleset import Ruleset
from conquista.table.colours import Palette


@frozen_record
class SetupChoice:
    """A game chosen at the menu: the ruleset's name, the players, the seats bots play (seat → bot kind), whether
    the tournament ending is on, and the LED palette."""

    rules: str
    players: int
    bots: Mapping[int, str] = field(default_factory=dict)
    tournament: bool = False
    palette: Palette = Palette.STANDARD

    def overrides(self, rules: Ruleset) -> dict[str, Any]:
        """What `load_ruleset(self.rules, ...)` changes of the ruleset's own parameters: the tournament ending."""
        return {"tournament_ending": self.tournament} if self.tournament != rules.tournament_ending else {}
