r"""Span agreement: exact and overlap span F1, unit codes for character/token coefficients.

Spans are given as flat arrays on one *global axis*: the caller places every (document, label)
on its own stretch of integers, so that two spans overlap on the axis exactly when they are in the
same document, carry the same label and share a character. One call then compares a whole corpus.

Exact-match span F1 of two annotators (Hripcsak & Rothschild 2005; bratiaa's instance-level F1):

.. math:: F_1 = \frac{2\,TP}{|A| + |B|}

where TP counts the spans both annotators have with the same fragments and label. Overlap F1
counts as TP a maximum one-to-one matching (Hopcroft & Karp 1973) of spans that share at least one
character and the label, so no span counts twice.

Character- and token-level coefficients treat every character (token) as an item whose value is
the label of the span covering it, or "no label"; :func:`unit_codes` builds those values from the
spans, marking units covered by two different labels of one annotator.

References
----------
Hripcsak, G. & Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in information
retrieval. *JAMIA* 12(3), 296–298.
Hopcroft, J. E. & Karp, R. M. (1973). An n^{5/2} algorithm for maximum matchings in bipartite
graphs. *SIAM Journal on Computing* 2(4), 225–231.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: code of a unit covered by two different labels of one annotator (left out of the coefficients)
CONFLICT = -2


def f1_from_counts(
    tp: NDArray[Any], n_a: NDArray[Any] | float, n_b: NDArray[Any] | float
) -> NDArray[Any]:
    r"""Span F1 :math:`2TP / (|A| + |B|)`, elementwise; NaN where neither annotator has a span.

    >>> f1_from_counts(np.array([3, 0]), np.array([4, 0]), np.array([5, 0])).round(4).tolist()
    [0.6667, nan]
    """
    tp = np.asarray(tp, dtype=float)
    total = np.asarray(n_a, dtype=float) + np.asarray(n_b, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, 2.0 * tp / np.where(total > 0, total, 1.0), np.nan)


def overlap_edges(
    starts_a: NDArray[Any], ends_a: NDArray[Any], starts_b: NDArray[Any], ends_b: NDArray[Any]
) -> tuple[NDArray[Any], NDArray[Any]]:
    """Every pair (i, j) of intervals ``[starts_a[i], ends_a[i])`` and ``[starts_b[j], ends_b[j])``
    that share at least one position, as two index arrays (each pair once).

    A pair overlaps when B starts inside A (``a.start ≤ b.start < a.end``) or A starts strictly
    inside B; the two cases are disjoint, so each is a contiguous range of the intervals sorted by
    start and the whole is vectorised.

    >>> i, j = overlap_edges(np.array([0, 10]), np.array([5, 12]), np.array([3, 12]), np.array([11, 13]))
    >>> sorted(zip(i.tolist(), j.tolist()))
    [(0, 0), (1, 0)]
    """
    sa, ea = np.asarray(starts_a, dtype=np.int64), np.asarray(ends_a, dtype=np.int64)
    sb, eb = np.asarray(starts_b, dtype=np.int64), np.asarray(ends_b, dtype=np.int64)
    oa, ob = np.argsort(sa, kind="stable"), np.argsort(sb, kind="stable")
    sa_sorted, sb_sorted = sa[oa], sb[ob]
    # B starting in [a.start, a.end)
    lo = np.searchsorted(sb_sorted, sa, side="left")
    hi = np.searchsorted(sb_sorted, ea, side="left")
    i1, j1 = _expand(lo, hi)
    # A starting in (b.start, b.end)
    lo2 = np.searchsorted(sa_sorted, sb, side="right")
    hi2 = np.searchsorted(sa_sorted, eb, side="left")
    j2, i2 = _expand(lo2, hi2)
    return (
        np.concatenate([i1, oa[i2]]).astype(np.int64),
        np.concatenate([ob[j1], j2]).astype(np.int64),
    )


def _expand(lo: NDArray[Any], hi: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """For each k, the pairs (k, lo[k]), …, (k, hi[k] − 1)."""
    n = np.maximum(hi - lo, 0)
    owner = np.repeat(np.arange(len(lo), dtype=np.int64), n)
    if not len(owner):
        return owner, owner
    first = np.repeat(lo - np.concatenate([[0], np.cumsum(n)[:-1]]), n)
    return owner, first + np.arange(len(owner), dtype=np.int64)


def max_overlap_matching(
    n_a: int, n_b: int, edges_a: NDArray[Any], edges_b: NDArray[Any]
) -> tuple[NDArray[Any], NDArray[Any]]:
    """A maximum one-to-one matching of the bipartite graph A × B given by its edges.

    Returns the matched pairs (index into A, index into B). Uses Hopcroft–Karp through SciPy; the
    matching size is unique, the pairs need not be.

    >>> a, b = max_overlap_matching(2, 2, np.array([0, 1, 1]), np.array([0, 0, 1]))
    >>> len(a)
    2
    """
    if n_a == 0 or n_b == 0 or len(edges_a) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching

    ea, eb = np.asarray(edges_a, dtype=np.int64), np.asarray(edges_b, dtype=np.int64)
    graph = csr_matrix((np.ones(len(ea), dtype=np.int8), (ea, eb)), shape=(n_a, n_b))
    graph.sum_duplicates()
    match = maximum_bipartite_matching(graph, perm_type="column")  # A row → B column or -1
    rows = np.flatnonzero(match >= 0)
    return rows.astype(np.int64), match[rows].astype(np.int64)


def unit_codes(
    unit_starts: NDArray[Any],
    unit_ends: NDArray[Any],
    span_starts: NDArray[Any],
    span_ends: NDArray[Any],
    span_labels: NDArray[Any],
    none_code: int,
) -> NDArray[Any]:
    """The value of each unit (character run or token) for one annotator.

    Units are disjoint intervals sorted by start; a unit takes the label code of every span
    fragment overlapping it, ``none_code`` when none does and :data:`CONFLICT` when fragments of two
    different labels do (an annotator's overlapping spans; the unit is left out of the figures).

    >>> unit_codes(np.array([0, 2, 4]), np.array([2, 4, 6]), np.array([0, 3]), np.array([3, 5]),
    ...            np.array([0, 1]), 9).tolist()
    [0, -2, 1]
    """
    us, ue = np.asarray(unit_starts, dtype=np.int64), np.asarray(unit_ends, dtype=np.int64)
    n = len(us)
    first = np.searchsorted(ue, np.asarray(span_starts, dtype=np.int64), side="right")
    last = np.searchsorted(us, np.asarray(span_ends, dtype=np.int64), side="left")
    owner, unit = _expand(first, last)
    labels = np.asarray(span_labels, dtype=np.int64)[owner]
    lo = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    hi = np.full(n, -1, dtype=np.int64)
    np.minimum.at(lo, unit, labels)
    np.maximum.at(hi, unit, labels)
    out = np.full(n, none_code, dtype=np.int64)
    covered = hi >= 0
    out[covered] = lo[covered]
    out[covered & (lo != hi)] = CONFLICT
    return out


# ---------------------------------------------------------------------------------------------
# coefficients for many weightings of the same distinct rows at once (documents, resamples)


def _counts(codes: NDArray[Any], q: int) -> NDArray[Any]:
    counts = np.zeros((codes.shape[0], q), dtype=float)
    rows, cols = np.nonzero(codes >= 0)
    np.add.at(counts, (rows, codes[rows, cols]), 1.0)
    return counts


def fleiss_kappa_batch(codes: NDArray[Any], q: int, weights: NDArray[Any]) -> NDArray[Any]:
    r"""Fleiss' κ of each row of ``weights`` (a weighting of the rows of ``codes``), vectorised.

    Same formula as :func:`iaa_desktop.core.metrics.fleiss_kappa` (Fleiss 1971): mean pairwise
    agreement of pairable items against :math:`\sum_k p_k^2`; ``codes`` (U × c), ``weights``
    (B × U). NaN where undefined.
    """
    counts = _counts(np.asarray(codes), q)
    m = counts.sum(axis=1)
    w = np.asarray(weights, dtype=float)
    keep = m >= 2
    with np.errstate(invalid="ignore", divide="ignore"):
        agr = np.where(keep, ((counts * counts).sum(axis=1) - m) / (m * (m - 1.0)), 0.0)
        wk = w * keep
        a_o = (wk @ agr) / wk.sum(axis=1)
        p = (w @ counts) / (w @ m)[:, None]
        a_e = (p * p).sum(axis=1)
        out = (a_o - a_e) / (1.0 - a_e)
    return np.where(a_e < 1.0, out, np.nan)


def alpha_nominal_batch(codes: NDArray[Any], q: int, weights: NDArray[Any]) -> NDArray[Any]:
    r"""Krippendorff's nominal α of each weighting, vectorised (Krippendorff 2011).

    Coincidences :math:`o_{ck} = \sum_i w_i n_{ic}(n_{ik} - [c=k])/(m_i - 1)`;
    :math:`\alpha = 1 - (n-1)\,\frac{n - \sum_c o_{cc}}{n^2 - \sum_c n_c^2}`.
    """
    counts = _counts(np.asarray(codes), q)
    m = counts.sum(axis=1)
    keep = m >= 2
    w = np.asarray(weights, dtype=float) * keep
    with np.errstate(invalid="ignore", divide="ignore"):
        diag = np.where(keep, ((counts * counts).sum(axis=1) - m) / (m - 1.0), 0.0)  # Σ_c o_cc
        n_c = w @ np.where(keep[:, None], counts, 0.0)  # marginals of o
        n = n_c.sum(axis=1)
        d_o = n - w @ diag
        d_e = (n * n - (n_c * n_c).sum(axis=1)) / (n - 1.0)
        out = 1.0 - d_o / d_e
    return np.where((n > 1) & (d_e > 0), out, np.nan)


def cohen_kappa_batch(codes: NDArray[Any], q: int, weights: NDArray[Any]) -> NDArray[Any]:
    r"""Cohen's κ of each weighting of two-annotator rows ``codes`` (U × 2), vectorised (Cohen 1960)."""
    codes = np.asarray(codes)
    both = (codes[:, 0] >= 0) & (codes[:, 1] >= 0)
    w = np.asarray(weights, dtype=float) * both
    a, b = np.where(both, codes[:, 0], 0), np.where(both, codes[:, 1], 0)
    same = (a == b).astype(float)
    one_a = np.zeros((len(a), q))
    one_a[np.arange(len(a)), a] = 1.0
    one_b = np.zeros((len(b), q))
    one_b[np.arange(len(b)), b] = 1.0
    with np.errstate(invalid="ignore", divide="ignore"):
        n = w.sum(axis=1)
        a_o = (w @ same) / n
        a_e = ((w @ one_a) * (w @ one_b)).sum(axis=1) / (n * n)
        out = (a_o - a_e) / (1.0 - a_e)
    return np.where((n > 0) & (a_e < 1.0), out, np.nan)


def percentile_interval(values: NDArray[Any], confidence: float = 0.95) -> tuple[float, float]:
    """The percentile interval of bootstrap values (NaN when fewer than 10 are defined)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if len(v) < 10:
        return math.nan, math.nan
    tail = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(v, [tail, 1.0 - tail])
    return float(lo), float(hi)
