"""Planning: how many doubly annotated items a coefficient's interval needs, by resampling.

Shared by every kind whose units reduce to item × annotator × label; the curve is computed from
the metrics' tally of the study's code matrix (:mod:`iaa_desktop.core.metrics.tally`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from iaa_desktop.core.metrics.suite import CodedOptions, evaluator
from iaa_desktop.core.metrics.tally import Tally, aggregate
from iaa_desktop.core.metrics.uncertainty import percentile_interval

__all__ = ["PLANNING_METRICS", "PLANNING_SIZES", "PLANNING_TARGETS", "planning_curve"]

#: the coefficients whose planning curves are drawn
PLANNING_METRICS = ("krippendorff_alpha", "fleiss_kappa", "cohen_kappa_mean")
#: the sizes of the planning curve (doubly annotated items), up to twice the study's
PLANNING_SIZES = (10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000)
#: half-widths the report states the needed items for
PLANNING_TARGETS = (0.1, 0.05)


def _f(x: float) -> float | None:
    return float(x) if x is not None and math.isfinite(x) else None


def planning_curve(
    t: Tally, coded: CodedOptions, n: int, n_resamples: int, seed: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    r"""``planning[]`` and the items needed per coefficient and target half-width.

    ``t`` is the tally of the ``n`` items judged by two or more annotators. At each size
    :math:`s` of :data:`PLANNING_SIZES` (up to :math:`\max(2n, 200)`), ``n_resamples`` studies
    of :math:`s` items are drawn with replacement from the study's distinct rows
    (multinomial weights from ``seed``) and the half-width of the central 95% percentile interval
    of each coefficient is recorded (Efron & Tibshirani 1993). The items needed for a target
    half-width :math:`h` are read off the curve, or beyond its end extrapolated as
    :math:`s_{\max}(h_{\max}/h)^2` (the :math:`1/\sqrt n` law). It assumes that future items
    resemble the study's.
    """
    ev = evaluator(t, coded)
    p = t.freq / t.freq.sum()
    rng = np.random.default_rng(seed)
    sizes = [s for s in PLANNING_SIZES if s <= max(2 * n, 200)]
    curve: list[dict[str, Any]] = []
    for size in sizes:
        w = rng.multinomial(size, p, size=n_resamples).astype(float)
        values = ev(aggregate(t, w))
        for metric in PLANNING_METRICS:
            if metric not in values:
                continue
            lo, hi = percentile_interval(values[metric])
            curve.append(
                {
                    "metric": metric,
                    "n_items": size,
                    "half_width": _f((hi - lo) / 2),
                    "ci_low": _f(lo),
                    "ci_high": _f(hi),
                    "study_items": n,
                }
            )
    needed: list[dict[str, Any]] = []
    for metric in PLANNING_METRICS:
        pts = [(c["n_items"], c["half_width"]) for c in curve if c["metric"] == metric]
        pts = [(s, h) for s, h in pts if h is not None]
        if not pts:
            continue
        for target in PLANNING_TARGETS:
            hit = next((s for s, h in pts if h <= target), None)
            s_max, h_max = pts[-1]
            est = hit if hit is not None else int(math.ceil(s_max * (h_max / target) ** 2))
            needed.append(
                {
                    "metric": metric,
                    "half_width": target,
                    "n_items": est,
                    "extrapolated": hit is None,
                }
            )
    return curve, needed
