r"""Agreement coefficients for coded items: one call each, computed from the study's tally.

Notation (Artstein & Poesio 2008): items i = 1..N, annotators x, y, ... (c of them),
categories k = 1..q; ``codes[i, x]`` is x's category for i or ``-1`` when x did not label i;
:math:`n_{ik}` is the number of annotators who gave i the label k and :math:`m_i = \sum_k n_{ik}`.
Only *pairable* items (:math:`m_i \ge 2`) enter observed agreement.

Every function tallies the distinct rows of ``codes`` (:mod:`~iaa_desktop.core.metrics.tally`)
and evaluates the vectorised formula of :mod:`~iaa_desktop.core.metrics.batch` once; the
bootstrap evaluates the same formulas for all resamples at once. Optional per-item ``weights``
count an item w_i times.

Every function computed from the tally (all but :func:`item_agreement`,
:func:`annotator_distributions` and :func:`pairwise_matrix`) also takes a
:class:`~iaa_desktop.core.metrics.tally.Tally` in place of ``codes``: a caller computing several
coefficients of one study counts it once (``t = tally(codes)``, then ``fleiss_kappa(t)``,
``pairwise_cohen_kappa(t)``, …; or :func:`~iaa_desktop.core.metrics.table.table_coefficients`).

References
----------
Artstein, R. & Poesio, M. (2008). Inter-coder agreement for computational linguistics.
*Computational Linguistics* 34(4), 555–596.
Bennett, E. M., Alpert, R. & Goldstein, A. C. (1954). Communications through limited response
questioning. *Public Opinion Quarterly* 18(3), 303–308.
Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educ. Psychol. Meas.* 20, 37–46.
Cohen, J. (1968). Weighted kappa. *Psychological Bulletin* 70(4), 213–220.
Conger, A. J. (1980). Integration and generalization of kappas for multiple raters.
*Psychological Bulletin* 88(2), 322–328.
Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. *Psychol. Bull.* 76, 378–382.
Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence of high
agreement. *Brit. J. Math. Stat. Psychol.* 61, 29–48.
Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed. Advanced Analytics.
Hubert, L. (1977). Kappa revisited. *Psychological Bulletin* 84(2), 289–297.
Randolph, J. J. (2005). Free-marginal multirater kappa (multirater κ_free). Joensuu Learning and
Instruction Symposium.
Scott, W. A. (1955). Reliability of content analysis. *Public Opinion Quarterly* 19, 321–325.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from iaa_desktop.core.metrics import batch
from iaa_desktop.core.metrics.coding import (
    coincidence_matrix,
    confusion_matrix,
    item_weights,
    n_categories_of,
)
from iaa_desktop.core.metrics.result import AgreementResult
from iaa_desktop.core.metrics.tally import Aggregates, Tally, as_tally

__all__ = [
    "agreement_weights",
    "annotator_distributions",
    "bennett_s",
    "coincidence_matrix",
    "cohen_kappa",
    "confusion_matrix",
    "conger_kappa",
    "fleiss_kappa",
    "gwet_ac1",
    "gwet_ac2",
    "item_agreement",
    "item_disagreement",
    "kappa_from_confusion",
    "multi_kappa",
    "pairwise_cohen_kappa",
    "pairwise_matrix",
    "per_category_agreement",
    "percent_agreement",
    "scott_pi",
    "weighted_kappa",
]

FloatArray = npt.NDArray[np.float64]


def _study(codes: Any, n_categories: int | None, weights: Any) -> tuple[Tally, Aggregates]:
    """The study's tally and totals: counted here, or those of a :class:`Tally` given as
    ``codes`` (counted once for several coefficients)."""
    t = as_tally(codes, n_categories, weights)
    return t, t.aggregates


def _pairable_annotators(t: Tally) -> int:
    valid = (t.sym > 0) & (t.sym <= t.n_categories)
    pairable = valid.sum(axis=1) >= 2
    return int(valid[pairable].any(axis=0).sum())


def _result(
    name: str, b: batch.Batch, t: Tally, n_pairable: float, **extra: Any
) -> AgreementResult:
    return AgreementResult(
        name,
        float(b.value[0]),
        float(b.observed[0]),
        float(b.expected[0]),
        int(round(n_pairable)),
        _pairable_annotators(t),
        extra=extra,
    )


def item_agreement(codes: Any, n_categories: int | None = None) -> FloatArray:
    r"""Share of agreeing annotator pairs per item, NaN where fewer than two labels.

    .. math:: \mathrm{agr}(i) = \frac{\sum_k n_{ik}(n_{ik}-1)}{m_i (m_i - 1)}

    computed as 2·(agreeing pairs of labels)/(m_i(m_i − 1)), with no N × q table.

    >>> item_agreement([[0, 0, 1], [1, 1, 1], [0, -1, -1]]).round(4).tolist()
    [0.3333, 1.0, nan]
    """
    arr = np.asarray(codes)
    valid = arr >= 0
    m = valid.sum(axis=1).astype(np.float64)
    same = np.zeros(arr.shape[0])
    for x, y in combinations(range(arr.shape[1]), 2):
        same += (arr[:, x] == arr[:, y]) & valid[:, x]
    with np.errstate(invalid="ignore", divide="ignore"):
        agr = 2.0 * same / (m * (m - 1.0))
    agr[m < 2] = np.nan
    return np.asarray(agr, dtype=np.float64)


def item_disagreement(codes: Any, n_categories: int | None = None) -> FloatArray:
    """1 − :func:`item_agreement`: the share of annotator pairs that disagree on each item."""
    return 1.0 - item_agreement(codes, n_categories)


def percent_agreement(
    codes: Any, n_categories: int | None = None, weights: Any = None
) -> AgreementResult:
    r"""Observed agreement: the mean over pairable items of the share of agreeing pairs.

    .. math:: A_o = \frac{1}{N'} \sum_{i: m_i \ge 2} \frac{\sum_k n_{ik}(n_{ik}-1)}{m_i(m_i-1)}

    Artstein & Poesio (2008), §2.4. For two annotators this is the share of identical labels.

    >>> round(percent_agreement([[0, 0], [0, 1], [1, 1], [1, 1]]).value, 4)
    0.75
    """
    t, ag = _study(codes, n_categories, weights)
    a_o, n_pair = batch.observed(t, ag)
    nan = np.full(1, math.nan)
    return _result("percent_agreement", batch.Batch(a_o, a_o, nan), t, float(n_pair[0]))


def fleiss_kappa(
    codes: Any, n_categories: int | None = None, weights: Any = None
) -> AgreementResult:
    r"""Fleiss' multi-rater κ (Artstein & Poesio's π*), with Gwet's chance term for missing labels.

    .. math::
        A_o = \overline{\mathrm{agr}(i)},\qquad
        A_e = \sum_k \pi_k^2,\quad \pi_k = \frac{1}{n} \sum_{i: m_i \ge 1} \frac{n_{ik}}{m_i},
        \qquad \kappa = \frac{A_o - A_e}{1 - A_e}

    with A_o over pairable items and π_k over the n items with at least one label. With complete
    data π_k is the share of all labels that are k (Fleiss 1971); with missing labels this is
    Gwet's generalisation (Gwet 2014, ch. 2), the one of irrCAC's ``fleiss.kappa.raw`` and
    Stata's ``kappaetc``.

    Fleiss (1971)'s table (10 subjects × 14 raters, 5 categories) gives κ = 0.210:

    >>> rows = [[0,0,0,0,14],[0,2,6,4,2],[0,0,3,5,6],[0,3,9,2,0],[2,2,8,1,1],
    ...         [7,7,0,0,0],[3,2,6,3,0],[2,5,3,2,2],[6,5,2,1,0],[0,2,2,3,7]]
    >>> codes = [[k for k, n in enumerate(r) for _ in range(n)] for r in rows]
    >>> round(fleiss_kappa(codes).value, 3)
    0.21

    Gwet (2014)'s 4 raters × 12 units with missing ratings (irrCAC's ``cac.raw4raters``;
    Krippendorff 2011's data with unit 12 rated by the third rater) give 0.76117:

    >>> from iaa_desktop.core.metrics.coding import encode
    >>> data = [[1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2],
    ...         [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5],
    ...         [None, None, 1, 1], [None, 3, None, None]]
    >>> round(fleiss_kappa(encode(data)[0]).value, 5)
    0.76117
    """
    t, ag = _study(codes, n_categories, weights)
    _, n_pair = batch.observed(t, ag)
    return _result("fleiss_kappa", batch.fleiss(t, ag), t, float(n_pair[0]))


def annotator_distributions(
    codes: Any,
    n_categories: int | None = None,
    weights: Any = None,
    items: Any = None,
) -> FloatArray:
    """``P[x, k]``: share of annotator x's labels (over ``items``, default all) that are k."""
    arr = np.asarray(codes)
    q = n_categories_of(arr, n_categories)
    w = item_weights(arr.shape[0], weights)
    if items is not None:
        arr, w = arr[items], w[items]
    c = arr.shape[1]
    p = np.zeros((c, q))
    for x in range(c):
        v = arr[:, x] >= 0
        tot = np.bincount(arr[v, x], weights=w[v], minlength=q)
        s = tot.sum()
        p[x] = tot / s if s > 0 else np.nan
    return p


def multi_kappa(
    codes: Any, n_categories: int | None = None, weights: Any = None
) -> AgreementResult:
    r"""Hubert's multi-κ: Fleiss' observed agreement, chance from each annotator's own distribution.

    .. math::
        A_e = \frac{1}{\binom{c}{2}} \sum_{x<y} \sum_k P(k\mid x)\,P(k\mid y),\qquad
        \kappa = \frac{A_o - A_e}{1 - A_e}

    with :math:`P(k\mid x)` the share of all of x's labels that are k; annotator pairs that share
    no item are left out of the mean (Hubert 1977; Artstein & Poesio 2008, §2.6; the Bernard of Clairvaux
    intertextuality study, eq. 7–8). It is Conger's
    κ (Conger 1980; :func:`conger_kappa`); for two annotators it equals Cohen's κ.

    Artstein & Poesio (2008), example 1 (100 items, counts 20/10/20/50) gives κ = 0.348:

    >>> codes = [[0, 0]] * 20 + [[0, 1]] * 10 + [[1, 0]] * 20 + [[1, 1]] * 50
    >>> round(multi_kappa(codes).value, 3)
    0.348
    """
    t, ag = _study(codes, n_categories, weights)
    _, n_pair = batch.observed(t, ag)
    return _result("multi_kappa", batch.multi_kappa(t, ag), t, float(n_pair[0]))


def conger_kappa(
    codes: Any, n_categories: int | None = None, weights: Any = None
) -> AgreementResult:
    r"""Conger's κ: the mean of the pairwise Cohen-type chance agreements (= Hubert's multi-κ).

    .. math::
        A_e = \frac{1}{c(c-1)} \sum_{x \ne y} \sum_k p_{xk} p_{yk},\qquad
        \kappa_C = \frac{A_o - A_e}{1 - A_e}

    (Conger 1980; Gwet 2014, §2.3) with A_o as Fleiss' and p_xk the share of x's labels that are
    k. irrCAC's ``conger.kappa.raw`` gives 0.76282 on its ``cac.raw4raters`` (Gwet 2014's 4 raters
    × 12 units; Krippendorff 2011's data with unit 12 rated by the third rater):

    >>> from iaa_desktop.core.metrics.coding import encode
    >>> data = [[1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2],
    ...         [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5],
    ...         [None, None, 1, 1], [None, None, 3, None]]
    >>> round(conger_kappa(encode(data)[0]).value, 5)
    0.76282
    """
    t, ag = _study(codes, n_categories, weights)
    _, n_pair = batch.observed(t, ag)
    return _result("conger_kappa", batch.multi_kappa(t, ag), t, float(n_pair[0]))


def gwet_ac1(codes: Any, n_categories: int | None = None, weights: Any = None) -> AgreementResult:
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
    t, ag = _study(codes, n_categories, weights)
    _, n_pair = batch.observed(t, ag)
    return _result("gwet_ac1", batch.gwet_ac1(t, ag), t, float(n_pair[0]))


def agreement_weights(kind: str | FloatArray, values: Any, span: float | None = None) -> FloatArray:
    r"""Agreement weights w_kl (1 on the diagonal) of the categories' numeric ``values``.

    ``linear``: :math:`1 - |v_k - v_l|/(v_{max} - v_{min})`; ``quadratic``:
    :math:`1 - ((v_k - v_l)/(v_{max} - v_{min}))^2` (Cohen 1968; Gwet 2014, §3.4); ``identity``;
    or a q × q matrix given as is. The scale's width is ``span`` (declared bounds, e.g. 4 for a
    1–5 scale), by default the range of the values.

    >>> agreement_weights("linear", [1, 2, 3]).tolist()
    [[1.0, 0.5, 0.0], [0.5, 1.0, 0.5], [0.0, 0.5, 1.0]]
    """
    v = np.asarray(values, dtype=np.float64)
    if not isinstance(kind, str):
        return np.asarray(kind, dtype=np.float64)
    q = len(v)
    if kind == "identity" or q < 2:
        return np.eye(q)
    width = float(span) if span else float(v.max() - v.min()) or 1.0
    d = np.abs(v[:, None] - v[None, :]) / width
    if kind == "linear":
        return 1.0 - d
    if kind == "quadratic":
        return 1.0 - d**2
    raise ValueError("weights must be 'identity', 'linear', 'quadratic' or a q × q matrix")


def gwet_ac2(
    codes: Any,
    weights_kind: str | FloatArray = "quadratic",
    values: Any = None,
    n_categories: int | None = None,
    weights: Any = None,
) -> AgreementResult:
    r"""Gwet's AC2: AC1 with agreement weights for ordered categories.

    .. math::
        A_o = \frac{1}{N'}\sum_{i: m_i\ge 2}\sum_k \frac{n_{ik}(n^*_{ik} - 1)}{m_i(m_i-1)},\quad
        n^*_{ik} = \sum_l w_{kl} n_{il},\qquad
        A_e = \frac{T_w}{q(q-1)} \sum_k \pi_k(1-\pi_k),\quad T_w = \sum_{kl} w_{kl}

    (Gwet 2014, §3.4) with the weights of :func:`agreement_weights` from the category
    ``values`` (default 0..q−1). With identity weights AC2 = AC1. irrCAC's documentation gives
    AC2 = 0.90037 with its bipolar weights on Gwet's 4 raters × 12 units (checked in the tests).

    >>> codes = [[0, 0, 1], [1, 1, 1], [2, 1, 2], [0, 0, 0]]
    >>> round(gwet_ac2(codes, "identity").value, 6) == round(gwet_ac1(codes).value, 6)
    True
    """
    t, ag = _study(codes, n_categories, weights)
    q = t.n_categories
    vals = np.arange(q, dtype=np.float64) if values is None else np.asarray(values, np.float64)
    wm = agreement_weights(weights_kind, vals)
    _, n_pair = batch.observed(t, ag)
    name = f"gwet_ac2_{weights_kind}" if isinstance(weights_kind, str) else "gwet_ac2"
    return _result(name, batch.gwet_ac2(t, ag, wm), t, float(n_pair[0]))


def bennett_s(codes: Any, n_categories: int | None = None, weights: Any = None) -> AgreementResult:
    r"""Bennett, Alpert & Goldstein's S (Randolph's free-marginal multirater κ).

    .. math:: A_e = \frac{1}{q},\qquad S = \frac{A_o - 1/q}{1 - 1/q}

    with A_o as Fleiss' and q the number of categories (Bennett et al. 1954; Randolph 2005;
    Brennan & Prediger 1981; Gwet 2014, §2.3). The chance term is fixed: every category equally
    likely. irrCAC's ``bp.coeff.raw`` gives 0.77273 on Gwet's 4 raters × 12 units:

    >>> from iaa_desktop.core.metrics.coding import encode
    >>> data = [[1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2],
    ...         [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5],
    ...         [None, None, 1, 1], [None, 3, None, None]]
    >>> round(bennett_s(encode(data)[0]).value, 5)
    0.77273
    """
    t, ag = _study(codes, n_categories, weights)
    _, n_pair = batch.observed(t, ag)
    return _result("bennett_s", batch.bennett_s(t, ag), t, float(n_pair[0]))


def _two(codes: Any) -> Any:
    if isinstance(codes, Tally):
        if codes.n_annotators != 2:
            raise ValueError("this coefficient compares exactly two annotators (a tally of two)")
        return codes
    arr = np.asarray(codes)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError("this coefficient compares exactly two annotators (an N × 2 array)")
    return arr


def kappa_from_confusion(cm: Any, name: str = "cohen_kappa") -> AgreementResult:
    """Cohen's κ (``name="cohen_kappa"``) or Scott's π (``"scott_pi"``) from a confusion matrix."""
    cm = np.asarray(cm, dtype=float)
    n = cm.sum()
    if n == 0:
        return AgreementResult(name, math.nan, n_items=0, n_annotators=2)
    p = cm / n
    a_o = float(np.trace(p))
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    a_e = float(rows @ cols) if name == "cohen_kappa" else float((((rows + cols) / 2) ** 2).sum())
    value = float(batch.chance_corrected(np.array([a_o]), np.array([a_e]))[0])
    return AgreementResult(name, value, a_o, a_e, int(round(n)), 2)


def _pair_result(name: str, b: batch.Batch, ag: Aggregates, p: int = 0) -> AgreementResult:
    return AgreementResult(
        name,
        float(b.value[0, p]),
        float(b.observed[0, p]),
        float(b.expected[0, p]),
        int(round(float(ag.pair_both[0, p]))),
        2,
    )


def pairwise_cohen_kappa(
    codes: Any, n_categories: int | None = None
) -> dict[tuple[int, int], AgreementResult]:
    """Cohen's κ of every annotator pair (x < y) over the items both labelled, in one pass.

    >>> round(pairwise_cohen_kappa([[0, 0]] * 20 + [[0, 1]] * 10 + [[1, 0]] * 20 + [[1, 1]] * 50)[(0, 1)].value, 3)
    0.348
    """
    t, ag = _study(codes, n_categories, None)
    b = batch.cohen_pairs(ag)
    return {pair: _pair_result("cohen_kappa", b, ag, p) for p, pair in enumerate(t.pairs)}


def cohen_kappa(
    codes: Any, n_categories: int | None = None, weights: Any = None
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
    _, ag = _study(_two(codes), n_categories, weights)
    return _pair_result("cohen_kappa", batch.cohen_pairs(ag), ag)


def scott_pi(codes: Any, n_categories: int | None = None, weights: Any = None) -> AgreementResult:
    r"""Scott's π for one pair: chance from the two annotators' pooled distribution.

    .. math:: A_e = \sum_k \left(\frac{P_x(k) + P_y(k)}{2}\right)^2

    (Scott 1955). Artstein & Poesio (2008), example 1: A_e = 0.545, π = 0.341.

    >>> codes = [[0, 0]] * 20 + [[0, 1]] * 10 + [[1, 0]] * 20 + [[1, 1]] * 50
    >>> round(scott_pi(codes).value, 3)
    0.341
    """
    _, ag = _study(_two(codes), n_categories, weights)
    return _pair_result("scott_pi", batch.scott_pairs(ag), ag)


def disagreement_weights(kind: str, values: Any) -> FloatArray:
    """1 − :func:`agreement_weights`: d_jk = |v_j − v_k|/(max − min), or its square."""
    return 1.0 - agreement_weights(kind, values)


def weighted_kappa(
    codes: Any,
    weights_kind: str = "linear",
    n_categories: int | None = None,
    weights: Any = None,
    values: Any = None,
) -> AgreementResult:
    r"""Cohen's weighted κ for one pair over ordered categories, from the categories' values.

    .. math::
        \kappa_w = 1 - \frac{\sum_{jk} d_{jk}\, p_{jk}}{\sum_{jk} d_{jk}\, P_x(j) P_y(k)},\qquad
        d_{jk} = \frac{|v_j-v_k|}{v_{max}-v_{min}}\ \text{(linear)}\quad\text{or}\quad
        \left(\frac{v_j-v_k}{v_{max}-v_{min}}\right)^2\ \text{(quadratic)}

    (Cohen 1968) with v the numeric ``values`` of the categories (default: their ranks 0..q−1,
    the convention of scikit-learn's ``cohen_kappa_score``). Because d comes from the values, a
    pair's κ_w does not depend on which other scale points the study uses; the scale's span
    cancels in the ratio.

    >>> codes = [[0, 0], [1, 1], [2, 2], [0, 1], [2, 1], [0, 2]]
    >>> round(weighted_kappa(codes, "quadratic").value, 4)  # = scikit-learn's cohen_kappa_score
    0.28
    """
    if weights_kind not in ("linear", "quadratic"):
        raise ValueError("weights_kind must be 'linear' or 'quadratic'")
    t, ag = _study(_two(codes), n_categories, weights)
    q = t.n_categories
    vals = np.arange(q, dtype=np.float64) if values is None else np.asarray(values, np.float64)
    name = f"weighted_kappa_{weights_kind}"
    if q < 2:
        return AgreementResult(name, math.nan, n_items=int(ag.pair_both[0, 0]), n_annotators=2)
    d = disagreement_weights(weights_kind, vals)
    return _pair_result(name, batch.weighted_kappa_pairs(t, ag, d), ag)


def per_category_agreement(codes: Any, n_categories: int | None = None) -> dict[str, FloatArray]:
    r"""Agreement on each category k.

    Returns arrays indexed by category:

    ``specific``: specific (positive) agreement pooled over annotator pairs,
    :math:`\sum_i n_{ik}(n_{ik}-1) / \sum_i n_{ik}(m_i - 1)` — for two annotators
    :math:`2 n_{kk} / (n_{k\cdot} + n_{\cdot k})` (Uebersax 1982);
    ``kappa``: Fleiss' κ of the binary label "k vs not k" (:func:`fleiss_kappa` of that data);
    ``alpha``: Krippendorff's nominal α of "k vs not k" (Krippendorff's category-singling α,
    Krippendorff 2008, Communication Methods and Measures 2(4));
    ``n_labels``: how often k was used.

    >>> r = per_category_agreement([[0, 0], [0, 1], [1, 1], [1, 1]])
    >>> r["specific"].round(4).tolist()
    [0.6667, 0.8]
    """
    t, ag = _study(codes, n_categories, None)
    from iaa_desktop.core.metrics import percategory

    return percategory.per_category(t, ag)


PairMeasure = Callable[..., AgreementResult]


def pairwise_matrix(codes: Any, measure: PairMeasure) -> tuple[FloatArray, npt.NDArray[np.int64]]:
    """Apply a two-annotator measure to every pair; returns (values, n_items), both c × c.

    The diagonal is 1 (an annotator agrees with themself) with n = their number of labels;
    pairs sharing no item are NaN.

    >>> vals, n = pairwise_matrix([[0, 0, 1], [1, 1, 1], [0, 0, 0]], cohen_kappa)
    >>> vals.round(3).tolist()[0]
    [1.0, 1.0, 0.4]
    """
    arr = np.asarray(codes)
    c = arr.shape[1]
    vals = np.full((c, c), np.nan)
    ns = np.zeros((c, c), dtype=np.int64)
    q = n_categories_of(arr)
    for x in range(c):
        vals[x, x] = 1.0
        ns[x, x] = int((arr[:, x] >= 0).sum())
    for x, y in combinations(range(c), 2):
        both = (arr[:, x] >= 0) & (arr[:, y] >= 0)
        ns[x, y] = ns[y, x] = int(both.sum())
        if both.any():
            sub = arr[:, [x, y]]  # items missing for either annotator drop out inside the measure
            try:
                r = measure(sub, q)
            except TypeError:
                r = measure(sub)
            vals[x, y] = vals[y, x] = r.value
    return vals, ns
