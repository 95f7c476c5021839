"""The one breadth-first search over a map's links: map connectivity when loading, fortify paths in the engine."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence


def reachable(neighbours: Sequence[Iterable[int]], start: int, colour: Sequence[int] | None = None) -> set[int]:
    """Every territory reachable from `start` over links, `start` included. With `colour` (e.g. the owner of each
    territory) only through territories of the same colour as `start`: where a player's armies may march."""
    seen = {start}
    queue = deque((start,))
    if colour is None:
        while queue:
            for n in neighbours[queue.popleft()]:
                if n not in seen:
                    seen.add(n)
                    queue.append(n)
        return seen
    mine = colour[start]
    while queue:
        for n in neighbours[queue.popleft()]:
            if n not in seen and colour[n] == mine:
                seen.add(n)
                queue.append(n)
    return seen
