"""The agreement figures of graded use pairs, for one subset of items or many groups at once.

* :func:`subset_figures`: Krippendorff's α and the weighted mean pairwise Spearman ρ of some items;
* :func:`grouped_figures`: the same for every target at once (a loop over hundreds of targets
  calling the per-subset functions costs more than the whole pooled computation), through
  :func:`grouped_alpha` and :func:`grouped_spearman_weighted`;
* :func:`item_statistics`: per item the mean, range, the TRoTR filter and the binary label.
"""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.kinds.durel.options import DurelOptions
from iaa_desktop.core.metrics import encode_numeric, krippendorff_alpha, spearman_weighted


def subset_figures(
    values: NDArray[Any], judged: NDArray[Any], level: str, weights: NDArray[Any] | None = None
) -> dict[str, Any]:
    """α and weighted Spearman of the given items (rows) of the reliability matrix; a pair's ρ
    is weighted by the items both have in ``weights`` (default ``judged``)."""
    codes, cats = encode_numeric(values)
    pairable = (codes >= 0).sum(axis=1) >= 2
    alpha = math.nan
    if pairable.any() and len(cats) >= 1:
        alpha = krippendorff_alpha(codes, level, cats).value
    w = judged if weights is None else weights
    rho = spearman_weighted(values, w).value if values.shape[0] else math.nan
    return {
        "n_items": int(values.shape[0]),
        "krippendorff_alpha": alpha,
        "spearman_weighted": rho,
        "n_judgments": int(judged.sum()),
        "n_cant_decide": int((judged & np.isnan(values)).sum()),
        "n_annotators": int(judged.any(axis=0).sum()),
    }


# ---------------------------------------------------------------------------------------------
# the same figures for many targets at once (a loop over hundreds of targets calling the
# per-subset functions costs more than the whole pooled computation)


def _grouped_ranks(groups: NDArray[Any], x: NDArray[Any]) -> NDArray[Any]:
    """Average 1-based ranks of ``x`` within each group (ties share the mean rank)."""
    n = len(x)
    if n == 0:
        return np.zeros(0)
    order = np.lexsort((x, groups))
    gs, xs = groups[order], x[order]
    new_group = np.concatenate([[True], gs[1:] != gs[:-1]])
    group_start = np.maximum.accumulate(np.where(new_group, np.arange(n), 0))
    run_edge = np.concatenate([[True], (gs[1:] != gs[:-1]) | (xs[1:] != xs[:-1])])
    starts = np.flatnonzero(run_edge)
    ends = np.concatenate([starts[1:], [n]])
    run_rank = (starts + ends + 1) / 2.0 - group_start[starts]
    ranks = np.empty(n)
    ranks[order] = np.repeat(run_rank, ends - starts)
    return ranks


def grouped_spearman_weighted(
    values: NDArray[Any], judged: NDArray[Any], groups: NDArray[Any], n_groups: int
) -> NDArray[Any]:
    r"""Weighted mean pairwise Spearman ρ of each group of items (TRoTR).

    Per group and annotator pair (x, y), ρ_xy is the Pearson correlation of the average ranks of
    the items both judged with valid values; the group's figure is
    :math:`\sum w_{xy} \rho_{xy} / \sum w_{xy}` with :math:`w_{xy}` the number of the group's items
    both judged (can't-decide included). Undefined ρ (fewer than two items, constant
    judgments) are left out; a group with none is NaN. Equals
    :func:`iaa_desktop.core.metrics.spearman_weighted` on each group (tested).
    """
    valid = ~np.isnan(values)
    num = np.zeros(n_groups)
    den = np.zeros(n_groups)
    for x, y in combinations(range(values.shape[1]), 2):
        w = np.bincount(groups[judged[:, x] & judged[:, y]], minlength=n_groups).astype(float)
        both = valid[:, x] & valid[:, y]
        g = groups[both]
        rx, ry = _grouped_ranks(g, values[both, x]), _grouped_ranks(g, values[both, y])
        n = np.bincount(g, minlength=n_groups).astype(float)
        sx, sy = np.bincount(g, rx, n_groups), np.bincount(g, ry, n_groups)
        with np.errstate(invalid="ignore", divide="ignore"):
            mx, my = sx / n, sy / n
            # centred sums per group (ranks are small, so no cancellation worth fearing)
            cx, cy = rx - mx[g], ry - my[g]
            sxy = np.bincount(g, cx * cy, n_groups)
            sxx = np.bincount(g, cx * cx, n_groups)
            syy = np.bincount(g, cy * cy, n_groups)
            rho = sxy / np.sqrt(sxx * syy)
        ok = (n >= 2) & (sxx > 1e-12) & (syy > 1e-12) & (w > 0) & np.isfinite(rho)
        num[ok] += w[ok] * rho[ok]
        den[ok] += w[ok]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def grouped_alpha(
    values: NDArray[Any], groups: NDArray[Any], n_groups: int, level: str
) -> NDArray[Any]:
    r"""Krippendorff's α of each group of items (Krippendorff 2011), NaN for missing values.

    Coincidences per group :math:`o_{ck} = \sum_i (n_{ic} n_{ik} - [c=k] n_{ic})/(m_i - 1)` over
    pairable items, then :math:`\alpha = 1 - D_o/D_e` with the level's distance (the ordinal
    distance from the group's own marginals). Equals
    :func:`iaa_desktop.core.metrics.krippendorff_alpha` on each group (tested).
    """
    codes, cats = encode_numeric(values)
    q = len(cats)
    out = np.full(n_groups, np.nan)
    if q == 0:
        return out
    valid = codes >= 0
    rows = np.broadcast_to(np.arange(codes.shape[0])[:, None], codes.shape)[valid]
    counts = (
        np.bincount(rows * q + codes[valid], minlength=codes.shape[0] * q)
        .reshape(-1, q)
        .astype(float)
    )
    m = counts.sum(axis=1)
    keep = m >= 2
    c, g, w = counts[keep], groups[keep], 1.0 / (m[keep] - 1.0)
    pair = (c[:, :, None] * c[:, None, :]).reshape(len(c), q * q)
    pair[:, np.arange(q) * (q + 1)] -= c
    o = np.stack([np.bincount(g, pair[:, k] * w, n_groups) for k in range(q * q)], axis=1).reshape(
        n_groups, q, q
    )
    n_c = o.sum(axis=2)
    n = n_c.sum(axis=1)
    v = np.asarray(cats, dtype=float)
    if level == "nominal":
        delta = np.broadcast_to(1.0 - np.eye(q), (n_groups, q, q))
    elif level == "interval":
        delta = np.broadcast_to((v[:, None] - v[None, :]) ** 2, (n_groups, q, q))
    elif level == "ordinal":
        cum = np.concatenate([np.zeros((n_groups, 1)), np.cumsum(n_c, axis=1)], axis=1)
        a, b = np.arange(q)[:, None], np.arange(q)[None, :]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        delta = (cum[:, hi + 1] - cum[:, lo] - (n_c[:, lo] + n_c[:, hi]) / 2.0) ** 2
    else:
        raise ValueError(f"level {level!r} is not available for graded pairs")
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = (o * delta).sum(axis=(1, 2)) / n
        d_e = (n_c[:, :, None] * n_c[:, None, :] * delta).sum(axis=(1, 2)) / (n * (n - 1))
        alpha = 1.0 - d_o / d_e
    ok = (n > 1) & (d_e > 0)
    out[ok] = alpha[ok]
    return out


def grouped_figures(
    values: NDArray[Any],
    judged: NDArray[Any],
    groups: NDArray[Any],
    n_groups: int,
    level: str,
    weights: NDArray[Any] | None = None,
) -> list[dict[str, Any]]:
    """:func:`subset_figures` for every group at once."""
    cant = judged & np.isnan(values)
    alpha = grouped_alpha(values, groups, n_groups, level)
    w = judged if weights is None else weights
    rho = grouped_spearman_weighted(values, w, groups, n_groups)
    n_items = np.bincount(groups, minlength=n_groups)
    n_judg = np.bincount(groups, judged.sum(axis=1), n_groups)
    n_cant = np.bincount(groups, cant.sum(axis=1), n_groups)
    ann = np.stack(
        [np.bincount(groups, judged[:, j], n_groups) > 0 for j in range(judged.shape[1])], axis=1
    )
    return [
        {
            "n_items": int(n_items[k]),
            "krippendorff_alpha": float(alpha[k]),
            "spearman_weighted": float(rho[k]),
            "n_judgments": int(n_judg[k]),
            "n_cant_decide": int(n_cant[k]),
            "n_annotators": int(ann[k].sum()),
        }
        for k in range(n_groups)
    ]


def item_statistics(values: NDArray[Any], options: DurelOptions) -> dict[str, NDArray[Any]]:
    """Per item: number of valid judgments, mean, range, whether the filter keeps it, label."""
    valid = ~np.isnan(values)
    n_valid = valid.sum(axis=1)
    has = n_valid > 0
    filled_lo = np.where(valid, values, np.inf).min(axis=1)
    filled_hi = np.where(valid, values, -np.inf).max(axis=1)
    rng = np.where(has, filled_hi - filled_lo, np.nan)
    mean = np.where(has, np.where(valid, values, 0.0).sum(axis=1) / np.maximum(n_valid, 1), np.nan)
    lo, hi = options.filter_mean_low, options.filter_mean_high
    with np.errstate(invalid="ignore"):
        keep = has & (rng < options.filter_range) & ~((mean > lo) & (mean < hi))
        label = np.where(has, (mean >= options.label_threshold).astype(float), np.nan)
    return {"n_valid": n_valid, "mean": mean, "range": rng, "kept": keep, "label": label}


def row_sd(values: NDArray[Any]) -> NDArray[Any]:
    """Population standard deviation of each row over its non-NaN values (NaN for none).

    Written out rather than ``np.nanstd``, which warns on stderr for a row without values.
    """
    if values.size == 0:
        return np.zeros(values.shape[0])
    ok = ~np.isnan(values)
    n = ok.sum(axis=1)
    x = np.where(ok, values, 0.0)
    safe = np.maximum(n, 1)
    mean = x.sum(axis=1) / safe
    var = (np.where(ok, values - mean[:, None], 0.0) ** 2).sum(axis=1) / safe
    return np.where(n > 0, np.sqrt(var), np.nan)
