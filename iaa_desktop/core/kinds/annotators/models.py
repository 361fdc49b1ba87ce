"""Model annotators compared with the humans, for any kind with an items × annotators matrix.

For each model: the alternative annotator test (Calderon, Reichart & Dror 2025;
:func:`iaa_desktop.core.metrics.alt_test.alt_test`) and the model's Cohen's κ and
Krippendorff's α with each human and with the human majority, with bootstrap intervals
(:func:`iaa_desktop.core.metrics.uncertainty.bootstrap_batch`), beside the humans' own pairwise
κ range. Every coefficient comes from the metrics' tally of the code matrix
(:mod:`iaa_desktop.core.metrics.tally`), as a study of those columns would report it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.metrics import aggregate, batch, bootstrap_batch, tally
from iaa_desktop.core.metrics.alt_test import AltTestResult, AltTestScore, alt_test
from iaa_desktop.core.metrics.suite import CodedOptions, evaluate, evaluator, pair_table

__all__ = [
    "HUMAN_MAJORITY",
    "MAX_MODEL_PAIRS",
    "ModelAnnotator",
    "PairFigure",
    "coded_pair_figure",
    "human_kappa_range",
    "human_majority",
    "model_annotator",
    "split_columns",
]

#: the name of the human majority as a comparison partner
HUMAN_MAJORITY = "human majority"
#: above this many humans the model is compared with the majority only (each pair bootstraps)
MAX_MODEL_PAIRS = 60


def _f(x: float) -> float | None:
    return float(x) if x is not None and math.isfinite(x) else None


def split_columns(
    annotators: Sequence[str], wanted: Sequence[str]
) -> tuple[list[int], list[int], list[str]]:
    """The humans' and the models' column indices, and the wanted names that are no annotator."""
    names = list(annotators)
    unknown = [w for w in wanted if w not in names]
    m_idx = [names.index(w) for w in wanted if w in names]
    h_idx = [k for k in range(len(names)) if k not in m_idx]
    return h_idx, m_idx, unknown


def human_majority(codes: NDArray[Any]) -> NDArray[Any]:
    """Per item the category most humans chose (−1 when none, or when two categories tie)."""
    n, _ = codes.shape
    q = int(codes.max()) + 1 if codes.size and codes.max() >= 0 else 0
    out = np.full(n, -1, dtype=np.int32)
    if q == 0:
        return out
    counts = np.zeros((n, q), dtype=np.int64)
    rows, cols = np.nonzero(codes >= 0)
    np.add.at(counts, (rows, codes[rows, cols]), 1)
    best = counts.max(axis=1)
    unique = (counts == best[:, None]).sum(axis=1) == 1
    ok = (best > 0) & unique
    out[ok] = counts[ok].argmax(axis=1)
    return out


@dataclass(frozen=True)
class PairFigure:
    """The model's Cohen's κ and Krippendorff's α with one partner, with 95% intervals."""

    partner: str
    n_items: int
    kappa: float
    kappa_low: float
    kappa_high: float
    alpha: float
    alpha_low: float
    alpha_high: float

    def to_json(self) -> dict[str, Any]:
        return {
            "with": self.partner,
            "n_items": self.n_items,
            "kappa": _f(self.kappa),
            "kappa_ci_low": _f(self.kappa_low),
            "kappa_ci_high": _f(self.kappa_high),
            "alpha": _f(self.alpha),
            "alpha_ci_low": _f(self.alpha_low),
            "alpha_ci_high": _f(self.alpha_high),
        }


def coded_pair_figure(
    a: NDArray[Any],
    b: NDArray[Any],
    n_categories: int,
    coded: CodedOptions,
    partner: str,
    n_resamples: int,
    seed: int,
) -> PairFigure:
    """Cohen's κ and α (at ``coded.level``) of two code columns (−1: missing), with percentile
    bootstrap intervals over items (``n_resamples`` resamples from ``seed``)."""
    codes = np.stack([a, b], axis=1).astype(np.int32)
    nan = math.nan
    if not ((codes >= 0).sum(axis=1) >= 2).any():
        return PairFigure(partner, 0, nan, nan, nan, nan, nan, nan)
    t = tally(codes, n_categories)
    ag = aggregate(t)
    points = evaluate(t, ag, coded)
    n_pair = int(round(float(batch.observed(t, ag)[1][0])))
    intervals = bootstrap_batch(t, evaluator(t, coded), n_resamples, seed)

    def fig(name: str) -> tuple[float, float, float]:
        v = float(points[name].value[0]) if name in points else nan
        lo, hi = intervals.get(name, (nan, nan)) if math.isfinite(v) else (nan, nan)
        return v, float(lo), float(hi)

    k, al = fig("cohen_kappa_mean"), fig("krippendorff_alpha")
    return PairFigure(partner, n_pair, *k, *al)


def human_kappa_range(
    codes: NDArray[Any], n_categories: int, coded: CodedOptions, judged: NDArray[Any] | None = None
) -> tuple[float, float, float]:
    """The humans' pairwise Cohen's κ: lowest, median and highest (NaN without a pair)."""
    t = tally(codes, n_categories, judged=judged)
    cols = pair_table(t, aggregate(t), coded)
    kap = np.where(cols["n_items"] > 0, cols["cohen_kappa"], np.nan)
    kap = kap[np.isfinite(kap)]
    if not len(kap):
        return (math.nan,) * 3
    return float(kap.min()), float(np.median(kap)), float(kap.max())


@dataclass(frozen=True)
class ModelAnnotator:
    """One model annotator: its alt-test and its agreement with the humans."""

    name: str
    alt: AltTestResult
    humans: tuple[str, ...]
    agreement: tuple[PairFigure, ...]
    #: the humans' pairwise Cohen's κ: lowest, median, highest
    human_kappa_range: tuple[float, float, float]

    def to_json(self) -> dict[str, Any]:
        a = self.alt
        return {
            "name": self.name,
            "winning_rate": _f(a.winning_rate),
            "advantage_probability": _f(a.advantage_probability),
            "epsilon": a.epsilon,
            "q": a.q,
            "passes": a.passes,
            "score": a.score,
            "n_items": a.n_items,
            "per_human": [
                {
                    "human": self.humans[h.human],
                    "n_items": h.n_items,
                    "rho_model": _f(h.rho_model),
                    "rho_human": _f(h.rho_human),
                    "p_value": _f(h.p_value),
                    "p_adjusted": _f(h.p_adjusted),
                    "model_beats": h.model_beats,
                }
                for h in a.per_human
            ],
            "not_tested": [{"human": self.humans[j], "n_items": n} for j, n in a.skipped.items()],
            "agreement": [p.to_json() for p in self.agreement],
            "human_kappa_range": [_f(x) for x in self.human_kappa_range],
        }


def model_annotator(
    name: str,
    model_labels: NDArray[Any],
    human_labels: NDArray[Any],
    humans: Sequence[str],
    score: AltTestScore,
    epsilon: float,
    pairs: Sequence[PairFigure],
    kappa_range: tuple[float, float, float],
) -> ModelAnnotator:
    """One model's figures: the alt-test of its labels (NaN: missing) against the humans' (items
    × humans; numbers for ``neg_rmse``, category codes for ``accuracy``) at q = 0.05."""
    alt = alt_test(model_labels, human_labels, score, epsilon, q=0.05)
    return ModelAnnotator(name, alt, tuple(humans), tuple(pairs), kappa_range)
