"""The board's map: territories, continents, links. Loaded from JSON and validated before any game uses it."""

from __future__ import annotations

import re
from dataclasses import field
from pathlib import Path
from typing import Any

from conquista.errors import MapError
from conquista.rules.graph import reachable
from conquista.rules.records import frozen_record
from conquista.rules.textdata import BadText, load_json, package_text, read_utf8, shown, text_sha256

CARD_SYMBOLS = ("infantry", "cavalry", "cannon")
DEFAULT_MAP = "classic-42"
BONUS_RANGE = (0, 100)          # armies a continent gives each turn (the classic map's largest is 7)
TERRITORIES_RANGE = (2, 500)
# Territory and continent ids: lower_snake_case, so they read plainly in logs; `jolly1`... are card names there.
ID_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,39}")
JOLLY_ID = re.compile(r"jolly[0-9]+")
_TOP_KEYS = {"name", "description", "territories", "continents", "links", "edges", "layout"}
_TERRITORY_KEYS = {"id", "name_en", "name_it", "card", "neighbours"}
_CONTINENT_KEYS = {"id", "name_en", "name_it", "bonus", "territories"}
_LINK_KEYS = {"a", "b", "sea"}


@frozen_record
class Continent:
    """A continent: its territories (by index) and the armies it gives its owner each turn."""

    id: str
    name_en: str
    name_it: str
    bonus: int
    territories: tuple[int, ...]


@frozen_record
class Territory:
    """A territory: its index in the map, its id and names, its card symbol and its continent (by index)."""

    index: int
    id: str
    name_en: str
    name_it: str
    card: str
    continent: int


@frozen_record(eq=False)
class GameMap:
    """Immutable map. Territories are addressed by index (0..n-1) inside the engine, by id everywhere else."""

    name: str
    territories: tuple[Territory, ...]
    continents: tuple[Continent, ...]
    neighbours: tuple[tuple[int, ...], ...]
    sea_links: frozenset[tuple[int, int]]
    sha256: str
    # Where each territory is drawn on a screen, (column, row) by index; empty when the map file has no "layout".
    cells: tuple[tuple[int, int], ...] = ()

    @property
    def size(self) -> int:
        return len(self.territories)

    def index(self, territory_id: str) -> int:
        try:
            return self._index[territory_id]
        except KeyError:
            raise MapError(f"map {self.name!r}: unknown territory {territory_id!r}") from None

    def id(self, index: int) -> str:
        return self.territories[index].id

    def adjacent(self, a: int, b: int) -> bool:
        return b in self._neighbour_sets[a]

    def is_sea_link(self, a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in self.sea_links

    def continent_by_id(self, continent_id: str) -> Continent:
        for continent in self.continents:
            if continent.id == continent_id:
                return continent
        raise MapError(f"map {self.name!r}: unknown continent {continent_id!r}")

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {t.id: t.index for t in self.territories})
        object.__setattr__(self, "_neighbour_sets", tuple(frozenset(n) for n in self.neighbours))

    _index: dict[str, int] = field(init=False, repr=False)
    _neighbour_sets: tuple[frozenset[int], ...] = field(init=False, repr=False)


def load_map(path: str | Path | None = None) -> GameMap:
    """Load and validate a map file; with no path, the classic 42-territory map shipped in the package."""
    if path is None:
        text = package_text("conquista.data.maps", f"{DEFAULT_MAP}.json")
        source = f"<built-in {DEFAULT_MAP}.json>"
    else:
        source = str(path)
        try:
            text = read_utf8(path)
        except OSError as exc:
            raise MapError(f"{source}: cannot read map file ({exc.strerror}); check the --map path") from None
        except BadText as exc:
            raise MapError(f"{source}: not a map file: {exc}") from None
    try:
        data = load_json(text)
    except BadText as exc:
        raise MapError(f"{source}: {exc}") from None
    return parse_map(data, source, text_sha256(text))


def _require(entry: Any, key: str, kind: type, where: str, source: str) -> Any:
    if not isinstance(entry, dict):
        raise MapError(f"{source}: {where} must be an object {{...}}, got {shown(entry)}")
    if key not in entry:
        raise MapError(f"{source}: {where} has no {key!r}")
    value = entry[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise MapError(f"{source}: {where}: {key!r} must be a {kind.__name__}, got {shown(value)}")
    return value


def _known_keys(entry: dict[str, Any], allowed: set[str], where: str, source: str) -> None:
    for key in entry:
        if key not in allowed:
            raise MapError(f"{source}: {where}: unknown key {shown(key)}; remove it or use one of "
                           f"{', '.join(sorted(allowed))}")


def _optional_text(entry: dict[str, Any], key: str, default: str, where: str, source: str) -> str:
    value = entry.get(key, default)
    if not isinstance(value, str) or not value.strip() or len(value) > 80:
        raise MapError(f"{source}: {where}: {key!r} must be a name of 1 to 80 characters, got {shown(value)}")
    return value


def _checked_id(value: str, where: str, source: str) -> str:
    if JOLLY_ID.fullmatch(value):
        raise MapError(f"{source}: {where}: id {value!r} is a card name in game logs (the jollies are jolly1, "
                       f"jolly2, ...); choose another id")
    if not ID_PATTERN.fullmatch(value):
        raise MapError(f"{source}: {where}: id {shown(value)} must be lower_snake_case (a-z, 0-9, _; up to 40 "
                       f"characters, starting with a letter), e.g. 'north_africa'")
    return value


def parse_map(data: Any, source: str, sha256: str = "") -> GameMap:
    """Validate map data: known keys, unique ids, links between known territories and symmetric, one continent
    each, bonuses in BONUS_RANGE, connected."""
    if not isinstance(data, dict):
        raise MapError(f"{source}: the top level must be a JSON object")
    _known_keys(data, _TOP_KEYS, "the map", source)
    name = _optional_text(data, "name", Path(source).stem or "map", "the map", source)
    if "description" in data and not isinstance(data["description"], str):
        raise MapError(f"{source}: the map: 'description' must be a string, got {shown(data['description'])}")
    raw_territories = _require(data, "territories", list, "the map", source)
    raw_continents = _require(data, "continents", list, "the map", source)
    raw_links = data.get("links", data.get("edges", []))
    if not isinstance(raw_links, list):
        raise MapError(f"{source}: 'links' must be a list of {{'a': ID, 'b': ID, 'sea': bool}}")
    low, high = TERRITORIES_RANGE
    if not low <= len(raw_territories) <= high:
        raise MapError(f"{source}: a map needs {low} to {high} territories, found {len(raw_territories)}")
    index = _territory_index(raw_territories, source)
    continents, continent_of = _continents(raw_continents, index, source)
    neighbours, sea = _links(raw_links, raw_territories, index, source)
    ids = list(index)
    for i, ns in enumerate(neighbours):
        if not ns:
            raise MapError(f"{source}: territory {ids[i]!r} has no links")
    reached = reachable(neighbours, 0)
    if len(reached) != len(ids):
        cut_off = sorted(ids[i] for i in range(len(ids)) if i not in reached)
        raise MapError(f"{source}: the map is not connected; cannot reach {', '.join(cut_off[:5])} from {ids[0]!r}")
    territories = []
    for i, entry in enumerate(raw_territories):
        where = f"territory {ids[i]!r}"
        card = entry.get("card", CARD_SYMBOLS[i % 3])
        if card not in CARD_SYMBOLS:
            raise MapError(f"{source}: {where}: card {shown(card)} must be one of {', '.join(CARD_SYMBOLS)}")
        name_en = _optional_text(entry, "name_en", ids[i], where, source)
        territories.append(Territory(i, ids[i], name_en, _optional_text(entry, "name_it", name_en, where, source),
                                     card, continent_of[i]))
    return GameMap(
        name=name,
        territories=tuple(territories),
        continents=tuple(continents),
        neighbours=tuple(tuple(sorted(ns)) for ns in neighbours),
        sea_links=frozenset(sea),
        sha256=sha256,
        cells=_layout(data.get("layout"), ids, source),
    )


def _territory_index(raw_territories: list[Any], source: str) -> dict[str, int]:
    index: dict[str, int] = {}
    for i, entry in enumerate(raw_territories):
        where = f"territories[{i}]"
        tid = _checked_id(_require(entry, "id", str, where, source), where, source)
        _known_keys(entry, _TERRITORY_KEYS, f"territory {tid!r}", source)
        if tid in index:
            raise MapError(f"{source}: territories[{i}]: duplicate territory id {tid!r}")
        index[tid] = i
    return index


def _continents(raw_continents: list[Any], index: dict[str, int],
                source: str) -> tuple[list[Continent], dict[int, int]]:
    continent_of: dict[int, int] = {}
    continents: list[Continent] = []
    for c, entry in enumerate(raw_continents):
        cid = _checked_id(_require(entry, "id", str, f"continents[{c}]", source), f"continents[{c}]", source)
        where = f"continent {cid!r}"
        _known_keys(entry, _CONTINENT_KEYS, where, source)
        if any(other.id == cid for other in continents):
            raise MapError(f"{source}: continents[{c}]: duplicate continent id {cid!r}")
        bonus = _require(entry, "bonus", int, where, source)
        if not BONUS_RANGE[0] <= bonus <= BONUS_RANGE[1]:
            raise MapError(f"{source}: {where}: bonus {shown(bonus)} is out of range; give a whole number of armies "
                           f"from {BONUS_RANGE[0]} to {BONUS_RANGE[1]}")
        indices = []
        for tid in _require(entry, "territories", list, where, source):
            if not isinstance(tid, str) or tid not in index:
                raise MapError(f"{source}: {where} lists unknown territory {shown(tid)}")
            if index[tid] in continent_of:
                other = continents[continent_of[index[tid]]].id
                raise MapError(f"{source}: territory {tid!r} is in two continents, {other!r} and {cid!r}")
            continent_of[index[tid]] = c
            indices.append(index[tid])
        name_en = _optional_text(entry, "name_en", cid, where, source)
        continents.append(Continent(cid, name_en, _optional_text(entry, "name_it", name_en, where, source), bonus,
                                    tuple(indices)))
    for tid, i in index.items():
        if i not in continent_of:
            raise MapError(f"{source}: territory {tid!r} is in no continent; add it to one continent's list")
    return continents, continent_of


def _links(raw_links: list[Any], raw_territories: list[Any], index: dict[str, int],
           source: str) -> tuple[list[set[int]], set[tuple[int, int]]]:
    neighbours: list[set[int]] = [set() for _ in raw_territories]
    sea: set[tuple[int, int]] = set()
    for k, link in enumerate(raw_links):
        a = _require(link, "a", str, f"links[{k}]", source)
        b = _require(link, "b", str, f"links[{k}]", source)
        _known_keys(link, _LINK_KEYS, f"links[{k}] ({shown(a)}–{shown(b)})", source)
        for end in (a, b):
            if end not in index:
                raise MapError(f"{source}: links[{k}] ({shown(a)}–{shown(b)}) names unknown territory {shown(end)}")
        if a == b:
            raise MapError(f"{source}: links[{k}] links {a!r} to itself")
        is_sea = link.get("sea", False)
        if not isinstance(is_sea, bool):
            raise MapError(f"{source}: links[{k}] ({a}–{b}): 'sea' must be true or false, got {shown(is_sea)}")
        ia, ib = index[a], index[b]
        neighbours[ia].add(ib)
        neighbours[ib].add(ia)
        if is_sea:
            sea.add((min(ia, ib), max(ia, ib)))
    # A map may also list neighbours per territory; then every listed link must be listed back.
    for i, entry in enumerate(raw_territories):
        listed = entry.get("neighbours")
        if listed is None:
            continue
        if not isinstance(listed, list):
            raise MapError(f"{source}: territory {entry['id']!r}: 'neighbours' must be a list of territory ids")
        for other in listed:
            if not isinstance(other, str) or other not in index:
                raise MapError(f"{source}: territory {entry['id']!r} lists unknown neighbour {shown(other)}")
            back = raw_territories[index[other]].get("neighbours")
            if back is not None and (not isinstance(back, list) or entry["id"] not in back):
                raise MapError(
                    f"{source}: link {entry['id']!r}→{other!r} is not symmetric: add {entry['id']!r} to "
                    f"{other!r}'s neighbours"
                )
            neighbours[i].add(index[other])
            neighbours[index[other]].add(i)
    return neighbours, sea


def _layout(raw: Any, ids: list[str], source: str) -> tuple[tuple[int, int], ...]:
    """The optional "layout": {territory id: [column, row]} for drawing the map on a screen (the web board)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise MapError(f"{source}: 'layout' must be an object {{territory id: [column, row]}}")
    cells: dict[str, tuple[int, int]] = {}
    taken: dict[tuple[int, int], str] = {}
    for tid, cell in raw.items():
        if tid not in ids:
            raise MapError(f"{source}: layout names unknown territory {shown(tid)}")
        if not (isinstance(cell, list) and len(cell) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 100 for v in cell)):
            raise MapError(f"{source}: layout[{tid!r}] must be [column, row], whole numbers 0–99, got {shown(cell)}")
        where = (cell[0], cell[1])
        if where in taken:
            raise MapError(f"{source}: layout puts {taken[where]!r} and {tid!r} on the same cell {list(where)}")
        taken[where] = tid
        cells[tid] = where
    missing = [tid for tid in ids if tid not in cells]
    if missing:
        raise MapError(f"{source}: layout has no cell for {', '.join(repr(t) for t in missing[:5])}; "
                       f"give every territory a [column, row]")
    return tuple(cells[tid] for tid in ids)
