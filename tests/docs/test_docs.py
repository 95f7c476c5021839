"""The documentation ships with the product: it explains every rule and points nowhere outside the repository."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from conquista.rules.rulesets import builtin_rulesets

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "host" / "conquista" / "data" / "rulesets"
RULES_DOC = ROOT / "docs" / "rules.md"
# What a user reads or opens: none of it may send them to the developers' notes outside the repository.
USER_FACING = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted(RULESETS.glob("*.toml")),
               *sorted((ROOT / "hardware").rglob("*.md")), *sorted((ROOT / "host" / "conquista").rglob("*.py"))]
OUTSIDE = re.compile(r"\.\./shared|/work/|RULES\.md|seeds/")


@pytest.mark.parametrize("path", USER_FACING, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_points_outside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert [m.group(0) for m in OUTSIDE.finditer(text)] == []


def test_every_builtin_ruleset_has_its_section() -> None:
    headings = re.findall(r"^## `([^`]+)`", RULES_DOC.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert sorted(headings) == sorted(builtin_rulesets())


def test_every_parameter_is_named_in_the_rules() -> None:
    doc = RULES_DOC.read_text(encoding="utf-8")
    root = tomllib.loads((RULESETS / "italian.toml").read_text(encoding="utf-8"))
    assert [key for key in root if f"`{key}" not in doc] == [], "explain the new parameter in docs/rules.md"


def test_every_interpretation_quotes_its_source() -> None:
    paragraphs = RULES_DOC.read_text(encoding="utf-8").split("\n\n")
    bullets = [b for p in paragraphs for b in re.split(r"\n- ", p) if "[interpretation]" in b]
    for bullet in (b for b in bullets if "is marked" not in b):  # the introduction explains the mark
        assert re.search(r"\*\"[^\"]+\"\*", bullet), bullet[:80]


def test_every_interpretation_in_a_ruleset_file_is_explained_in_the_rules() -> None:
    """A `# [interpretation]` comment on a parameter of a ruleset file has an [interpretation] bullet in
    docs/rules.md that names that parameter (and, by the test above, quotes its source)."""
    paragraphs = RULES_DOC.read_text(encoding="utf-8").split("\n\n")
    bullets = [b for p in paragraphs for b in re.split(r"\n- ", p) if "[interpretation]" in b]
    for path in RULESETS.glob("*.toml"):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if "[interpretation]" not in line:
                continue
            own = line.split("#", 1)[0].strip()
            following = own or next(x for x in lines[i + 1:] if x.strip() and not x.startswith("#"))
            key = following.split("=", 1)[0].strip()
            assert any(f"`{key}" in b for b in bullets), f"{path.name}: explain {key} as an [interpretation]"


def test_the_ruleset_files_and_readme_point_to_the_rules() -> None:
    for path in [ROOT / "README.md", *RULESETS.glob("*.toml")]:
        assert "docs/rules.md" in path.read_text(encoding="utf-8"), path.name


SEAT_GRANTED = re.compile(r"seat[^.]*granted[^.]*by ROLL(?! and NEXT)|grant[^.]*type `roll`", re.IGNORECASE)


@pytest.mark.parametrize("path", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_a_seat_is_granted_with_roll_and_next_everywhere(path: Path) -> None:
    """The board grants a phone's seat with ROLL and NEXT together (`grant` in the simulator), as the README and the
    phone say; no document says ROLL alone (issue 39 §13)."""
    text = " ".join(path.read_text("utf-8").split())
    assert not SEAT_GRANTED.findall(text), SEAT_GRANTED.findall(text)
