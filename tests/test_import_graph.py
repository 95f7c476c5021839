"""No import circles in the product or the simulator, type-checking imports included.

`lint-imports` checks the layers between packages; a circle between two modules of one package passes it. A circle
means neither module can be read, tested or moved without the other, so each one found here is a concept split in
the wrong place. grimp is the import graph `lint-imports` is built on.
"""

from __future__ import annotations

import grimp
import pytest

PACKAGES = ("conquista", "conquista_sim")

# The circles still allowed, each exactly as it stands. All belong to code another engineer is rebuilding; when one
# is cut its entry must go too (the test says so), so the list can only shrink.
ALLOWED_CIRCLES: tuple[frozenset[str], ...] = (
    # None: the table's rebuild cut the referee's circle and moved the web's wire records into web/wire.py.
)


def import_circles(graph: grimp.ImportGraph) -> list[frozenset[str]]:
    """The strongly connected sets of two or more modules (Tarjan's algorithm, without recursion)."""
    imports = {module: sorted(graph.find_modules_directly_imported_by(module)) for module in sorted(graph.modules)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[frozenset[str]] = []
    for root in imports:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            module, next_child = work.pop()
            if next_child == 0:
                index[module] = low[module] = len(index)
                stack.append(module)
                on_stack.add(module)
            children = imports[module]
            if next_child < len(children):
                work.append((module, next_child + 1))
                child = children[next_child]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[module] = min(low[module], index[child])
                continue
            if low[module] == index[module]:
                members = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.add(member)
                    if member == module:
                        break
                if len(members) > 1:
                    circles.append(frozenset(members))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
    return circles


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=False, cache_dir=None)


def describe(graph: grimp.ImportGraph, circle: frozenset[str]) -> str:
    edges = [f"  {a} -> {b}" for a in sorted(circle) for b in sorted(graph.find_modules_directly_imported_by(a))
             if b in circle]
    return "\n".join(edges)


def test_no_import_circle_beyond_the_allowed_ones(graph: grimp.ImportGraph) -> None:
    new = [circle for circle in import_circles(graph) if circle not in ALLOWED_CIRCLES]
    assert not new, "import circles (move the shared concept into a module both can import):\n" + "\n\n".join(
        describe(graph, circle) for circle in new)


def test_every_allowed_circle_still_exists(graph: grimp.ImportGraph) -> None:
    found = import_circles(graph)
    gone = [sorted(circle) for circle in ALLOWED_CIRCLES if circle not in found]
    assert not gone, f"these circles are cut or changed: remove or update them in ALLOWED_CIRCLES: {gone}"


def test_the_search_finds_a_circle_made_on_purpose() -> None:
    made = grimp.ImportGraph()
    for module in ("p", "p.a", "p.b", "p.c", "p.d"):
        made.add_module(module)
    made.add_import(importer="p.a", imported="p.b")
    made.add_import(importer="p.b", imported="p.c")
    made.add_import(importer="p.c", imported="p.a")
    made.add_import(importer="p.c", imported="p.d")
    assert import_circles(made) == [frozenset({"p.a", "p.b", "p.c"})]


def test_type_checking_imports_are_in_the_graph(graph: grimp.ImportGraph) -> None:
    # A circle closed only under `if TYPE_CHECKING:` still ties the two modules together for a reader and for mypy.
    without = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)
    assert graph.count_imports() > without.count_imports()
