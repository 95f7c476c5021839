"""Territory cards and sets. Card ids 0..n-1 are the territories' cards; ids n.. are the jollies (wild cards)."""

from __future__ import annotations

from itertools import combinations

from conquista.rules.mapdata import GameMap

JOLLY = "jolly"
_THREE_OF = {"cannon": "three_cannons", "infantry": "three_infantry", "cavalry": "three_cavalry"}


def card_symbol(game_map: GameMap, card: int) -> str:
    territories = game_map.territories  # its length is `size`, read without the property's call
    return territories[card].card if card < len(territories) else JOLLY


def set_kind(symbols: tuple[str, str, str]) -> str | None:
    """The kind of a three-card set (a key of a ruleset's `set_values`), or None if no ruleset could accept it."""
    jollies = symbols.count(JOLLY)
    plain = [s for s in symbols if s != JOLLY]
    if jollies == 0:
        if plain[0] == plain[1] == plain[2]:
            return _THREE_OF[plain[0]]
        if len(set(plain)) == 3:
            return "one_each"
        return None
    if jollies == 1:
        return "jolly_pair" if plain[0] == plain[1] else "jolly_mixed"
    return "jolly_jolly"


def valid_trades(game_map: GameMap, hand: list[int], valid_sets: tuple[str, ...]) -> list[tuple[int, int, int]]:
    """Every three-card combination of `hand` that makes a set the ruleset accepts, sorted."""
    out = []
    cards = sorted(hand)
    # Each card's symbol once, not once per combination it is in (a hand of 5 makes 10).
    symbols = [card_symbol(game_map, c) for c in cards]
    for i, j, k in combinations(range(len(cards)), 3):
        kind = set_kind((symbols[i], symbols[j], symbols[k]))
        if kind is not None and kind in valid_sets:
            out.append((cards[i], cards[j], cards[k]))
    return out
