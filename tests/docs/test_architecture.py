"""ARCHITECTURE.md stays true: every file and package it names exists, and its layer table is the layers contract."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "ARCHITECTURE.md"
# Where a path in the page is looked for: the host package, the repository, the firmware, and the rules package
# (the engine's row names the modules of rules/ by their file names).
BASES = (ROOT / "host" / "conquista", ROOT, ROOT / "host", ROOT / "firmware",
         ROOT / "host" / "conquista" / "rules")


def named_paths(text: str) -> list[str]:
    return [m for m in re.findall(r"`([\w./-]+)`", text) if m.endswith((".py", ".pyi", ".md", "/"))]


def test_every_file_it_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [p for p in named_paths(text) if not any((base / p).exists() for base in BASES)]
    assert named_paths(text) and missing == []


def test_every_layer_of_the_contract_is_in_its_table() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c["layers"] for c in contracts["contracts"] if c["type"] == "layers")
    packages = {p.strip("() ") for layer in layers for p in layer.split(":")} - {"conquista.errors"}
    text = DOC.read_text(encoding="utf-8")
    assert [p for p in sorted(packages) if f"`{p}`" not in text] == []
