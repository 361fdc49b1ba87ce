r"""Krippendorff's unitizing α (αU), as DKPro Statistics implements it.

A continuum :math:`[B, B + L)` is segmented by each of R raters into units (with a category) and
gaps. For one category k, with :math:`\ell` the length of a unit and :math:`b, e` its begin and
end:

Observed disagreement (Krippendorff 1995, 2004 §12.4; DKPro's pairwise walk over the segments):

.. math::
    D_o(k) = \frac{2}{R(R-1)L^2} \sum_{r<s} \Big[
      \sum_{u \in U_r, v \in U_s,\, u \cap v \ne \emptyset} (b_u - b_v)^2 + (e_u - e_v)^2
      + \sum_{u \in U_r \text{ in a gap of } s} \ell_u^2 + \sum_{v \in U_s \text{ in a gap of } r} \ell_v^2
    \Big]

Expected disagreement, over every unit of k (all raters), :math:`N_k` of them, and the gaps
:math:`g` of every rater for k:

.. math::
    D_e(k) = \frac{\frac{2}{L} \sum_u \Big[ \frac{(N_k - 1)(2\ell_u^3 - 3\ell_u^2 + \ell_u)}{3}
      + \ell_u^2 \sum_{g \ge \ell_u} (g - \ell_u + 1) \Big]}
      {RL(RL - 1) - \sum_u \ell_u(\ell_u - 1)}

:math:`\alpha_U(k) = 1 - D_o(k)/D_e(k)` (0 when the two are equal); over all categories
:math:`\alpha_U = 1 - \overline{D_o}/\overline{D_e}` with the means over the categories present,
1 when both are 0 and some unit has a length, 0 when no unit has, NaN without units.

Two units of one rater and one category must not overlap (DKPro's precondition); a caller drops or
merges them first.

References
----------
Krippendorff, K. (1995). On the reliability of unitizing continuous data. *Sociological
Methodology* 25, 47–76.
Krippendorff, K. (2004). *Content Analysis: An Introduction to Its Methodology* (2nd ed.), §12.4.
Meyer, C. M., Mieskes, M., Stab, C. & Gurevych, I. (2014). DKPro Agreement: An open-source Java
library for measuring inter-rater agreement. *COLING 2014: System Demonstrations*, 105–109.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.metrics.spans import overlap_edges


@dataclass(frozen=True, slots=True)
class UnitizingStudy:
    """Units of a unitizing study: begin, length, rater index and category code of each unit."""

    begin: NDArray[Any]
    length: NDArray[Any]
    rater: NDArray[Any]
    category: NDArray[Any]
    n_raters: int
    continuum_begin: int
    continuum_length: int

    @classmethod
    def of(
        cls,
        units: list[tuple[int, int, int, int]],
        n_raters: int,
        continuum_length: int,
        continuum_begin: int = 0,
    ) -> UnitizingStudy:
        """From ``(begin, length, rater, category)`` tuples (DKPro's ``addUnit`` arguments)."""
        arr = np.asarray(units, dtype=np.int64).reshape(-1, 4)
        return cls(
            arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3], n_raters, continuum_begin, continuum_length
        )


def grouped_disagreements(
    begin: NDArray[Any],
    end: NDArray[Any],
    rater: NDArray[Any],
    group: NDArray[Any],
    group_length: NDArray[Any],
    n_raters: int,
) -> tuple[NDArray[Any], NDArray[Any]]:
    """(D_o, D_e) of many independent (continuum, category) groups at once, vectorised.

    ``begin``/``end`` are relative to the start of the unit's group; group ``g`` is a continuum of
    length ``group_length[g]`` holding one category. Units of zero length are ignored; units of one
    rater in one group must not overlap.
    """
    glen = np.asarray(group_length, dtype=np.int64)
    b, e, r, g = _clean(begin, end, rater, group)
    num = _observed_sums(b, e, r, g, glen, n_raters)
    L = glen.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = 2.0 * num / (n_raters * (n_raters - 1) * L * L)
    d_e = _grouped_expected(b, e, r, g, glen, n_raters)
    return d_o, d_e


def _clean(begin: Any, end: Any, rater: Any, group: Any) -> tuple[NDArray[Any], ...]:
    """The units as int64 arrays, those of zero length dropped."""
    b, e = np.asarray(begin, dtype=np.int64), np.asarray(end, dtype=np.int64)
    r, g = np.asarray(rater, dtype=np.int64), np.asarray(group, dtype=np.int64)
    keep = e > b
    return b[keep], e[keep], r[keep], g[keep]


def _observed_sums(
    b: NDArray[Any],
    e: NDArray[Any],
    r: NDArray[Any],
    g: NDArray[Any],
    glen: NDArray[Any],
    n_raters: int,
) -> NDArray[Any]:
    """Per group, the bracketed sum of D_o over the rater pairs (before the normalisation)."""
    n_groups = len(glen)
    stride = int(glen.max()) + 1 if n_groups else 1
    pos_b, pos_e = b + g * stride, e + g * stride  # groups never overlap on this axis
    num = np.zeros(n_groups)
    per_rater = [np.flatnonzero(r == x) for x in range(n_raters)]
    for x, y in combinations(range(n_raters), 2):
        a, c = per_rater[x], per_rater[y]
        i, j = overlap_edges(pos_b[a], pos_e[a], pos_b[c], pos_e[c])
        d = (b[a][i] - b[c][j]) ** 2 + (e[a][i] - e[c][j]) ** 2
        num += np.bincount(g[a][i], weights=d.astype(float), minlength=n_groups)
        for side, hit in ((a, i), (c, j)):
            alone = np.ones(len(side), dtype=bool)
            alone[hit] = False
            ell = (e[side] - b[side])[alone].astype(float)
            num += np.bincount(g[side][alone], weights=ell * ell, minlength=n_groups)
    return num


def _grouped_gaps(
    b: NDArray[Any],
    e: NDArray[Any],
    r: NDArray[Any],
    g: NDArray[Any],
    glen: NDArray[Any],
    n_raters: int,
) -> tuple[NDArray[Any], NDArray[Any]]:
    """Every gap (group, length) each rater leaves in each group."""
    n_groups = len(glen)
    order = np.lexsort((b, g, r))
    b, e, r, g = b[order], e[order], r[order], g[order]
    key = r * n_groups + g
    first = np.ones(len(key), dtype=bool)
    first[1:] = key[1:] != key[:-1]
    last = np.ones(len(key), dtype=bool)
    last[:-1] = key[1:] != key[:-1]
    prev_end = np.concatenate([[0], e[:-1]])
    lead = np.where(first, b, b - prev_end)  # gap before each unit
    tail = (glen[g] - e)[last]  # gap after the last unit of each (rater, group)
    empty = np.ones(n_raters * n_groups, dtype=bool)
    empty[key] = False
    empty_groups = np.flatnonzero(empty) % n_groups
    gap_group = np.concatenate([g, g[last], empty_groups])
    gap_len = np.concatenate([lead, tail, glen[empty_groups]])
    ok = gap_len > 0
    return gap_group[ok], gap_len[ok]


def _tail_sums(
    gap_group: NDArray[Any],
    gap_len: NDArray[Any],
    big: int,
    group: NDArray[Any],
    length: NDArray[Any],
) -> NDArray[Any]:
    """For each (``group``, ``length``) pair (broadcast): Σ (gap − length + 1) over the gaps of
    that group at least ``length`` long, by one sort and a cumulative sum (``big`` exceeds every
    gap length)."""
    keys = np.sort(gap_group * big + gap_len)
    csum = np.concatenate([[0.0], np.cumsum((keys % big).astype(float))])
    lo = np.searchsorted(keys, group * big + length, side="left")
    hi = np.searchsorted(keys, (group + 1) * big, side="left")
    out: NDArray[Any] = (csum[hi] - csum[lo]) - (length - 1.0) * (hi - lo)
    return out


def _grouped_expected(
    b: NDArray[Any],
    e: NDArray[Any],
    r: NDArray[Any],
    g: NDArray[Any],
    glen: NDArray[Any],
    n_raters: int,
) -> NDArray[Any]:
    n_groups = len(glen)
    gap_group, gap_len = _grouped_gaps(b, e, r, g, glen, n_raters)
    big = int(max(int(glen.max()) if n_groups else 0, 1)) + 2
    ell = (e - b).astype(float)
    inner = _tail_sums(gap_group, gap_len, big, g, e - b)  # Σ_{gap ≥ ℓ} (gap − ℓ + 1)
    n_k = np.bincount(g, minlength=n_groups).astype(float)
    term = (n_k[g] - 1.0) * (2 * ell**3 - 3 * ell**2 + ell) / 3.0 + ell**2 * inner
    L = glen.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        num = np.bincount(g, weights=term, minlength=n_groups) * 2.0 / L
        den = n_raters * L * (n_raters * L - 1.0) - np.bincount(
            g, weights=ell * (ell - 1.0), minlength=n_groups
        )
        out = np.where(n_k > 0, num / den, 0.0)
    return out


def pooled_disagreements(
    begin: NDArray[Any],
    end: NDArray[Any],
    rater: NDArray[Any],
    segment: NDArray[Any],
    category: NDArray[Any],
    segment_length: NDArray[Any],
    n_categories: int,
    n_raters: int,
    weights: NDArray[Any],
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    r"""(D_o, D_e, N_k) of segments pooled into one study, for many weightings at once.

    Segment s (a document) is a continuum of length :math:`L_s`; ``begin``/``end`` are relative
    to its start. A weighting :math:`w` (a row of ``weights``, weightings × segments) stands for
    the study made of :math:`w_s` copies of each segment laid end to end, every gap ending at its
    segment's end (a unit cannot be placed across two documents). Every term of the formulas in
    the module docstring is then a sum over segments, or a product of two such sums:
    :math:`L = \sum_s w_s L_s`, the bracket of :math:`D_o(k)` is :math:`\sum_s w_s O_{sk}`,
    :math:`N_k = \sum_s w_s n_{sk}`, likewise :math:`\sum_u (2\ell_u^3 - 3\ell_u^2 + \ell_u)/3`
    and :math:`\sum_u \ell_u(\ell_u - 1)`, and the unit–gap term

    .. math::
        \sum_u \ell_u^2 \sum_{g \ge \ell_u} (g - \ell_u + 1)
        = \sum_\lambda \Big(\sum_s w_s U_{s\lambda}\Big) \Big(\sum_s w_s G_{s\lambda}\Big)

    over the distinct unit lengths λ of k, with :math:`U_{s\lambda}` = λ² × the units of length
    λ in s and :math:`G_{s\lambda} = \sum_{\text{gaps } g \ge \lambda \text{ in } s} (g-\lambda+1)`.
    The sums per segment are computed once; each weighting then costs matrix products, which
    makes the bootstrap over documents exact and cheap. Returns three (weightings × categories)
    arrays; D_e is 0 where N_k = 0.
    """
    W = np.atleast_2d(np.asarray(weights, dtype=float))
    S, K, R = len(segment_length), max(int(n_categories), 1), n_raters
    slen = np.asarray(segment_length, dtype=np.int64)
    seg, cat = np.asarray(segment, dtype=np.int64), np.asarray(category, dtype=np.int64)
    b, e, r, g = _clean(begin, end, rater, seg * K + cat)
    glen = np.repeat(slen, K)
    ell = (e - b).astype(float)

    def per(v: NDArray[Any]) -> NDArray[Any]:
        out: NDArray[Any] = W @ np.bincount(g, weights=v, minlength=S * K).reshape(S, K)
        return out

    obs = W @ _observed_sums(b, e, r, g, glen, R).reshape(S, K)
    n, f = per(np.ones(len(g))), per((2 * ell**3 - 3 * ell**2 + ell) / 3.0)
    q = per(ell * (ell - 1.0))
    cross = _pooled_cross(b, e, r, g, glen, R, (S, K), W)
    L = (W @ slen.astype(float))[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = 2.0 * obs / (R * (R - 1) * L * L)
        d_e = (2.0 / L) * ((n - 1.0) * f + cross) / (R * L * (R * L - 1.0) - q)
    return d_o, np.where(n > 0, d_e, 0.0), n


def _pooled_cross(
    b: NDArray[Any],
    e: NDArray[Any],
    r: NDArray[Any],
    g: NDArray[Any],
    glen: NDArray[Any],
    n_raters: int,
    shape: tuple[int, int],
    W: NDArray[Any],
) -> NDArray[Any]:
    """The unit–gap term of D_e's numerator per weighting and category (see the caller)."""
    S, K = shape
    gap_group, gap_len = _grouped_gaps(b, e, r, g, glen, n_raters)
    gap_seg, gap_cat = gap_group // K, gap_group % K
    ell = e - b
    big = int(glen.max(initial=0)) + 2
    out = np.zeros((len(W), K))
    segs = np.arange(S)[:, None]
    for k in range(K):
        su = g % K == k
        if not su.any():
            continue
        lam, inv = np.unique(ell[su], return_inverse=True)
        m = len(lam)
        U = np.bincount(
            (g[su] // K) * m + inv.ravel(), weights=ell[su].astype(float) ** 2, minlength=S * m
        ).reshape(S, m)
        sg = gap_cat == k
        G = _tail_sums(gap_seg[sg], gap_len[sg], big, segs, lam[None, :])
        out[:, k] = ((W @ U) * (W @ G)).sum(axis=1)
    return out


def pooled_alpha(
    d_o: NDArray[Any], d_e: NDArray[Any], n: NDArray[Any]
) -> tuple[NDArray[Any], NDArray[Any]]:
    """αU overall (the means of D_o and D_e over the categories with units) and per category,
    per row of :func:`pooled_disagreements`' arrays, with :func:`alpha_from_disagreements`'
    conventions (NaN for a category without units)."""
    present = n > 0
    k = present.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mo = np.where(present, d_o, 0.0).sum(axis=1) / k
        me = np.where(present, d_e, 0.0).sum(axis=1) / k
        overall = np.where(mo == me, np.where(mo == 0.0, 1.0, 0.0), 1.0 - mo / me)
        per = np.where(d_o == d_e, 0.0, 1.0 - d_o / d_e)
    overall = np.where(np.isfinite(mo) & np.isfinite(me) & (k > 0), overall, np.nan)
    return overall, np.where(present, per, np.nan)


def category_disagreements(study: UnitizingStudy, category: int) -> tuple[float, float]:
    """(D_o, D_e) of one category."""
    sel = study.category == category
    begin = study.begin[sel] - study.continuum_begin
    d_o, d_e = grouped_disagreements(
        begin,
        begin + study.length[sel],
        study.rater[sel],
        np.zeros(int(sel.sum()), dtype=np.int64),
        np.array([study.continuum_length]),
        study.n_raters,
    )
    return float(d_o[0]), float(d_e[0])


def alpha_from_disagreements(d_o: float, d_e: float, informative: bool = True) -> float:
    """DKPro's ``calculateAgreement``: 1 − D_o/D_e; equal values give 0, or 1 when both are 0
    and the study carries information (some unit has a length)."""
    if not (math.isfinite(d_o) and math.isfinite(d_e)):
        return math.nan
    if d_o == d_e:
        return (1.0 if informative else 0.0) if d_o == 0.0 else 0.0
    return 1.0 - d_o / d_e


def unitizing_alpha(study: UnitizingStudy) -> dict[str, object]:
    """αU of the study and of every category (DKPro Statistics' ``KrippendorffAlphaUnitizingAgreement``).

    Returns ``alpha``, ``observed`` and ``expected`` (means over the categories) and
    ``categories``: code → (αU(k), D_o(k), D_e(k)).

    Krippendorff (2004, p. 254)'s example (two observers, continuum 150–450): DKPro's test expects
    αU = 0.8591 ± 0.0005:

    >>> s = UnitizingStudy.of([(225, 70, 0, 0), (370, 30, 0, 0), (220, 80, 1, 0), (355, 20, 1, 0),
    ...     (400, 20, 1, 0), (180, 60, 0, 1), (300, 50, 0, 1), (180, 60, 1, 1), (300, 50, 1, 1)],
    ...     2, 300, 150)
    >>> abs(unitizing_alpha(s)["alpha"] - 0.8591) < 0.0005
    True
    """
    cats = sorted(set(np.asarray(study.category).tolist()))
    per: dict[int, tuple[float, float, float]] = {}
    for k in cats:
        d_o, d_e = category_disagreements(study, k)
        per[k] = (0.0 if d_o == d_e else 1.0 - d_o / d_e if d_e else math.nan, d_o, d_e)
    if not cats:
        return {"alpha": math.nan, "observed": math.nan, "expected": math.nan, "categories": per}
    d_o = float(np.mean([v[1] for v in per.values()]))
    d_e = float(np.mean([v[2] for v in per.values()]))
    informative = bool((np.asarray(study.length) > 0).any())
    return {
        "alpha": alpha_from_disagreements(d_o, d_e, informative),
        "observed": d_o,
        "expected": d_e,
        "categories": per,
    }
