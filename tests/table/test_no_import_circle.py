"""`conquista.table` is in no import circle, type-checking imports included (grimp, which lint-imports is built on,
reads every import statement, those under `if TYPE_CHECKING:` too)."""

from __future__ import annotations

import grimp


def circles(graph: grimp.ImportGraph, package: str) -> list[tuple[str, str]]:
    """Each (module, module it imports) of `package` from which an import chain leads back."""
    found = []
    for module in sorted(m for m in graph.modules if m == package or m.startswith(package + ".")):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported != module and graph.chain_exists(importer=imported, imported=module):
                found.append((module, imported))
    return found


def test_the_table_is_in_no_import_circle() -> None:
    graph = grimp.build_graph("conquista", cache_dir=None)
    assert circles(graph, "conquista.table") == []


def test_the_web_companion_and_views_are_in_no_circle() -> None:
    graph = grimp.build_graph("conquista", cache_dir=None)
    assert [pair for pair in circles(graph, "conquista.web") if "companion" in pair[0] or "views" in pair[0]] == []
