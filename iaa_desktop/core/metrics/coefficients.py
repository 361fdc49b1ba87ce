r"""Agreement coefficients for coded items, vectorised over the reliability data.

Notation (Artstein & Poesio 2008): items i = 1..N, annotators x, y, ... (c of them),
categories k = 1..q; ``codes[i, x]`` is x's category for i or ``-1`` when x did not label i;
:math:`n_{ik}` is the number of annotators who gave i the label k and :math:`m_i = \sum_k n_{ik}`.
Only *pairable* items (:math:`m_i \ge 2`) enter the coefficients.

Every function accepts optional per-item ``weights`` (an item counted w_i times); the bootstrap
uses them to resample the distinct rows of ``codes`` instead of the items.

References
----------
Artstein, R. & Poesio, M. (2008). Inter-coder agreement for computational linguistics.
*Computational Linguistics* 34(4), 555–596.
Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educ. Psychol. Meas.* 20, 37–46.
Cohen, J. (1968). Weighted kappa. *Psychological Bulletin* 70(4), 213–220.
Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. *Psychol. Bull.* 76, 378–382.
Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence of high
agreement. *Brit. J. Math. Stat. Psychol.* 61, 29–48.
Hubert, L. (1977). Kappa revisited. *Psychological Bulletin* 84(2), 289–297.
Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
Communication Departmental Papers 43.
Scott, W. A. (1955). Reliability of content analysis. *Public Opinion Quarterly* 19, 321–325.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import combinations

import numpy as np

from iaa_desktop.core.metrics.coding import (
    annotators_on,
    category_counts,
    coincidence_matrix,
    confusion_matrix,
    item_weights,
    n_categories_of,
    pairwise_confusions,
)
from iaa_desktop.core.metrics.result import AgreementResult

__all__ = [
    "percent_agreement",
    "fleiss_kappa",
    "multi_kappa",
    "gwet_ac1",
    "cohen_kappa",
    "scott_pi",
    "weighted_kappa",
    "item_agreement",
    "item_disagreement",
    "per_category_agreement",
    "annotator_distributions",
]


def _chance_corrected(
    name: str, a_o: float, a_e: float, n: int, c: int, **extra
) -> AgreementResult:
    value = (a_o - a_e) / (1.0 - a_e) if a_e < 1.0 and n > 0 else math.nan
    if n > 0 and a_e >= 1.0 and a_o >= 1.0:
        value = math.nan  # every label identical: chance agreement is total, the ratio is 0/0
    return AgreementResult(name, float(value), float(a_o), float(a_e), int(n), int(c), extra=extra)


def _counts_and_weights(codes: np.ndarray, n_categories: int | None, weights: np.ndarray | None):
    codes = np.asarray(codes)
    counts = category_counts(codes, n_categories).astype(float)
    m = counts.sum(axis=1)
    w = item_weights(codes.shape[0], weights)
    keep = (m >= 2) & (w > 0)
    return codes, counts, m, w, keep


def _observed(counts: np.ndarray, m: np.ndarray, w: np.ndarray, keep: np.ndarray) -> float:
    """Weighted mean over pairable items of Σ_k n_ik(n_ik − 1) / (m_i(m_i − 1)), without copies."""
    wk = np.where(keep, w, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_item = np.einsum("ik,ik->i", counts, counts) - m  # Σ n² − Σ n = Σ n(n − 1)
        agr = np.where(keep, per_item / (m * (m - 1.0)), 0.0)
    return float((agr * wk).sum() / wk.sum())


def _n_annotators(codes: np.ndarray, keep: np.ndarray) -> int:
    return annotators_on(codes, keep)


def item_agreement(codes: np.ndarray, n_categories: int | None = None) -> np.ndarray:
    r"""Share of agreeing annotator pairs per item, NaN where fewer than two labels.

    .. math:: \mathrm{agr}(i) = \frac{\sum_k n_{ik}(n_{ik}-1)}{m_i (m_i - 1)}

    >>> item_agreement([[0, 0, 1], [1, 1, 1], [0, -1, -1]]).round(4).tolist()
    [0.3333, 1.0, nan]
    """
    counts = category_counts(np.asarray(codes), n_categories).astype(float)
    m = counts.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        agr = (counts * (counts - 1)).sum(axis=1) / (m * (m - 1))
    agr[m < 2] = np.nan
    return agr


def item_disagreement(codes: np.ndarray, n_categories: int | None = None) -> np.ndarray:
    """1 − :func:`item_agreement`: the share of annotator pairs that disagree on each item."""
    return 1.0 - item_agreement(codes, n_categories)


def percent_agreement(
    codes: np.ndarray, n_categories: int | None = None, weights: np.ndarray | None = None
) -> AgreementResult:
    r"""Observed agreement: the mean over pairable items of the share of agreeing pairs.

    .. math:: A_o = \frac{1}{N'} \sum_{i: m_i \ge 2} \frac{\sum_k n_{ik}(n_{ik}-1)}{m_i(m_i-1)}

    Artstein & Poesio (2008), §2.4. For two annotators this is the share of identical labels.

    >>> round(percent_agreement([[0, 0], [0, 1], [1, 1], [1, 1]]).value, 4)
    0.75
    """
    codes, counts, m, w, keep = _counts_and_weights(codes, n_categories, weights)
    if not keep.any():
        return AgreementResult("percent_agreement", math.nan, n_items=0)
    a_o = _observed(counts, m, w, keep)
    return AgreementResult(
        "percent_agreement", a_o, a_o, math.nan, int(keep.sum()), _n_annotators(codes, keep)
    )


def fleiss_kappa(
    codes: np.ndarray, n_categories: int | None = None, weights: np.ndarray | None = None
) -> AgreementResult:
    r"""Fleiss' multi-rater κ (Artstein & Poesio's π*): chance from the pooled label distribution.

    .. math::
        A_o = \overline{\mathrm{agr}(i)},\qquad
        A_e = \sum_k p_k^2,\quad p_k = \frac{\sum_i n_{ik}}{\sum_i m_i},\qquad
        \kappa = \frac{A_o - A_e}{1 - A_e}

    with A_o over pairable items and p_k the share of all labels that are k (Fleiss 1971;
    Artstein & Poesio 2008, §2.5).

    Fleiss (1971)'s table (10 subjects × 14 raters, 5 categories) gives κ = 0.210:

    >>> rows = [[0,0,0,0,14],[0,2,6,4,2],[0,0,3,5,6],[0,3,9,2,0],[2,2,8,1,1],
    ...         [7,7,0,0,0],[3,2,6,3,0],[2,5,3,2,2],[6,5,2,1,0],[0,2,2,3,7]]
    >>> codes = [[k for k, n in enumerate(r) for _ in range(n)] for r in rows]
    >>> round(fleiss_kappa(codes).value, 3)
    0.21
    """
    codes, counts, m, w, keep = _counts_and_weights(codes, n_categories, weights)
    if not keep.any():
        raise_or = AgreementResult("fleiss_kappa", math.nan)
        return raise_or
    a_o = _observed(counts, m, w, keep)
    # p_k: share of *all* labels that are k (an item labelled once still shows label use)
    p = w @ counts / float(w @ m)
    a_e = float((p**2).sum())
    return _chance_corrected("fleiss_kappa", a_o, a_e, int(keep.sum()), _n_annotators(codes, keep))


def annotator_distributions(
    codes: np.ndarray,
    n_categories: int | None = None,
    weights: np.ndarray | None = None,
    items: np.ndarray | None = None,
) -> np.ndarray:
    """``P[x, k]``: share of annotator x's labels (over ``items``, default all) that are k."""
    codes = np.asarray(codes)
    q = n_categories_of(codes, n_categories)
    w = item_weights(codes.shape[0], weights)
    if items is not None:
        codes, w = codes[items], w[items]
    c = codes.shape[1]
    P = np.zeros((c, q))
    for x in range(c):
        v = codes[:, x] >= 0
        tot = np.bincount(codes[v, x], weights=w[v], minlength=q)
        s = tot.sum()
        P[x] = tot / s if s > 0 else np.nan
    return P


def multi_kappa(
    codes: np.ndarray, n_categories: int | None = None, weights: np.ndarray | None = None
) -> AgreementResult:
    r"""Hubert's multi-κ: Fleiss' observed agreement, chance from each annotator's own distribution.

    .. math::
        A_e = \frac{1}{\binom{c}{2}} \sum_{x<y} \sum_k P(k\mid x)\,P(k\mid y),\qquad
        \kappa = \frac{A_o - A_e}{1 - A_e}

    with :math:`P(k\mid x)` the share of all of x's labels that are k; annotator
    pairs that share no item are left out of the mean (Hubert 1977; Artstein & Poesio 2008, §2.6;
    the Bernard of Clairvaux intertextuality study, eq. 7–8). For two annotators it equals Cohen's κ.

    Artstein & Poesio (2008), example 1 (100 items, counts 20/10/20/50) gives κ = 0.348:

    >>> codes = [[0, 0]] * 20 + [[0, 1]] * 10 + [[1, 0]] * 20 + [[1, 1]] * 50
    >>> round(multi_kappa(codes).value, 3)
    0.348
    """
    codes, counts, m, w, keep = _counts_and_weights(codes, n_categories, weights)
    if not keep.any():
        return AgreementResult("multi_kappa", math.nan)
    a_o = _observed(counts, m, w, keep)
    q = counts.shape[1]
    P = annotator_distributions(codes, q, w)  # share of all of x's labels that are k
    valid = codes[keep] >= 0
    terms = []
    for x, y in combinations(range(codes.shape[1]), 2):
        if (valid[:, x] & valid[:, y]).any():
            terms.append(float(P[x] @ P[y]))
    a_e = float(np.mean(terms)) if terms else math.nan
    n_ann = int(valid.any(axis=0).sum())
    return _chance_corrected("multi_kappa", a_o, a_e, int(keep.sum()), n_ann)


def gwet_ac1(
    codes: np.ndarray, n_categories: int | None = None, weights: np.ndarray | None = None
) -> AgreementResult:
    r"""Gwet's AC1 for any number of annotators.

    .. math::
        A_e = \frac{1}{q-1} \sum_k \pi_k (1 - \pi_k),\qquad
        \pi_k = \frac{1}{N_1} \sum_{i: m_i \ge 1} \frac{n_{ik}}{m_i},\qquad
        AC_1 = \frac{A_o - A_e}{1 - A_e}

    with A_o as Fleiss' (over items with two or more ratings), π_k over the N_1 items with at
    least one rating, and q the number of categories (Gwet 2008, eq. 13–14; Gwet 2014, §2.3).

    On Krippendorff (2011)'s reliability data (with missing values) Gwet's AC1 is 0.7754, the
    value of Gwet's own irrCAC implementation:

    >>> from iaa_desktop.core.metrics.coding import encode
    >>> data = [[1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2],
    ...         [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5],
    ...         [None, None, 1, 1], [None, 3, None, None]]
    >>> round(gwet_ac1(encode(data)[0]).value, 4)
    0.7754
    """
    codes, counts, m, w, keep = _counts_and_weights(codes, n_categories, weights)
    q = counts.shape[1]
    if not keep.any() or q < 2:
        return AgreementResult("gwet_ac1", math.nan, n_items=int(keep.sum()))
    a_o = _observed(counts, m, w, keep)
    rated = (m >= 1) & (w > 0)  # Gwet (2014, §2.3): π_k over every item with at least one rating
    pi = np.average(counts[rated] / m[rated, None], axis=0, weights=w[rated])
    a_e = float((pi * (1 - pi)).sum() / (q - 1))
    return _chance_corrected("gwet_ac1", a_o, a_e, int(keep.sum()), _n_annotators(codes, keep))


def _two(codes: np.ndarray) -> np.ndarray:
    codes = np.asarray(codes)
    if codes.ndim != 2 or codes.shape[1] != 2:
        raise ValueError("this coefficient compares exactly two annotators (an N × 2 array)")
    return codes


def kappa_from_confusion(cm: np.ndarray, name: str = "cohen_kappa") -> AgreementResult:
    """Cohen's κ (``name="cohen_kappa"``) or Scott's π (``"scott_pi"``) from a confusion matrix."""
    cm = np.asarray(cm, dtype=float)
    n = cm.sum()
    if n == 0:
        return AgreementResult(name, math.nan, n_items=0, n_annotators=2)
    p = cm / n
    a_o = float(np.trace(p))
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    a_e = float(rows @ cols) if name == "cohen_kappa" else float((((rows + cols) / 2) ** 2).sum())
    return _chance_corrected(name, a_o, a_e, int(round(n)), 2)


def pairwise_cohen_kappa(
    codes: np.ndarray, n_categories: int | None = None
) -> dict[tuple[int, int], AgreementResult]:
    """Cohen's κ of every annotator pair (x < y) over the items both labelled, in one pass.

    >>> round(pairwise_cohen_kappa([[0, 0]] * 20 + [[0, 1]] * 10 + [[1, 0]] * 20 + [[1, 1]] * 50)[(0, 1)].value, 3)
    0.348
    """
    return {
        pair: kappa_from_confusion(cm)
        for pair, cm in pairwise_confusions(codes, n_categories).items()
    }


def cohen_kappa(
    codes: np.ndarray, n_categories: int | None = None, weights: np.ndarray | None = None
) -> AgreementResult:
    r"""Cohen's κ for one pair of annotators over the items both labelled.

    .. math::
        A_o = \sum_k p_{kk},\qquad A_e = \sum_k P_x(k) P_y(k),\qquad
        \kappa = \frac{A_o - A_e}{1 - A_e}

    (Cohen 1960). Artstein & Poesio (2008), example 1, gives κ = 0.348:

    >>> codes = [[0, 0]] * 20 + [[0, 1]] * 10 + [[1, 0]] * 20 + [[1, 1]] * 50
    >>> round(cohen_kappa(codes).value, 3)
    0.348
    """
    codes = _two(codes)
    q = n_categories_of(codes, n_categories)
    cm = confusion_matrix(codes, q, weights)
    n = cm.sum()
    if n == 0:
        return AgreementResult("cohen_kappa", math.nan, n_items=0, n_annotators=2)
    p = cm / n
    a_o = float(np.trace(p))
    a_e = float(p.sum(axis=1) @ p.sum(axis=0))
    n_items = int(n) if weights is None else int(((codes[:, 0] >= 0) & (codes[:, 1] >= 0)).sum())
    return _chance_corrected("cohen_kappa", a_o, a_e, n_items, 2)


def scott_pi(
    codes: np.ndarray, n_categories: int | None = None, weights: np.ndarray | None = None
) -> AgreementResult:
    r"""Scott's π for one pair: chance from the two annotators' pooled distribution.

    .. math:: A_e = \sum_k \left(\frac{P_x(k) + P_y(k)}{2}\right)^2

    (Scott 1955). Artstein & Poesio (2008), example 1: A_e = 0.545, π = 0.341.

    >>> codes = [[0, 0]] * 20 + [[0, 1]] * 10 + [[1, 0]] * 20 + [[1, 1]] * 50
    >>> round(scott_pi(codes).value, 3)
    0.341
    """
    codes = _two(codes)
    q = n_categories_of(codes, n_categories)
    cm = confusion_matrix(codes, q, weights)
    n = cm.sum()
    if n == 0:
        return AgreementResult("scott_pi", math.nan, n_items=0, n_annotators=2)
    p = cm / n
    a_o = float(np.trace(p))
    pooled = (p.sum(axis=1) + p.sum(axis=0)) / 2
    a_e = float((pooled**2).sum())
    n_items = int(((codes[:, 0] >= 0) & (codes[:, 1] >= 0)).sum())
    return _chance_corrected("scott_pi", a_o, a_e, n_items, 2)


def weighted_kappa(
    codes: np.ndarray,
    weights_kind: str = "linear",
    n_categories: int | None = None,
    weights: np.ndarray | None = None,
) -> AgreementResult:
    r"""Cohen's weighted κ for one pair over ordered categories (their index order).

    .. math::
        \kappa_w = 1 - \frac{\sum_{jk} w_{jk}\, p_{jk}}{\sum_{jk} w_{jk}\, P_x(j) P_y(k)},\qquad
        w_{jk} = \frac{|j-k|}{q-1}\ \text{(linear)}\quad\text{or}\quad
        \left(\frac{j-k}{q-1}\right)^2\ \text{(quadratic)}

    (Cohen 1968). The normalisation by q − 1 cancels in the ratio.

    >>> codes = [[0, 0], [1, 1], [2, 2], [0, 1], [2, 1], [0, 2]]
    >>> round(weighted_kappa(codes, "quadratic").value, 4)  # = scikit-learn's cohen_kappa_score
    0.28
    """
    codes = _two(codes)
    q = n_categories_of(codes, n_categories)
    cm = confusion_matrix(codes, q, weights)
    n = cm.sum()
    name = f"weighted_kappa_{weights_kind}"
    if n == 0 or q < 2:
        return AgreementResult(name, math.nan, n_items=int(n), n_annotators=2)
    idx = np.arange(q)
    diff = np.abs(idx[:, None] - idx[None, :]) / (q - 1)
    if weights_kind == "linear":
        wm = diff
    elif weights_kind == "quadratic":
        wm = diff**2
    else:
        raise ValueError("weights_kind must be 'linear' or 'quadratic'")
    p = cm / n
    d_o = float((wm * p).sum())
    d_e = float((wm * np.outer(p.sum(axis=1), p.sum(axis=0))).sum())
    value = 1.0 - d_o / d_e if d_e > 0 else math.nan
    n_items = int(((codes[:, 0] >= 0) & (codes[:, 1] >= 0)).sum())
    return AgreementResult(name, value, 1 - d_o, 1 - d_e, n_items, 2)


def per_category_agreement(
    codes: np.ndarray, n_categories: int | None = None
) -> dict[str, np.ndarray]:
    r"""Agreement on each category k.

    Returns arrays indexed by category:

    ``specific``: specific (positive) agreement pooled over annotator pairs,
    :math:`\sum_i n_{ik}(n_{ik}-1) / \sum_i n_{ik}(m_i - 1)` — for two annotators
    :math:`2 n_{kk} / (n_{k\cdot} + n_{\cdot k})` (Uebersax 1982);
    ``kappa``: Fleiss' κ of the binary label "k vs not k";
    ``n_labels``: how often k was used.

    >>> r = per_category_agreement([[0, 0], [0, 1], [1, 1], [1, 1]])
    >>> r["specific"].round(4).tolist()
    [0.6667, 0.8]
    """
    codes = np.asarray(codes)
    counts = category_counts(codes, n_categories).astype(float)
    m = counts.sum(axis=1)
    keep = m >= 2
    ck, mk = counts[keep], m[keep]
    q = counts.shape[1]
    with np.errstate(invalid="ignore", divide="ignore"):
        specific = (ck * (ck - 1)).sum(axis=0) / (ck * (mk[:, None] - 1)).sum(axis=0)
    kappa = np.full(q, np.nan)
    for k in range(q):
        bin_counts = np.stack([mk - ck[:, k], ck[:, k]], axis=1)
        agr = (bin_counts * (bin_counts - 1)).sum(axis=1) / (mk * (mk - 1))
        a_o = agr.mean() if len(agr) else np.nan
        p = bin_counts.sum(axis=0) / mk.sum() if mk.sum() else np.array([np.nan, np.nan])
        a_e = (p**2).sum()
        kappa[k] = (a_o - a_e) / (1 - a_e) if a_e < 1 else np.nan
    return {"specific": specific, "kappa": kappa, "n_labels": counts.sum(axis=0)}


PairMeasure = Callable[[np.ndarray], AgreementResult]


def pairwise_matrix(codes: np.ndarray, measure: PairMeasure) -> tuple[np.ndarray, np.ndarray]:
    """Apply a two-annotator measure to every pair; returns (values, n_items), both c × c.

    The diagonal is 1 (an annotator agrees with themself) with n = their number of labels;
    pairs sharing no item are NaN.

    >>> vals, n = pairwise_matrix([[0, 0, 1], [1, 1, 1], [0, 0, 0]], cohen_kappa)
    >>> vals.round(3).tolist()[0]
    [1.0, 1.0, 0.4]
    """
    codes = np.asarray(codes)
    c = codes.shape[1]
    vals = np.full((c, c), np.nan)
    ns = np.zeros((c, c), dtype=int)
    q = n_categories_of(codes)
    for x in range(c):
        vals[x, x] = 1.0
        ns[x, x] = int((codes[:, x] >= 0).sum())
    for x, y in combinations(range(c), 2):
        both = (codes[:, x] >= 0) & (codes[:, y] >= 0)
        ns[x, y] = ns[y, x] = int(both.sum())
        if both.any():
            sub = codes[:, [x, y]]  # items missing for either annotator drop out inside the measure
            try:
                r = measure(sub, q)  # type: ignore[call-arg]
            except TypeError:
                r = measure(sub)
            vals[x, y] = vals[y, x] = r.value
    return vals, ns


__all__ += [
    "pairwise_matrix",
    "coincidence_matrix",
    "confusion_matrix",
    "kappa_from_confusion",
    "pairwise_cohen_kappa",
]
