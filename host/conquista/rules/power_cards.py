"""The power cards of the 1954 patent (`card_deck = "power"`): sets of four different figures and eagles.

Card ids live far above any territory index, so a power card is never taken for a territory card (no territory bonus
can match one) and a log names them without the ruleset: figures are `POWER_BASE + 4 * (n - 1) + figure` and read
"napoleon:n", "grenadier:n", "hussar:n", "cannon:n"; eagles are `EAGLE_BASE + n - 1` and read "eagle:n".
"""

from __future__ import annotations

from itertools import product

FIGURES = ("napoleon", "grenadier", "hussar", "cannon")
EAGLE = "eagle"
POWER_BASE = 100_000
EAGLE_BASE = 200_000
SETS_MAX = 1000           # power_figure_sets and power_eagles stay below this (the ids of the two kinds never meet)


def deck(figure_sets: int, eagles: int) -> list[int]:
    """Every power card id: `figure_sets` groups of the four figures, then the eagles."""
    return [*range(POWER_BASE, POWER_BASE + 4 * figure_sets), *range(EAGLE_BASE, EAGLE_BASE + eagles)]


def is_power(card: int) -> bool:
    return POWER_BASE <= card < POWER_BASE + 4 * SETS_MAX or EAGLE_BASE <= card < EAGLE_BASE + SETS_MAX


def is_eagle(card: int) -> bool:
    return EAGLE_BASE <= card < EAGLE_BASE + SETS_MAX


def figure(card: int) -> str:
    """The figure a power card shows ("eagle" for an eagle)."""
    return EAGLE if is_eagle(card) else FIGURES[(card - POWER_BASE) % 4]


def name(card: int) -> str:
    if is_eagle(card):
        return f"{EAGLE}:{card - EAGLE_BASE + 1}"
    k = card - POWER_BASE
    return f"{FIGURES[k % 4]}:{k // 4 + 1}"


def index(text: str) -> int | None:
    """The id of a power card named as `name()` writes it, or None if `text` is not such a name."""
    kind, sep, number = text.partition(":")
    if not sep or not (number.isascii() and number.isdigit() and len(number) <= 3) or not 1 <= int(number) <= SETS_MAX:
        return None
    n = int(number) - 1
    if kind == EAGLE:
        return EAGLE_BASE + n
    if kind in FIGURES:
        return POWER_BASE + 4 * n + FIGURES.index(kind)
    return None


def trade_kind(cards: tuple[int, ...]) -> str | None:
    """"eagle" for one eagle, "four_figures" for the four different figures, None for anything else."""
    if len(cards) == 1 and is_eagle(cards[0]):
        return "eagle"
    if (len(cards) == 4 and all(is_power(c) and not is_eagle(c) for c in cards)
            and len({figure(c) for c in cards}) == 4):
        return "four_figures"
    return None


def valid_trades(hand: list[int]) -> list[tuple[int, ...]]:
    """Every trade `hand` makes, sorted: each eagle alone, and each choice of one card of every figure."""
    out: list[tuple[int, ...]] = [(c,) for c in sorted(hand) if is_eagle(c)]
    by_figure = [sorted(c for c in hand if not is_eagle(c) and figure(c) == f) for f in FIGURES]
    if all(by_figure):
        out.extend(tuple(sorted(combo)) for combo in product(*by_figure))
    return sorted(out)
