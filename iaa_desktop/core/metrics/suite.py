"""Every coefficient of a coded study from one tally: point values, per-pair values, intervals.

A study is tallied once (:func:`~iaa_desktop.core.metrics.tally.tally`); :func:`evaluate` computes
all overall coefficients that apply to its level of measurement from the aggregates of any B
weightings of the rows, so the point values (B = 1) and the bootstrap resamples
(:func:`~iaa_desktop.core.metrics.uncertainty.bootstrap_batch`) share one code path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from iaa_desktop.core.metrics import batch
from iaa_desktop.core.metrics.alpha import LEVELS
from iaa_desktop.core.metrics.coefficients import agreement_weights
from iaa_desktop.core.metrics.tally import Aggregates, Tally

FloatArray = npt.NDArray[np.float64]

__all__ = ["CodedOptions", "evaluate", "evaluator", "pair_table"]

NOMINAL_COEFFICIENTS = (
    "percent_agreement",
    "cohen_kappa_mean",
    "scott_pi_mean",
    "fleiss_kappa",
    "multi_kappa",
    "conger_kappa",
    "krippendorff_alpha",
    "gwet_ac1",
    "bennett_s",
)
ORDERED_COEFFICIENTS = (
    "weighted_kappa_linear_mean",
    "weighted_kappa_quadratic_mean",
    "gwet_ac2_linear",
    "gwet_ac2_quadratic",
)


@dataclass(frozen=True)
class CodedOptions:
    """What the coefficients of a study need besides its tally.

    ``values``: the numeric value of each category (interval and ratio α, the weights of
    weighted κ and AC2; for ordered labels without numbers, their ranks in the declared order);
    ``span``: the width of the scale (declared bounds), default the values' range;
    ``delta``: a q × q distance replacing the level's for α (e.g. normalized Levenshtein);
    ``spearman``: also the weighted mean of the pairs' Spearman ρ.
    """

    level: str = "nominal"
    values: FloatArray | None = None
    span: float | None = None
    delta: FloatArray | None = None
    spearman: bool = False

    @property
    def ordered(self) -> bool:
        return self.level in ("ordinal", "interval", "ratio")

    def category_values(self, q: int) -> FloatArray:
        return np.arange(q, dtype=np.float64) if self.values is None else self.values

    def names(self, q: int) -> tuple[str, ...]:
        out: tuple[str, ...] = NOMINAL_COEFFICIENTS
        if self.ordered and q >= 2:
            out = out + ORDERED_COEFFICIENTS
        if self.spearman:
            out = out + ("spearman_weighted",)
        return out


def _weights(kind: str, opts: CodedOptions, q: int) -> FloatArray:
    return agreement_weights(kind, opts.category_values(q), opts.span)


def _pair_mean(b: batch.Batch, ag: Aggregates) -> batch.Batch:
    nan = np.full(ag.n_resamples, np.nan)
    return batch.Batch(batch.pair_mean(b.value, ag), nan, nan)


def evaluate(t: Tally, ag: Aggregates, opts: CodedOptions) -> dict[str, batch.Batch]:
    """Every overall coefficient that applies to ``opts.level``, for each weighting in ``ag``."""
    q = t.n_categories
    a_o, _ = batch.observed(t, ag)
    nan = np.full(ag.n_resamples, np.nan)
    multi = batch.multi_kappa(t, ag)
    out: dict[str, batch.Batch] = {
        "percent_agreement": batch.Batch(a_o, a_o, nan),
        "cohen_kappa_mean": _pair_mean(batch.cohen_pairs(ag), ag),
        "scott_pi_mean": _pair_mean(batch.scott_pairs(ag), ag),
        "fleiss_kappa": batch.fleiss(t, ag),
        "multi_kappa": multi,
        "conger_kappa": multi,
        "krippendorff_alpha": batch.alpha(t, ag, opts.level, opts.category_values(q), opts.delta),
        "gwet_ac1": batch.gwet_ac1(t, ag),
        "bennett_s": batch.bennett_s(t, ag),
    }
    if opts.ordered and q >= 2:
        for kind in ("linear", "quadratic"):
            w = _weights(kind, opts, q)
            out[f"weighted_kappa_{kind}_mean"] = _pair_mean(
                batch.weighted_kappa_pairs(t, ag, 1.0 - w), ag
            )
            out[f"gwet_ac2_{kind}"] = batch.gwet_ac2(t, ag, w)
    if opts.spearman:
        out["spearman_weighted"] = batch.Batch(batch.spearman_weighted(t, ag), nan, nan)
    return out


def evaluator(t: Tally, opts: CodedOptions) -> Any:
    """``evaluate`` reduced to the values, for :func:`~.uncertainty.bootstrap_batch`."""

    def run(ag: Aggregates) -> dict[str, FloatArray]:
        return {name: b.value for name, b in evaluate(t, ag, opts).items()}

    return run


def pair_table(t: Tally, ag: Aggregates, opts: CodedOptions) -> dict[str, FloatArray]:
    """Per annotator pair (first weighting): n_items, percent agreement, Cohen's κ, Scott's π,
    α at the level (not for a custom distance), weighted κ and Spearman ρ where they apply."""
    q = t.n_categories
    both = ag.pair_both[0]
    out: dict[str, FloatArray] = {
        "n_items": both,
        "percent_agreement": batch.divide(ag.pair_agree[0], both),
        "cohen_kappa": batch.cohen_pairs(ag).value[0],
        "scott_pi": batch.scott_pairs(ag).value[0],
    }
    if opts.delta is None:
        level = opts.level if opts.level in LEVELS else "nominal"
        out["krippendorff_alpha"] = batch.pair_alpha(t, ag, level, opts.category_values(q))[0]
    if opts.ordered and q >= 2:
        for kind in ("linear", "quadratic"):
            d = 1.0 - _weights(kind, opts, q)
            out[f"weighted_kappa_{kind}"] = batch.weighted_kappa_pairs(t, ag, d).value[0]
    if opts.spearman:
        out["spearman"] = batch.spearman_pairs(t, ag)[0]
    return out
