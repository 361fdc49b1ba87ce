r"""Rank correlation between annotators of graded judgments.

Weighted mean pairwise Spearman (Schlechtweg et al. 2018; TRoTR, Periti et al. 2024):
for each pair of annotators (x, y), ρ_xy is Spearman's ρ over the items both judged with valid
values; the overall figure is

.. math:: \bar\rho = \frac{\sum_{x<y} w_{xy}\,\rho_{xy}}{\sum_{x<y} w_{xy}}

with w_xy the number of items x and y both judged (``judged`` mask: can't-decide judgments count
here although they are missing values for ρ). Pairs whose ρ is undefined (fewer than two items,
or constant judgments) are left out of the mean.
"""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.metrics.result import AgreementResult


def _rank(x: NDArray[Any]) -> NDArray[Any]:
    """Average ranks (ties share the mean rank), as ``scipy.stats.rankdata``."""
    order = np.argsort(x, kind="mergesort")
    xs = x[order]
    n = len(x)
    ranks = np.empty(n)
    boundaries = np.flatnonzero(np.diff(xs)) + 1
    starts = np.concatenate([[0], boundaries])
    ends = np.concatenate([boundaries, [n]])
    avg = (starts + ends + 1) / 2.0  # 1-based average rank of each run
    ranks[order] = np.repeat(avg, ends - starts)
    return ranks


def spearman_rho(x: NDArray[Any], y: NDArray[Any]) -> float:
    """Spearman's ρ (Pearson correlation of average ranks); NaN when undefined.

    >>> round(spearman_rho(np.array([1., 2, 3, 4]), np.array([1., 3, 2, 4])), 4)
    0.8
    """
    if len(x) < 2:
        return math.nan
    rx, ry = _rank(np.asarray(x, float)), _rank(np.asarray(y, float))
    rx -= rx.mean()
    ry -= ry.mean()
    den = math.sqrt(float((rx * rx).sum() * (ry * ry).sum()))
    return float((rx * ry).sum() / den) if den > 0 else math.nan


def pairwise_spearman(
    values: NDArray[Any], judged: NDArray[Any] | None = None
) -> list[tuple[int, int, float, int, int]]:
    """ρ and weights for every annotator pair: list of (x, y, rho, n_valid, n_judged)."""
    values = np.asarray(values, dtype=float)
    valid = ~np.isnan(values)
    judged = valid if judged is None else np.asarray(judged, dtype=bool)
    out = []
    for x, y in combinations(range(values.shape[1]), 2):
        both = valid[:, x] & valid[:, y]
        n_j = int((judged[:, x] & judged[:, y]).sum())
        rho = spearman_rho(values[both, x], values[both, y]) if both.sum() >= 2 else math.nan
        out.append((x, y, rho, int(both.sum()), n_j))
    return out


def spearman_weighted(values: NDArray[Any], judged: NDArray[Any] | None = None) -> AgreementResult:
    """Mean pairwise Spearman ρ weighted by co-judged items (see the module docstring).

    ``values`` is items × annotators with NaN for missing; ``judged`` marks who judged what
    (including can't-decide); it defaults to the non-missing values.

    >>> v = np.array([[1., 1, 2], [2, 2, 1], [3, 4, np.nan], [4, 3, 4]])
    >>> round(spearman_weighted(v).value, 4)  # (4·0.8 + 3·0.5 + 3·0.5) / 10
    0.62
    """
    pairs = pairwise_spearman(values, judged)
    num = den = 0.0
    for _x, _y, rho, _nv, n_j in pairs:
        if math.isfinite(rho) and n_j > 0:
            num += n_j * rho
            den += n_j
    value = num / den if den > 0 else math.nan
    values = np.asarray(values, dtype=float)
    pairable = (~np.isnan(values)).sum(axis=1) >= 2
    return AgreementResult(
        "spearman_weighted",
        value,
        n_items=int(pairable.sum()),
        n_annotators=values.shape[1],
        extra={"pairs": [(x, y, rho, nj) for x, y, rho, _nv, nj in pairs]},
    )


def spearman_vs_others(values: NDArray[Any]) -> NDArray[Any]:
    """Per annotator: ρ between their judgments and the mean of the other annotators' judgments
    on the same items (items where they and at least one other have a valid value)."""
    values = np.asarray(values, dtype=float)
    c = values.shape[1]
    out = np.full(c, np.nan)
    for x in range(c):
        others = np.delete(values, x, axis=1)
        with np.errstate(invalid="ignore"):
            cnt = (~np.isnan(others)).sum(axis=1)
            mean_o = np.where(cnt > 0, np.nansum(others, axis=1) / np.maximum(cnt, 1), np.nan)
        ok = ~np.isnan(values[:, x]) & ~np.isnan(mean_o)
        out[x] = spearman_rho(values[ok, x], mean_o[ok])
    return out
