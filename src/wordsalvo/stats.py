"""Small statistics used to report engine results: intervals, not single numbers."""

from __future__ import annotations

import math

__all__ = ["wilson_interval", "mean_interval"]

#: the normal quantile of a two-sided 95 % interval
Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``successes / n`` (a draw may count 0.5).

    Returns ``(low, high)``; ``(0.0, 1.0)`` when ``n`` is 0.  Unlike the normal
    approximation it stays inside [0, 1] and behaves near 0 and 1.
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values, z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its normal-approximation interval."""
    vals = list(values)
    n = len(vals)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = sum(vals) / n
    if n == 1:
        return m, m, m
    var = sum((v - m) ** 2 for v in vals) / (n - 1)
    half = z * math.sqrt(var / n)
    return m, m - half, m + half
