"""The package's data files parsed ahead (conquista/data/parsed.py, issue 22): in step with the files, used only for
their exact text, and giving what parsing gives."""

from __future__ import annotations

import hashlib
import json
import marshal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conquista.data import make_parsed
from conquista.data.parsed import SHIPPED
from conquista.errors import RulesetError
from conquista.hardware.profile import load_profile
from conquista.rules import textdata
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import builtin_rulesets, load_ruleset
from conquista.rules.textdata import load_json, load_toml, text_sha256


def test_parsed_data_is_made_from_the_files_as_they_are() -> None:
    # Fails when a map, ruleset or board profile changed without `make parsed` (the loaders would parse it: right,
    # only slower to start).
    fresh = make_parsed.entries()
    assert [(name, text, sha256) for name, text, _, sha256 in SHIPPED] == \
        [(name, text, sha256) for name, text, _, sha256 in fresh], "run `make parsed`"
    for (name, _, blob, _), (_, _, fresh_blob, _) in zip(SHIPPED, fresh, strict=True):
        assert marshal.loads(blob) == marshal.loads(fresh_blob), f"{name}: run `make parsed`"
    assert {name for name, *_ in SHIPPED} >= {f"rulesets/{name}.toml" for name in builtin_rulesets()}


@pytest.mark.parametrize(("name", "text"), [(name, text) for name, text, *_ in SHIPPED])
def test_each_entry_gives_what_parsing_gives(name: str, text: str) -> None:
    parsed = json.loads(text) if name.endswith(".json") else tomllib.loads(text)
    loaded = load_json(text) if name.endswith(".json") else load_toml(text)
    assert loaded == parsed and textdata._parsed_ahead(text) is not None
    assert text_sha256(text) == hashlib.sha256(text.encode("utf-8")).hexdigest()
    loaded[next(iter(loaded))] = "changed"       # each load is a copy of its own
    assert (load_json(text) if name.endswith(".json") else load_toml(text)) == parsed


def test_any_other_text_is_parsed_and_checked_as_before() -> None:
    italian = next(text for name, text, *_ in SHIPPED if name == "rulesets/italian.toml")
    edited = italian.replace("players_min = 2", "players_min = 2 ", 1)
    assert edited != italian and textdata._parsed_ahead(edited) is None
    assert load_toml(edited) == tomllib.loads(italian)
    with pytest.raises(textdata.BadText, match="not valid TOML"):
        load_toml(italian + "\n[[[")
    assert text_sha256("x") == hashlib.sha256(b"x").hexdigest()


def test_an_edited_ruleset_file_is_validated_as_any(tmp_path: Path) -> None:
    bad = tmp_path / "mine.toml"
    bad.write_text('extends = "italian"\nplayers_max = 99\n', encoding="utf-8")
    with pytest.raises(RulesetError, match="players_max"):
        load_ruleset(str(bad))


def test_the_shipped_map_keeps_its_identity() -> None:
    text = (make_parsed.DATA / "maps" / "classic-42.json").read_text("utf-8")
    assert load_map().sha256 == hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_a_board_start_parses_no_file_of_its_own() -> None:
    """The map, the board profile and every shipped ruleset load without tomllib, json, hashlib or importlib's
    resource readers."""
    code = ("import sys\nfrom conquista.rules.rulesets import builtin_rulesets, load_ruleset\n"
            "from conquista.hardware.profile import load_profile\n"
            "[load_ruleset(name) for name in builtin_rulesets()]\nload_profile()\n"
            "print(' '.join(sorted(m for m in ('tomllib', 'json', 'hashlib', '_hashlib', 'zipfile', 'pkgutil',\n"
            "                                   'importlib.resources') if m in sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert loaded.stdout.strip() == ""
    assert load_profile().game_map.size == 42


def test_package_data_is_read_from_a_directory_or_a_zip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import zipfile

    from conquista.rules.textdata import package_files, package_text

    with zipfile.ZipFile(tmp_path / "packed.zip", "w") as packed:
        packed.writestr("zipped_data/__init__.py", "")
        packed.writestr("zipped_data/table.toml", "a = 1\r\nb = 2\r\n")
    (tmp_path / "plain_data").mkdir()
    (tmp_path / "plain_data" / "__init__.py").write_text("")
    (tmp_path / "plain_data" / "table.toml").write_bytes(b"a = 1\r\nb = 2\r\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(tmp_path / "packed.zip"))
    for package in ("plain_data", "zipped_data"):
        # As importlib.resources reads it: universal newlines.
        assert package_text(package, "table.toml") == "a = 1\nb = 2\n"
        assert "table.toml" in package_files(package)
        with pytest.raises(OSError):
            package_text(package, "missing.toml")
