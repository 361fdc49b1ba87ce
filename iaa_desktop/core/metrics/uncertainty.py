r"""Intervals: the item bootstrap and the conjugate Bayesian posterior of multi-κ.

Bootstrap (Efron & Tibshirani 1993): resample items with replacement, recompute the
coefficient, take the percentile interval. Items with identical rows of labels are
interchangeable, so we resample the *distinct* rows with multinomial counts — the same
distribution, at a cost independent of the number of items.

Bayesian multi-κ (the Bernard of Clairvaux intertextuality study, without its hierarchical part):
for each annotator pair (x, y) the counts of the pairwise outcomes (label by x, label by y) give a
posterior :math:`\theta^{xy} \sim \mathrm{Dirichlet}(1 + \text{counts})` over the q² outcomes;
per draw :math:`A_o = \operatorname{mean}_{xy} \sum_k \theta^{xy}_{kk}` and, with :math:`A_e`
fixed from the data as in multi-κ, :math:`\kappa = (A_o - A_e)/(1 - A_e)`. Reported: the posterior
median and the central 89% and 95% intervals.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import combinations

import numpy as np

from iaa_desktop.core.metrics.coding import confusion_matrix, n_categories_of, unique_rows
from iaa_desktop.core.metrics.coefficients import annotator_distributions
from iaa_desktop.core.metrics.result import AgreementResult


def bootstrap_plan(
    codes: np.ndarray, n_resamples: int = 1000, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``codes`` and, per resample, how often each row is drawn.

    Sharing one plan between coefficients gives them the same resamples (and saves the work).
    """
    rows, freq = unique_rows(np.asarray(codes))
    n = int(freq.sum())
    rng = np.random.default_rng(seed)
    draws = (
        rng.multinomial(n, freq / n, size=n_resamples).astype(float)
        if n
        else np.zeros((0, len(rows)))
    )
    return rows, draws


def bootstrap_interval(
    codes: np.ndarray,
    statistic: Callable[..., AgreementResult],
    n_resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    n_categories: int | None = None,
    plan: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[float, float]:
    """Percentile bootstrap interval of ``statistic(codes, n_categories, weights=...)``.

    The statistic must accept ``weights`` (all coefficients here do). Resamples whose statistic
    is undefined are dropped; with fewer than 10 defined resamples the interval is NaN.
    """
    codes = np.asarray(codes)
    q = n_categories_of(codes, n_categories)
    rows, draws = plan if plan is not None else bootstrap_plan(codes, n_resamples, seed)
    if codes.shape[0] < 2 or len(draws) == 0:
        return math.nan, math.nan
    stats = np.empty(len(draws))
    for b in range(len(draws)):
        stats[b] = statistic(rows, q, weights=draws[b]).value
    stats = stats[np.isfinite(stats)]
    if len(stats) < 10:
        return math.nan, math.nan
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(stats, [alpha, 1 - alpha])
    return float(lo), float(hi)


def bayes_multi_kappa(
    codes: np.ndarray,
    n_draws: int = 4000,
    seed: int = 0,
    n_categories: int | None = None,
    a_e: float | None = None,
) -> dict[str, float]:
    """Posterior summary of multi-κ (see the module docstring).

    Returns ``median``, ``low89``, ``high89``, ``low95``, ``high95``, ``a_e`` and ``n_pairs``.
    ``a_e`` may be given (e.g. fixed from a larger set); by default it is multi-κ's A_e of the data.

    >>> r = bayes_multi_kappa([[0, 0]] * 20 + [[0, 1]] * 10 + [[1, 0]] * 20 + [[1, 1]] * 50, seed=1)
    >>> 0.2 < r["median"] < 0.45 and r["low95"] < r["median"] < r["high95"]
    True
    """
    codes = np.asarray(codes)
    q = n_categories_of(codes, n_categories)
    valid = codes >= 0
    pairs = [
        (x, y)
        for x, y in combinations(range(codes.shape[1]), 2)
        if (valid[:, x] & valid[:, y]).any()
    ]
    nan = {k: math.nan for k in ("median", "low89", "high89", "low95", "high95")}
    if not pairs or q < 1:
        return {**nan, "a_e": math.nan, "n_pairs": 0}
    if a_e is None:
        P = annotator_distributions(codes, q)
        a_e = float(np.mean([P[x] @ P[y] for x, y in pairs]))
    if not a_e < 1.0:
        return {**nan, "a_e": a_e, "n_pairs": len(pairs)}
    rng = np.random.default_rng(seed)
    a_o = np.zeros(n_draws)
    diag = np.arange(q) * q + np.arange(q)
    for x, y in pairs:
        cm = confusion_matrix(codes[:, [x, y]], q).ravel()
        theta = rng.dirichlet(1.0 + cm, size=n_draws)
        a_o += theta[:, diag].sum(axis=1)
    a_o /= len(pairs)
    kappa = (a_o - a_e) / (1.0 - a_e)
    q05, q055, q5, q945, q975 = np.quantile(kappa, [0.025, 0.055, 0.5, 0.945, 0.975])
    return {
        "median": float(q5),
        "low89": float(q055),
        "high89": float(q945),
        "low95": float(q05),
        "high95": float(q975),
        "a_e": float(a_e),
        "n_pairs": len(pairs),
    }
