"""Small statistics used to report engine results: intervals, not single numbers."""

from __future__ import annotations

import math

__all__ = ["wilson_interval", "mean_interval", "clustered_interval"]

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


def clustered_interval(values, groups, z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)`` of outcomes in [0, 1] (a draw 0.5) that come in groups whose
    members are not independent: the positions of one game share its result, so a
    game, not a position, is the independent unit.

    The interval is Wilson's at the effective number of observations ``n / deff``,
    where the design effect ``deff`` (at least 1) is the cluster-robust variance of the
    mean (the ratio estimator over the groups' sums, with the small-sample factor
    ``k / (k - 1)`` for ``k`` groups) over the variance of the mean of ``n`` independent
    values (with its own factor ``n / (n - 1)``).  With one value a group it is Wilson's
    interval of the values; with one group it says nothing, ``(mean, 0, 1)``.
    """
    import numpy as np

    y = np.asarray(values, dtype=np.float64).reshape(-1)
    g = np.asarray(groups).reshape(-1)
    if y.shape != g.shape:
        raise ValueError(f"clustered_interval: expected one group per value, got {y.size} values and "
                         f"{g.size} groups")
    n = y.size
    if n == 0:
        return math.nan, 0.0, 1.0
    mean = float(y.mean())
    _, which = np.unique(g, return_inverse=True)
    k = int(which.max()) + 1
    if k < 2:
        return mean, 0.0, 1.0
    sums = np.bincount(which, weights=y, minlength=k)
    sizes = np.bincount(which, minlength=k).astype(np.float64)
    var_cluster = k / (k - 1) * float(np.sum((sums - mean * sizes) ** 2)) / (n * n)
    var_iid = mean * (1.0 - mean) / (n - 1)
    deff = max(1.0, var_cluster / var_iid) if var_iid > 0 else 1.0
    n_eff = n / deff
    low, high = wilson_interval(mean * n_eff, n_eff, z)
    return mean, low, high
