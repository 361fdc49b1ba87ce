r"""Krippendorff's α for any level of measurement or distance function.

.. math::
    o_{ck} = \sum_i \frac{n_{ic} n_{ik} - [c=k]\, n_{ic}}{m_i - 1},\qquad
    n_c = \sum_k o_{ck},\quad n = \sum_c n_c

.. math::
    D_o = \frac{1}{n}\sum_{c,k} o_{ck}\,\delta(c,k),\qquad
    D_e = \frac{1}{n(n-1)}\sum_{c,k} n_c n_k\,\delta(c,k),\qquad
    \alpha = 1 - \frac{D_o}{D_e}

Distances δ (Krippendorff 2011): nominal ``[c ≠ k]``; interval ``(c − k)²``; ratio
``((c − k)/(c + k))²``; ordinal ``(Σ_{g=c..k} n_g − (n_c + n_k)/2)²`` over the sorted values;
for strings the normalized Levenshtein distance ``LD(a, b) / max(|a|, |b|)`` (used as δ itself).

Reference: Krippendorff, K. (2011). *Computing Krippendorff's Alpha-Reliability*.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from iaa_desktop.core.metrics.coding import (
    MISSING,
    annotators_on,
    category_counts,
    coincidences_from_counts,
    n_categories_of,
)
from iaa_desktop.core.metrics.result import AgreementResult

LEVELS = ("nominal", "ordinal", "interval", "ratio")

Distance = Callable[[np.ndarray, np.ndarray], np.ndarray]


def distance_matrix(
    level: str, values: np.ndarray, marginals: np.ndarray | None = None
) -> np.ndarray:
    """δ(c, k) for every pair of categories with the given numeric ``values``.

    ``marginals`` (n_c) are needed for the ordinal level, whose distance depends on them.
    """
    v = np.asarray(values, dtype=float)
    q = len(v)
    if level == "nominal":
        return 1.0 - np.eye(q)
    if level == "interval":
        return (v[:, None] - v[None, :]) ** 2
    if level == "ratio":
        s = v[:, None] + v[None, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            d = ((v[:, None] - v[None, :]) / s) ** 2
        return np.where(s == 0, 0.0, d)
    if level == "ordinal":
        if marginals is None:
            raise ValueError("the ordinal distance needs the marginals n_c")
        order = np.argsort(v, kind="stable")
        n_sorted = np.asarray(marginals, dtype=float)[order]
        cum = np.concatenate([[0.0], np.cumsum(n_sorted)])
        # Σ_{g=a..b} n_g − (n_a + n_b)/2 for sorted positions a ≤ b
        a = np.arange(q)[:, None]
        b = np.arange(q)[None, :]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        d_sorted = (cum[hi + 1] - cum[lo] - (n_sorted[lo] + n_sorted[hi]) / 2.0) ** 2
        inv = np.empty(q, dtype=int)
        inv[order] = np.arange(q)
        return d_sorted[np.ix_(inv, inv)]
    raise ValueError(f"unknown level of measurement {level!r}; choose one of {', '.join(LEVELS)}")


def alpha_from_coincidences(
    o: np.ndarray, delta: np.ndarray, name: str = "krippendorff_alpha"
) -> AgreementResult:
    """α from a coincidence matrix and a distance matrix (see the module docstring)."""
    n_c = o.sum(axis=1)
    n = n_c.sum()
    if n <= 1:
        return AgreementResult(name, math.nan, n_items=0)
    d_o = float((o * delta).sum() / n)
    d_e = float((np.outer(n_c, n_c) * delta).sum() / (n * (n - 1)))
    value = 1.0 - d_o / d_e if d_e > 0 else math.nan
    return AgreementResult(name, value, d_o, d_e)


def krippendorff_alpha(
    codes: np.ndarray,
    level: str = "nominal",
    values: Sequence[float] | np.ndarray | None = None,
    distance: Distance | np.ndarray | None = None,
    n_categories: int | None = None,
    weights: np.ndarray | None = None,
) -> AgreementResult:
    """Krippendorff's α over pairable items.

    Parameters
    ----------
    codes : (N, c) category indices, -1 = missing
    level : ``nominal``, ``ordinal``, ``interval`` or ``ratio``
    values : numeric value of each category (default ``0..q-1``); used by interval, ratio and
        ordinal (for the order)
    distance : a (q, q) matrix, or a function ``f(values_c, values_k) -> δ`` applied to the
        broadcast category values, replacing the level's distance
    weights : per-item weights (bootstrap)

    Krippendorff (2011)'s reliability data (4 observers × 12 units, with missing values):

    >>> from iaa_desktop.core.metrics.coding import encode
    >>> data = [[1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2],
    ...         [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5],
    ...         [None, None, 1, 1], [None, 3, None, None]]
    >>> codes, cats = encode(data)
    >>> [round(krippendorff_alpha(codes, lv, cats).value, 3)
    ...  for lv in ("nominal", "ordinal", "interval", "ratio")]
    [0.743, 0.815, 0.849, 0.797]
    """
    codes = np.asarray(codes)
    q = n_categories_of(codes, n_categories)
    vals = np.arange(q, dtype=float) if values is None else np.asarray(values, dtype=float)
    if len(vals) != q:
        raise ValueError("values must give one number per category")
    counts = category_counts(codes, q).astype(float)
    o = coincidences_from_counts(counts, weights)
    if distance is not None:
        delta = (
            distance if isinstance(distance, np.ndarray) else distance(vals[:, None], vals[None, :])
        )
        delta = np.asarray(delta, dtype=float)
    else:
        delta = distance_matrix(level, vals, o.sum(axis=1))
    r = alpha_from_coincidences(o, delta)
    pair = counts.sum(axis=1) >= 2
    return AgreementResult(
        "krippendorff_alpha",
        r.value,
        r.observed,
        r.expected,
        int(pair.sum()),
        annotators_on(codes, pair),
        extra={"level": level if distance is None else "custom"},
    )


# ---------------------------------------------------------------------------------------------
# strings with the normalized Levenshtein distance


def _nld_rows(a: Sequence[str], b: Sequence[str]) -> np.ndarray:
    """NLD for aligned pairs (a[j], b[j]); empty vs empty is 0."""
    from rapidfuzz.distance import Levenshtein

    out = np.empty(len(a))
    for j, (x, y) in enumerate(zip(a, b)):
        m = max(len(x), len(y))
        out[j] = Levenshtein.distance(x, y) / m if m else 0.0
    return out


def _nld_expected_sum(labels: Sequence[str], n_c: np.ndarray, chunk: int = 4096) -> float:
    r"""Σ_{c,k} n_c n_k NLD(c, k) over all pairs of distinct labels.

    This is the costly part of α with a string distance (every pair of labels). Labels are
    grouped by length, so within a block of two length groups the denominator max(|c|, |k|) is
    one number and the block reduces to ``n_Li · LD · n_Lj / max(li, lj)``: rapidfuzz's ``cdist``
    computes the Levenshtein distances (SIMD, all cores) and BLAS the weighted sums, with no
    per-pair arithmetic in numpy.
    """
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import cdist

    labels = list(labels)
    weights = np.asarray(n_c, dtype=np.float64)
    lengths = np.fromiter((len(s) for s in labels), dtype=np.int64, count=len(labels))
    groups = [np.flatnonzero(lengths == ln) for ln in np.unique(lengths)]
    group_len = [int(lengths[g[0]]) for g in groups]
    total = 0.0
    for i, gi in enumerate(groups):
        for j in range(i, len(groups)):
            gj = groups[j]
            denom = max(group_len[i], group_len[j])
            if denom == 0:
                continue  # "" vs "": distance 0
            choices = [labels[k] for k in gj]
            wj = weights[gj].astype(np.float32)
            block_sum = 0.0
            for start in range(0, len(gi), chunk):
                rows = gi[start : start + chunk]
                ld = cdist(
                    [labels[k] for k in rows],
                    choices,
                    scorer=Levenshtein.distance,
                    dtype=np.float32,
                    workers=-1,
                )
                block_sum += float(weights[rows] @ (ld @ wj).astype(np.float64))
            total += block_sum / denom * (1.0 if i == j else 2.0)
    return total


def krippendorff_alpha_strings(
    labels: Any,
    distance: str | Callable[[str, str], float] = "nld",
) -> AgreementResult:
    """Krippendorff's α for string labels with a string distance (default: normalized Levenshtein).

    ``labels`` is an (N, c) table of strings, ``None`` (or NaN) = missing. The empty string is a
    label (e.g. ∅, a deleted character), not a missing value. Only the distinct label pairs that
    co-occur in an item enter D_o; D_e needs every pair of distinct labels and is computed in
    blocks with rapidfuzz, so tens of thousands of distinct labels stay fast.

    NLD (Levenshtein distance over the longer length) is used as δ itself, not squared
    (Bollmann, Dipper & Petran 2016).

    >>> round(krippendorff_alpha_strings([["abc", "abc"], ["abd", "abc"], ["x", "xy"]]).value, 4)
    0.5614
    """
    arr = np.asarray(labels, dtype=object)
    if arr.ndim != 2:
        raise ValueError("labels must be a 2-D table: items × annotators")
    flat = arr.ravel()
    valid = np.array([isinstance(v, str) for v in flat])
    cats, inv = np.unique(flat[valid].astype(str), return_inverse=True)
    codes = np.full(flat.shape, MISSING, dtype=np.int64)
    codes[valid] = inv
    codes = codes.reshape(arr.shape)
    return alpha_strings_from_codes(codes, cats.tolist(), distance)


def alpha_strings_from_codes(
    codes: np.ndarray,
    categories: Sequence[str],
    distance: str | Callable[[str, str], float] = "nld",
) -> AgreementResult:
    """:func:`krippendorff_alpha_strings` for already encoded labels (categories = the strings)."""
    codes = np.asarray(codes)
    q = len(categories)
    valid = codes >= 0
    m = valid.sum(axis=1)
    keep = m >= 2
    ck, mk = codes[keep], m[keep]
    if ck.shape[0] == 0:
        return AgreementResult("krippendorff_alpha", math.nan, n_items=0)
    c = codes.shape[1]
    # ordered pairs of values within each item, weighted 1/(m_i − 1)
    pa, pb, pw = [], [], []
    inv_m = 1.0 / (mk - 1.0)
    for x in range(c):
        for y in range(c):
            if x == y:
                continue
            both = (ck[:, x] >= 0) & (ck[:, y] >= 0)
            pa.append(ck[both, x])
            pb.append(ck[both, y])
            pw.append(inv_m[both])
    a = np.concatenate(pa)
    b = np.concatenate(pb)
    w = np.concatenate(pw)
    n_c = np.bincount(a, weights=w, minlength=q)  # Σ_k o_ck
    n = n_c.sum()
    diff = a != b
    pair_keys = a[diff].astype(np.int64) * q + b[diff]
    uniq, pos = np.unique(pair_keys, return_inverse=True)
    if distance == "nld":
        d_pairs = _nld_rows([categories[k // q] for k in uniq], [categories[k % q] for k in uniq])
    else:
        d_pairs = np.array([float(distance(categories[k // q], categories[k % q])) for k in uniq])
    d_o = float((d_pairs[pos] * w[diff]).sum() / n)
    present = np.flatnonzero(n_c > 0)
    if distance == "nld":
        e_sum = _nld_expected_sum([categories[k] for k in present], n_c[present])
    else:
        labs = [categories[k] for k in present]
        dm = np.array([[float(distance(s, t)) for t in labs] for s in labs])
        e_sum = float(n_c[present] @ dm @ n_c[present])
    d_e = float(e_sum / (n * (n - 1)))
    value = 1.0 - d_o / d_e if d_e > 0 else math.nan
    return AgreementResult(
        "krippendorff_alpha",
        value,
        d_o,
        d_e,
        int(keep.sum()),
        int(valid[keep].any(axis=0).sum()),
        extra={"level": "nld" if distance == "nld" else "custom"},
    )
