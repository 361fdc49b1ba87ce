r"""The alternative annotator test: can a model stand in for the human annotators?

Calderon, Reichart & Dror (2025), "The Alternative Annotator Test for LLM-as-a-Judge: How to
Statistically Justify Replacing Human Annotators with LLMs", ACL 2025 (arXiv:2501.10970),
computed as the authors' reference program (``alt_test`` in their example notebook) computes it.

Leave one human out at a time. Items used: those the model judged and at least two humans judged.
A human :math:`j` is tested when they judged at least 30 of those items. On each such item
:math:`i`, with :math:`H_{-j}(i)` the labels of the *other* humans,

.. math::

   s_f(i) = S(f_i, H_{-j}(i)), \qquad s_j(i) = S(h_{j,i}, H_{-j}(i)),

where :math:`S` is the alignment score: accuracy (the share of the others' labels equal to the
label) for categories, or the negative root mean squared difference for numbers. The model wins
the item when :math:`s_f(i) \ge s_j(i)`, the human when :math:`s_j(i) \ge s_f(i)` (a tie is a
win for both). With :math:`W^f_i, W^j_i \in \{0, 1\}` these indicators and
:math:`d_i = W^j_i - W^f_i`, a one-sided one-sample *t*-test of :math:`H_0: \bar d \ge \varepsilon`
against :math:`H_1: \bar d < \varepsilon` gives :math:`p_j` (:math:`\varepsilon` is the cost-benefit
allowance for the model). The Benjamini–Yekutieli step-up procedure at :math:`q = 0.05` over the
tested humans decides which nulls are rejected (the model "beats" those humans);

.. math::

   \omega = \frac{\#\text{rejected}}{\#\text{tested}}, \qquad
   \rho = \frac{1}{\#\text{tested}} \sum_j \overline{W^f}^{(j)},

the winning rate and the advantage probability. The model passes when :math:`\omega \ge 0.5`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from scipy import stats

__all__ = [
    "ALT_TEST_MIN_HUMANS",
    "ALT_TEST_MIN_ITEMS",
    "AltTestHuman",
    "AltTestResult",
    "AltTestScore",
    "alt_test",
    "by_adjusted",
    "one_sided_t",
]

FloatArray = npt.NDArray[np.float64]
#: the alignment score: label agreement (categories) or negative RMSE (numbers)
AltTestScore = Literal["accuracy", "neg_rmse"]
#: the reference program's defaults
ALT_TEST_MIN_HUMANS = 2
ALT_TEST_MIN_ITEMS = 30


@dataclass(frozen=True)
class AltTestHuman:
    """One tested human: items shared with the model, win rates, p-value before/after BY."""

    human: int
    n_items: int
    rho_model: float
    rho_human: float
    p_value: float
    p_adjusted: float
    model_beats: bool


@dataclass(frozen=True)
class AltTestResult:
    """The alt-test of one model (see the module docstring)."""

    winning_rate: float
    advantage_probability: float
    epsilon: float
    q: float
    score: str
    n_items: int
    per_human: tuple[AltTestHuman, ...] = ()
    #: humans not tested (fewer than ``min_items`` shared items): index → items shared
    skipped: dict[int, int] = field(default_factory=dict)

    @property
    def passes(self) -> bool:
        return math.isfinite(self.winning_rate) and self.winning_rate >= 0.5


def one_sided_t(d: FloatArray, mu: float) -> float:
    r"""p-value of the one-sample *t*-test of :math:`H_1: E[d] < \mu` (Student 1908).

    :math:`t = (\bar d - \mu) / (s / \sqrt n)` with :math:`s` the sample standard deviation
    (:math:`n - 1` in the denominator), :math:`p = F_{t, n-1}(t)`. With :math:`s = 0`,
    :math:`t = \pm\infty` (p = 0 or 1), or undefined when :math:`\bar d = \mu` — as SciPy's
    ``ttest_1samp`` gives it, which the reference program calls.

    >>> round(one_sided_t(np.array([0.0, 1, 0, 0, -1, 0, 0, 1, 0, 0]), 0.2), 6)
    0.295526
    """
    n = len(d)
    if n < 2:
        return math.nan
    mean = float(np.mean(d))
    sd = float(np.std(d, ddof=1))
    # a spread below rounding noise is none (the reference's SciPy treats it the same way)
    if sd <= 1e-12 * max(1.0, abs(mean)):
        if mean == mu:
            return math.nan
        return 0.0 if mean < mu else 1.0
    t = (mean - mu) / (sd / math.sqrt(n))
    return float(stats.t.cdf(t, n - 1))


def by_adjusted(p: FloatArray) -> FloatArray:
    r"""Benjamini–Yekutieli adjusted p-values (Benjamini & Yekutieli 2001, Theorem 1.3).

    With the :math:`m` p-values sorted, :math:`p_{(1)} \le \dots \le p_{(m)}` and
    :math:`c(m) = \sum_{k=1}^m 1/k`,
    :math:`\tilde p_{(i)} = \min_{k \ge i} \min(1, m\,c(m)\,p_{(k)}/k)`; a hypothesis is rejected
    at level :math:`q` when :math:`\tilde p \le q` (the step-up rule
    :math:`p_{(i)} \le i q / (m\,c(m))` for the largest such :math:`i`). Undefined p-values are
    counted in :math:`m`, ranked last and never rejected, as in the reference program.

    >>> by_adjusted(np.array([0.01, 0.02, 0.03])).round(4).tolist()
    [0.055, 0.055, 0.055]
    """
    p = np.asarray(p, dtype=np.float64)
    m = len(p)
    out = np.full(m, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    if m == 0 or len(ok) == 0:
        return out
    cm = float(np.sum(1.0 / np.arange(1, m + 1)))
    order = ok[np.argsort(p[ok], kind="stable")]
    ranks = np.arange(1, len(order) + 1)
    raw = np.minimum(1.0, m * cm * p[order] / ranks)
    out[order] = np.minimum.accumulate(raw[::-1])[::-1]
    return out


def _scores(pred: FloatArray, others: FloatArray, score: AltTestScore) -> FloatArray:
    """Per item the alignment of ``pred`` (n,) with the judged entries of ``others`` (n, k)."""
    has = ~np.isnan(others)
    n_other = has.sum(axis=1)
    if score == "accuracy":
        eq = (others == pred[:, None]) & has
        return np.asarray(eq.sum(axis=1) / n_other, dtype=np.float64)
    sq = np.where(has, (others - pred[:, None]) ** 2, 0.0)
    return np.asarray(-np.sqrt(sq.sum(axis=1) / n_other), dtype=np.float64)


def alt_test(
    model: Any,
    humans: Any,
    score: AltTestScore = "accuracy",
    epsilon: float = 0.2,
    q: float = 0.05,
    min_humans: int = ALT_TEST_MIN_HUMANS,
    min_items: int = ALT_TEST_MIN_ITEMS,
) -> AltTestResult:
    r"""The alternative annotator test of one model against the humans (module docstring).

    Parameters
    ----------
    model : (n,) labels of the model per item, NaN where it gave none (categories as codes)
    humans : (n, h) labels of the humans, NaN where missing
    score : ``"accuracy"`` (categories) or ``"neg_rmse"`` (numbers)
    epsilon : the allowance :math:`\varepsilon`; the authors suggest 0.2 for expert annotators,
        0.15 for skilled ones and 0.1 for crowd workers
    q : the false discovery rate of the Benjamini–Yekutieli procedure
    min_humans, min_items : items need ``min_humans`` humans; a human is tested with
        ``min_items`` such items

    Returns
    -------
    AltTestResult
        ω (NaN when no human could be tested), ρ, and per tested human the win rates and p-values.

    References
    ----------
    Calderon, N., Reichart, R., & Dror, R. (2025). The Alternative Annotator Test for
    LLM-as-a-Judge. ACL 2025. Benjamini, Y., & Yekutieli, D. (2001). The control of the false
    discovery rate in multiple testing under dependency. Ann. Statist. 29(4).

    Examples
    --------
    A model giving the labels of two of three humans: against those two every item is a tie
    (:math:`d = 0 < \varepsilon`), and it beats the third, who often differs:

    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(0, 3, 40).astype(float)
    >>> h = np.stack([truth, truth, np.where(rng.random(40) < .5, truth, (truth + 1) % 3)], 1)
    >>> r = alt_test(truth, h, epsilon=0.1)
    >>> [x.model_beats for x in r.per_human], r.winning_rate
    ([True, True, True], 1.0)
    """
    f = np.asarray(model, dtype=np.float64)
    hm = np.asarray(humans, dtype=np.float64)
    has = ~np.isnan(hm)
    keep = (has.sum(axis=1) >= min_humans) & ~np.isnan(f)
    tested: list[tuple[int, int, float, float, float]] = []
    skipped: dict[int, int] = {}
    for j in range(hm.shape[1]):
        rows = np.flatnonzero(keep & has[:, j])
        if len(rows) < min_items:
            skipped[j] = int(len(rows))
            continue
        others = np.delete(hm[rows], j, axis=1)
        s_h = _scores(hm[rows, j], others, score)
        s_f = _scores(f[rows], others, score)
        w_f = (s_f >= s_h).astype(np.float64)
        w_h = (s_h >= s_f).astype(np.float64)
        p = one_sided_t(w_h - w_f, epsilon)
        tested.append((j, len(rows), float(w_f.mean()), float(w_h.mean()), p))
    p_adj = by_adjusted(np.array([t[4] for t in tested]))
    per_human = tuple(
        AltTestHuman(j, n, rf, rh, p, float(pa), bool(pa <= q))
        for (j, n, rf, rh, p), pa in zip(tested, p_adj, strict=True)
    )
    n_t = len(per_human)
    return AltTestResult(
        winning_rate=sum(x.model_beats for x in per_human) / n_t if n_t else math.nan,
        advantage_probability=float(np.mean([x.rho_model for x in per_human])) if n_t else math.nan,
        epsilon=float(epsilon),
        q=float(q),
        score=score,
        n_items=int(keep.sum()),
        per_human=per_human,
        skipped=skipped,
    )
