"""The shipped map matches the reference facts; the loader rejects broken maps naming file and entry."""

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from conquista.errors import MapError
from conquista.rules.mapdata import load_map

REFERENCE = Path(__file__).resolve().parents[2] / "host/conquista/data/maps/classic-42.json"


def test_classic_map_facts() -> None:
    m = load_map()
    assert m.size == 42 and len(m.continents) == 6
    assert sum(len(n) for n in m.neighbours) == 2 * 83
    bonuses = {c.id: c.bonus for c in m.continents}
    assert bonuses == {"north_america": 5, "south_america": 2, "africa": 3, "europe": 5, "asia": 7, "oceania": 2}
    assert m.adjacent(m.index("alaska"), m.index("kamchatka"))
    assert m.is_sea_link(m.index("alaska"), m.index("kamchatka"))
    assert m.territories[m.index("peru")].name_it == "Perù"
    cards = [t.card for t in m.territories]
    assert {s: cards.count(s) for s in set(cards)} == {"infantry": 14, "cavalry": 14, "cannon": 14}


def _data() -> dict[str, Any]:
    return json.loads(REFERENCE.read_text("utf-8"))


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    return path


def _break(kind: str, data: dict[str, Any]) -> None:
    if kind == "unknown link end":
        data["links"].append({"a": "alaska", "b": "atlantis", "sea": True})
    elif kind == "duplicate id":
        data["territories"].append(copy.deepcopy(data["territories"][0]))
    elif kind == "two continents":
        data["continents"][1]["territories"].append("alaska")
    elif kind == "no continent":
        data["continents"][0]["territories"].remove("alaska")
    elif kind == "disconnected":
        # Siam–Indonesia is Oceania's only link to the rest of the world.
        data["links"] = [e for e in data["links"] if {e["a"], e["b"]} != {"siam", "indonesia"}]
    elif kind == "asymmetric":
        data["territories"][0]["neighbours"] = ["kamchatka"]
        data["territories"][data["territories"].index(
            next(t for t in data["territories"] if t["id"] == "kamchatka"))]["neighbours"] = ["mongolia"]


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("unknown link end", "unknown territory 'atlantis'"),
        ("duplicate id", "duplicate territory id 'alaska'"),
        ("two continents", "'alaska' is in two continents"),
        ("no continent", "'alaska' is in no continent"),
        ("disconnected", "not connected"),
        ("asymmetric", "not symmetric"),
    ],
)
def test_broken_maps_are_named(tmp_path: Path, kind: str, message: str) -> None:
    data = _data()
    _break(kind, data)
    path = _write(tmp_path, data)
    with pytest.raises(MapError, match=message) as err:
        load_map(path)
    assert str(path) in str(err.value)


def test_missing_and_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(MapError, match="cannot read map file"):
        load_map(tmp_path / "nope.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(MapError, match="not valid JSON at line 1"):
        load_map(bad)


def test_own_map_plays(tmp_path: Path) -> None:
    """A board builder's own (smaller) map runs a world-domination game end to end."""
    from conquista.bots.simulate import play_game
    from conquista.rules.rulesets import load_ruleset

    data = _data()
    keep = {"north_america", "south_america"}
    data["continents"] = [c for c in data["continents"] if c["id"] in keep]
    ids = {t for c in data["continents"] for t in c["territories"]}
    data["territories"] = [t for t in data["territories"] if t["id"] in ids]
    data["links"] = [e for e in data["links"] if e["a"] in ids and e["b"] in ids]
    m = load_map(_write(tmp_path, data))
    assert m.size == 13
    result = play_game(load_ruleset("classic"), m, 2, ["greedy"], "own-map", turn_cap=500)
    assert not result.cut and result.game is not None
    assert result.game.territory_count[result.winner] == 13
