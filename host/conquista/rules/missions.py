"""The 14 secret missions (docs/rules.md, "Secret missions"), evaluated against a game's board."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from conquista.errors import RulesetError
from conquista.rules.mapdata import GameMap

if TYPE_CHECKING:
    from conquista.rules.position import Position


@dataclass(frozen=True)
class Mission:
    number: int
    text: str
    continents: tuple[str, ...] = ()      # every territory of each of these
    extra_continents: int = 0             # plus this many further whole continents of the holder's choice
    territories: int = 0                  # at least this many territories ...
    min_armies: int = 1                   # ... each holding at least this many armies
    destroy_colour: int | None = None     # seat index whose armies must all be destroyed


MISSIONS: dict[int, Mission] = {
    1: Mission(1, "Conquer North America and Africa", ("north_america", "africa")),
    2: Mission(2, "Conquer North America and Oceania", ("north_america", "oceania")),
    3: Mission(3, "Conquer Asia and South America", ("asia", "south_america")),
    4: Mission(4, "Conquer Asia and Africa", ("asia", "africa")),
    5: Mission(5, "Conquer Europe, South America and a third continent", ("europe", "south_america"), 1),
    6: Mission(6, "Conquer Europe, Oceania and a third continent", ("europe", "oceania"), 1),
    7: Mission(7, "Conquer 24 territories", territories=24),
    8: Mission(8, "Conquer 18 territories with at least 2 armies on each", territories=18, min_armies=2),
}
for _seat in range(6):
    MISSIONS[9 + _seat] = Mission(9 + _seat, f"Destroy every army of colour {_seat + 1}", destroy_colour=_seat)


def check_map_supports(game_map: GameMap, numbers: tuple[int, ...]) -> None:
    """A mission that names a continent the map lacks can never be met: refuse it before the game starts."""
    ids = {c.id for c in game_map.continents}
    for n in numbers:
        for cid in MISSIONS[n].continents:
            if cid not in ids:
                raise RulesetError(f"mission {n} needs continent {cid!r}, which map {game_map.name!r} lacks; "
                                   f"remove {n} from the ruleset's 'missions'")


def mission_text(number: int, colours: tuple[str, ...]) -> str:
    m = MISSIONS[number]
    if m.destroy_colour is not None:
        return f"Destroy every {colours[m.destroy_colour]} army"
    return m.text


def effective_mission(game: Position, seat: int) -> Mission:
    """The mission as it stands now: a destroy mission that cannot be met becomes the fallback territory count."""
    m = MISSIONS[game.missions[seat]]
    if m.destroy_colour is not None:
        target = m.destroy_colour
        if (target == seat or target >= game.players
                or (game.eliminated[target] and game.eliminated_by[target] != seat)):
            return Mission(m.number, m.text, territories=game.rules.mission_fallback_territories)
    return m


def mission_complete(game: Position, seat: int) -> bool:
    m = effective_mission(game, seat)
    if m.destroy_colour is not None:
        return game.eliminated[m.destroy_colour] and game.eliminated_by[m.destroy_colour] == seat
    owner = game.owner
    if m.territories:
        if game.territory_count[seat] < m.territories:
            return False
        if m.min_armies > 1:
            armies = game.armies
            strong = sum(1 for t in range(len(owner)) if owner[t] == seat and armies[t] >= m.min_armies)
            return strong >= m.territories
        return True
    held = [c for c in game.map.continents if all(owner[t] == seat for t in c.territories)]
    held_ids = {c.id for c in held}
    if not all(cid in held_ids for cid in m.continents):
        return False
    return len(held) - len(m.continents) >= m.extra_continents
