"""Which units fought each roll of a game with fleets (lamorisse-1954), for the dice audit.

A roll line says which dice were thrown, not which units threw them, and a fleet's die counts less against an army
(`rules.fleet_battle`): a roll's outcome odds depend on the battle. The audit of a game whose ruleset has fleets
therefore replays its log through the engine, as the committed-seed check does, and reads before each roll what
the engine knows: the attack crosses a sea link (a fleet attacks) and the target's armies are gone (a fleet
defends). Each roll is then tested under its battle's own dice rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from conquista.errors import AuditError, ConquistaError
from conquista.rules.actions import Deal, Roll
from conquista.rules.battle import DiceRule
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.fleet_battle import battle_rule
from conquista.rules.gamelog import parse_header
from conquista.rules.mapdata import GameMap
from conquista.rules.serialize import DecodeError, decode_action

Records = Sequence[tuple[int, dict[str, Any]]]


@dataclass(frozen=True)
class RollUnits:
    """The units that fought one roll, and the dice rule the roll was resolved under."""

    attack_fleet: bool
    defend_fleet: bool
    rule: DiceRule

    @property
    def words(self) -> str:
        return pairing_words(self.attack_fleet, self.defend_fleet)


def pairing_words(attack_fleet: bool, defend_fleet: bool) -> str:
    """"a fleet attacking an army" and so on."""
    return f"{'a fleet' if attack_fleet else 'an army'} attacking {'a fleet' if defend_fleet else 'an army'}"


def has_fleets(header: dict[str, Any]) -> bool:
    """The log header's ruleset referees fleets (a log written before fleets existed has no such key)."""
    ruleset = header.get("ruleset")
    return isinstance(ruleset, dict) and ruleset.get("fleets") is True


def roll_units(where: str, header: dict[str, Any], records: Records,
               game_map: GameMap | None = None) -> dict[int, RollUnits]:
    """The units of every roll line of a game with fleets, by line number, from a replay of its whole log.
    Raises AuditError when the log cannot be replayed (no deal, an action the engine refuses)."""
    try:
        parsed = parse_header(header, f"{where} line 1", game_map)
    except ConquistaError as exc:
        raise AuditError(str(exc)) from None
    rules, the_map = parsed.rules, parsed.game_map
    game: Game | None = None
    units: dict[int, RollUnits] = {}
    for line, obj in records:
        if "meta" in obj:
            continue
        try:
            action = decode_action(obj, the_map)
        except DecodeError as exc:
            raise AuditError(f"{where} line {line}: {exc}") from None
        if game is None:
            if not isinstance(action, Deal):
                raise AuditError(_no_deal(where, line, rules.name))
            game = Game(rules, the_map, parsed.players, action)
            continue
        battle = game.battle
        if isinstance(action, Roll) and game.phase is Phase.ROLL and battle is not None:
            s, t = battle.source, battle.target
            attack_fleet, defend_fleet = game.sails(s, t), game.defending_fleet(t)
            units[line] = RollUnits(attack_fleet, defend_fleet, battle_rule(rules, attack_fleet, defend_fleet))
        try:
            game.apply(action)
        except ConquistaError as exc:
            raise AuditError(f"{where} line {line}: the engine refuses this action, so the units of the rolls "
                             f"after it are unknown ({exc})") from None
    if game is None and any(obj.get("type") == "roll" for _, obj in records):
        raise AuditError(_no_deal(where, records[0][0], rules.name))
    return units


def _no_deal(where: str, line: int, name: str) -> str:
    return (f"{where} line {line}: ruleset {name} has fleets, whose dice count differently against armies: the "
            f"audit replays the whole log from the deal to know which units fought each roll, and this log has "
            f"no deal before its first action")
