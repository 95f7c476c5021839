"""The little statistics the dice audit needs, in closed form (no SciPy at the table)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with `df` degrees of freedom (a whole number, as every audit test has).

    Closed forms: for even df the upper tail is a Poisson sum, e^(-x/2) * sum_{i<df/2} (x/2)^i / i!; for odd df
    it is erfc(sqrt(x/2)) plus sqrt(2x/pi) e^(-x/2) * sum_{i=1}^{(df-1)/2} x^(i-1) / (1*3*...*(2i-1)).
    Both sums have at most df/2 terms, and every term is positive, so there is no cancellation.
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term = total = 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    tail = math.erfc(math.sqrt(half))
    if df == 1:
        return tail
    term = total = 1.0
    for i in range(2, (df - 1) // 2 + 1):
        term *= x / (2 * i - 1)
        total += term
    return min(1.0, tail + math.sqrt(2 * x / math.pi) * math.exp(-half) * total)


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> float:
    """Pearson's statistic sum (O - E)^2 / E over the categories (every expected count must be positive)."""
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def normal_sf(z: float) -> float:
    """P(Z >= z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))
