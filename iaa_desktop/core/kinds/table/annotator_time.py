"""Agreement over batches, test–retest agreement and planning curves for a table study.

- ``per_batch[]``: the judgments (rows) carrying a batch value — one item may sit in several
  batches — are a study of their own; every coefficient is computed on those rows by the study's
  own functions, with its bootstrap interval, and a batch is flagged where its interval lies
  wholly below the study's.
- ``retest[]``: an annotator's repeated judgments of the same items, the occasions standing in
  for annotators: Krippendorff's α, the mean Cohen's κ over pairs of occasions, Fleiss' κ over
  occasions and percent agreement, with intervals (test–retest reliability; Krippendorff 2004,
  §11.1 "stability").
- ``planning[]``: the 95% interval's half-width against the number of doubly annotated items,
  by resampling the study's pairable items at increasing sizes (the bootstrap's case
  resampling, Efron & Tibshirani 1993, at sizes other than the study's).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from iaa_desktop.core.errors import IaaError, OptionError
from iaa_desktop.core.kinds.annotators.batches import RETEST_METRICS, batch_labels
from iaa_desktop.core.kinds.annotators.planning import (
    PLANNING_METRICS,
    planning_curve,
)
from iaa_desktop.core.kinds.table.agreement import compute_overall, study_stats
from iaa_desktop.core.kinds.table.options import TableOptions
from iaa_desktop.core.kinds.table.responses import occasions, subset_data

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.table.reliability import ReliabilityData
    from iaa_desktop.core.metrics import AgreementResult

__all__ = [
    "PLANNING_METRICS",
    "assumed_study",
    "RETEST_METRICS",
    "batch_labels",
    "per_batch",
    "planning",
    "retest",
]


def _f(x: float) -> float | None:
    return float(x) if x is not None and math.isfinite(x) else None


def _figure(r: AgreementResult) -> dict[str, Any]:
    return {"value": _f(r.value), "ci_low": _f(r.ci_low), "ci_high": _f(r.ci_high)}


def _humans_only(frame: pd.DataFrame, models: Sequence[str], display: Mapping[str, str]) -> Any:
    if not models:
        return frame
    shown = frame["annotator"].astype(str).map(lambda a: display.get(a, a))
    return frame[~shown.isin(list(models))]


def per_batch(
    frame: pd.DataFrame,
    item_cols: Sequence[str],
    options: TableOptions,
    categories: Sequence[Any],
    study: Mapping[str, AgreementResult],
    models: Sequence[str] = (),
    display: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """``per_batch[]``: per batch its judgments, pairable items and every coefficient with its
    interval; ``below_study`` names the coefficients whose interval lies below the study's."""
    col = options.batch_column
    if col not in frame.columns:
        raise OptionError(f"Batch column: there is no column '{col}'.")
    frame = _humans_only(frame, models, display or {})
    labels = batch_labels(frame[col], options.batch_size)
    out: list[dict[str, Any]] = []
    for b in sorted(pd.unique(labels), key=str):
        rows = frame[(labels == b).to_numpy()]
        row: dict[str, Any] = {"batch": str(b), "n_judgments": int(len(rows))}
        try:
            sub = subset_data(rows, item_cols, options, categories)
            overall = compute_overall(sub, options)
        except IaaError as e:
            row.update({"n_items": 0, "overall": {}, "below_study": [], "note": str(e)})
            out.append(row)
            continue
        row["n_items"] = int(((sub.codes >= 0).sum(axis=1) >= 2).sum())
        row["overall"] = {k: _figure(v) for k, v in overall.items()}
        row["below_study"] = [
            k
            for k, v in overall.items()
            if k in study
            and math.isfinite(v.ci_high)
            and math.isfinite(study[k].ci_low)
            and v.ci_high < study[k].ci_low
        ]
        out.append(row)
    return out


def retest(
    frame: pd.DataFrame,
    item_cols: Sequence[str],
    options: TableOptions,
    categories: Sequence[Any],
    display: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """``retest[]``: per annotator who judged an item more than once, their agreement with
    themself over occasions (the occasion column's values, or the order in the files)."""
    col = options.occasion_column
    if col and col not in frame.columns:
        raise OptionError(f"Occasion column: there is no column '{col}'.")
    occ = occasions(frame, item_cols, col)
    display = display or {}
    out: list[dict[str, Any]] = []
    for raw in pd.unique(frame["annotator"].astype(str)):
        mask = (frame["annotator"].astype(str) == raw).to_numpy()
        rows = frame[mask].copy()
        rows["annotator"] = occ[mask].to_numpy()
        if rows["annotator"].nunique() < 2:
            continue
        try:
            sub = subset_data(rows, item_cols, options, categories)
            overall = compute_overall(sub, options)
        except IaaError:
            continue
        n_rep = int(((sub.codes >= 0).sum(axis=1) >= 2).sum())
        if n_rep == 0:
            continue
        out.append(
            {
                "annotator": display.get(raw, raw),
                "n_occasions": len(sub.annotators),
                "occasions": list(sub.annotators),
                "n_items": n_rep,
                **{k: _figure(overall[k]) for k in RETEST_METRICS if k in overall},
            }
        )
    return out


def planning(
    data: ReliabilityData, options: TableOptions
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``planning[]`` (per coefficient and size: the 95% interval's half-width) and, per
    coefficient and target half-width, the items needed (read off the curve, or beyond its end
    extrapolated as :math:`n_{\\max}(h_{\\max}/h)^2`, the :math:`1/\\sqrt n` law)."""
    pairable = (data.codes >= 0).sum(axis=1) >= 2
    n = int(pairable.sum())
    if n < 2:
        return [], []
    sub = replace(
        data,
        codes=data.codes[pairable],
        values=None if data.values is None else data.values[pairable],
        judged=data.judged[pairable],
        items=data.items[pairable].reset_index(drop=True),
    )
    st = study_stats(sub, options)
    if st.nld and st.options.delta is None:
        return [], []
    return planning_curve(st.tally, st.options, n, options.n_resamples, options.seed)


def assumed_study(
    kappa: float,
    prevalence: Sequence[float],
    n_annotators: int = 2,
    n_items: int = 20_000,
    seed: int = 0,
) -> ReliabilityData:
    r"""A large simulated study with an assumed agreement, for planning before any data exist.

    Each item's true category is drawn from ``prevalence``; each annotator gives it with
    probability :math:`r` and otherwise draws a category from ``prevalence`` (the "knowing or
    guessing" annotator of Hovy et al. 2013). Two such annotators have the prevalence as both
    marginals and :math:`A_o = r^2 + (1 - r^2)\sum_k p_k^2`, hence Cohen's
    :math:`\kappa = r^2`: :math:`r = \sqrt{\kappa}`. Its planning curve is the sampling spread
    of the coefficients over studies of each size drawn from this population.
    """
    from iaa_desktop.core.kinds.table.reliability import ReliabilityData

    p = np.asarray(prevalence, dtype=float)
    if len(p) < 2 or (p < 0).any() or not p.sum() > 0:
        raise OptionError("Prevalence: two or more shares, none negative (e.g. 0.5,0.3,0.2).")
    if not 0 <= kappa <= 1:
        raise OptionError(f"Agreement: κ = {kappa:g} must lie between 0 and 1.")
    if n_annotators < 2:
        raise OptionError("Annotators: two or more.")
    p = p / p.sum()
    rng = np.random.default_rng(seed)
    truth = rng.choice(len(p), size=n_items, p=p)
    knows = rng.random((n_items, n_annotators)) < math.sqrt(kappa)
    guess = rng.choice(len(p), size=(n_items, n_annotators), p=p)
    codes = np.where(knows, truth[:, None], guess).astype(np.int32)
    return ReliabilityData(
        codes,
        np.array([str(k) for k in range(len(p))], dtype=object),
        False,
        None,
        np.ones_like(codes, dtype=bool),
        pd.DataFrame({"item": [str(i) for i in range(n_items)]}),
        tuple(f"annotator {k + 1}" for k in range(n_annotators)),
    )
