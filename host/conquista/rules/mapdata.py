"""The board's map: territories, continents, links. Loaded from JSON and validated before any game uses it."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from conquista.errors import MapError
from conquista.rules.graph import reachable

CARD_SYMBOLS = ("infantry", "cavalry", "cannon")
DEFAULT_MAP = "classic-42"


@dataclass(frozen=True)
class Continent:
    id: str
    name_en: str
    name_it: str
    bonus: int
    territories: tuple[int, ...]


@dataclass(frozen=True)
class Territory:
    index: int
    id: str
    name_en: str
    name_it: str
    card: str
    continent: int


@dataclass(frozen=True, eq=False)
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
        text = resources.files("conquista.data.maps").joinpath(f"{DEFAULT_MAP}.json").read_text("utf-8")
        source = f"<built-in {DEFAULT_MAP}.json>"
    else:
        source = str(path)
        try:
            text = Path(path).read_text("utf-8")
        except OSError as exc:
            raise MapError(f"{source}: cannot read map file ({exc.strerror}); check the --map path") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MapError(f"{source}: not valid JSON at line {exc.lineno}: {exc.msg}") from None
    return parse_map(data, source, hashlib.sha256(text.encode("utf-8")).hexdigest())


def _require(entry: Any, key: str, kind: type, where: str, source: str) -> Any:
    if not isinstance(entry, dict) or key not in entry:
        raise MapError(f"{source}: {where} has no {key!r}")
    value = entry[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise MapError(f"{source}: {where}: {key!r} must be a {kind.__name__}, got {value!r}")
    return value


def parse_map(data: Any, source: str, sha256: str = "") -> GameMap:
    """Validate map data: unique ids, links between known territories and symmetric, one continent each, connected."""
    if not isinstance(data, dict):
        raise MapError(f"{source}: the top level must be a JSON object")
    name = data.get("name", Path(source).stem)
    raw_territories = _require(data, "territories", list, "the map", source)
    raw_continents = _require(data, "continents", list, "the map", source)
    raw_links = data.get("links", data.get("edges", []))
    if not isinstance(raw_links, list):
        raise MapError(f"{source}: 'links' must be a list of {{'a': ID, 'b': ID, 'sea': bool}}")
    if len(raw_territories) < 2:
        raise MapError(f"{source}: a map needs at least 2 territories, found {len(raw_territories)}")

    index: dict[str, int] = {}
    for i, entry in enumerate(raw_territories):
        tid = _require(entry, "id", str, f"territories[{i}]", source)
        if tid in index:
            raise MapError(f"{source}: territories[{i}]: duplicate territory id {tid!r}")
        index[tid] = i

    continent_of: dict[int, int] = {}
    continents: list[Continent] = []
    seen_continents: set[str] = set()
    for c, entry in enumerate(raw_continents):
        cid = _require(entry, "id", str, f"continents[{c}]", source)
        if cid in seen_continents:
            raise MapError(f"{source}: continents[{c}]: duplicate continent id {cid!r}")
        seen_continents.add(cid)
        bonus = _require(entry, "bonus", int, f"continent {cid!r}", source)
        members = _require(entry, "territories", list, f"continent {cid!r}", source)
        indices = []
        for tid in members:
            if tid not in index:
                raise MapError(f"{source}: continent {cid!r} lists unknown territory {tid!r}")
            if index[tid] in continent_of:
                other = raw_continents[continent_of[index[tid]]]["id"]
                raise MapError(f"{source}: territory {tid!r} is in two continents, {other!r} and {cid!r}")
            continent_of[index[tid]] = c
            indices.append(index[tid])
        continents.append(
            Continent(cid, entry.get("name_en", cid), entry.get("name_it", entry.get("name_en", cid)), bonus,
                      tuple(indices))
        )
    for tid, i in index.items():
        if i not in continent_of:
            raise MapError(f"{source}: territory {tid!r} is in no continent; add it to one continent's list")

    neighbours: list[set[int]] = [set() for _ in raw_territories]
    sea: set[tuple[int, int]] = set()
    for k, link in enumerate(raw_links):
        a = _require(link, "a", str, f"links[{k}]", source)
        b = _require(link, "b", str, f"links[{k}]", source)
        for end in (a, b):
            if end not in index:
                raise MapError(f"{source}: links[{k}] ({a}–{b}) names unknown territory {end!r}")
        if a == b:
            raise MapError(f"{source}: links[{k}] links {a!r} to itself")
        ia, ib = index[a], index[b]
        neighbours[ia].add(ib)
        neighbours[ib].add(ia)
        if link.get("sea", False):
            sea.add((min(ia, ib), max(ia, ib)))
    # A map may also list neighbours per territory; then every listed link must be listed back.
    for i, entry in enumerate(raw_territories):
        listed = entry.get("neighbours")
        if listed is None:
            continue
        for other in listed:
            if other not in index:
                raise MapError(f"{source}: territory {entry['id']!r} lists unknown neighbour {other!r}")
            back = raw_territories[index[other]].get("neighbours")
            if back is not None and entry["id"] not in back:
                raise MapError(
                    f"{source}: link {entry['id']!r}→{other!r} is not symmetric: add {entry['id']!r} to "
                    f"{other!r}'s neighbours"
                )
            neighbours[i].add(index[other])
            neighbours[index[other]].add(i)

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
        card = entry.get("card", CARD_SYMBOLS[i % 3])
        if card not in CARD_SYMBOLS:
            raise MapError(f"{source}: territory {ids[i]!r}: card {card!r} must be one of {', '.join(CARD_SYMBOLS)}")
        territories.append(
            Territory(i, ids[i], entry.get("name_en", ids[i]), entry.get("name_it", entry.get("name_en", ids[i])),
                      card, continent_of[i])
        )
    return GameMap(
        name=str(name),
        territories=tuple(territories),
        continents=tuple(continents),
        neighbours=tuple(tuple(sorted(ns)) for ns in neighbours),
        sea_links=frozenset(sea),
        sha256=sha256,
        cells=_layout(data.get("layout"), ids, source),
    )


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
            raise MapError(f"{source}: layout names unknown territory {tid!r}")
        if not (isinstance(cell, list) and len(cell) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 100 for v in cell)):
            raise MapError(f"{source}: layout[{tid!r}] must be [column, row], whole numbers 0–99, got {cell!r}")
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
