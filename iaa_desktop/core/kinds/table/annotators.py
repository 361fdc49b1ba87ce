"""Annotators, human and model, in a judgment-table study.

- Model annotators (:attr:`TableOptions.model_annotators`) are taken out of the human
  coefficients and compared with the humans: the alternative annotator test (Calderon, Reichart &
  Dror 2025; :mod:`iaa_desktop.core.metrics.alt_test`) and the model's κ and α with each human and
  with the human majority, beside the humans' own pairwise range.
- Competence and an inferred label per item (Dawid & Skene 1979; MACE, Hovy et al. 2013):
  :mod:`iaa_desktop.core.metrics.crowd`.
- Agreement per batch, test–retest agreement and planning curves:
  :mod:`iaa_desktop.core.kinds.table.annotator_time`.

Every figure here is computed by the table kind's own functions on the right subset of the
reliability data, so it equals what the study would report for that subset.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import InsufficientDataError, OptionError
from iaa_desktop.core.kinds.annotators.models import (
    HUMAN_MAJORITY,
    MAX_MODEL_PAIRS,
    ModelAnnotator,
    PairFigure,
    human_majority,
    model_annotator,
)
from iaa_desktop.core.kinds.table.agreement import compute_overall
from iaa_desktop.core.kinds.table.options import TableOptions
from iaa_desktop.core.metrics.alt_test import AltTestScore

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.table.reader import Judgments
    from iaa_desktop.core.kinds.table.reliability import ReliabilityData
    from iaa_desktop.core.metrics import AgreementResult

__all__ = [
    "HUMAN_MAJORITY",
    "AnnotatorFigures",
    "annotator_figures",
    "ModelAnnotator",
    "ModelColumns",
    "PairFigure",
    "human_majority",
    "model_figures",
    "pair_figure",
    "split_models",
    "with_models",
]


def _f(x: float) -> float | None:
    return float(x) if x is not None and math.isfinite(x) else None


@dataclass(frozen=True)
class ModelColumns:
    """The model annotators' columns, taken out of the reliability data."""

    names: tuple[str, ...] = ()
    codes: NDArray[Any] = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int32))
    values: NDArray[Any] | None = None


def split_models(
    data: ReliabilityData, options: TableOptions
) -> tuple[ReliabilityData, ModelColumns]:
    """The humans' reliability data and the model columns named by ``model_annotators``.

    A name that is no annotator, or fewer than two humans left, is an :class:`OptionError`.
    """
    wanted = options.model_names
    if not wanted:
        return data, ModelColumns()
    names = list(data.annotators)
    unknown = [w for w in wanted if w not in names]
    if unknown:
        raise OptionError(
            f"Model annotators: {', '.join(repr(u) for u in unknown)} is not an annotator of the "
            f"study (annotators: {', '.join(names[:20])}{' …' if len(names) > 20 else ''})."
        )
    m_idx = [names.index(w) for w in wanted]
    h_idx = [k for k in range(len(names)) if k not in m_idx]
    if len(h_idx) < 2:
        raise OptionError(
            "Model annotators: with these models, fewer than two human annotators are left; "
            "the humans' agreement and the alternative annotator test need at least two."
        )
    humans = replace(
        data,
        codes=data.codes[:, h_idx],
        values=None if data.values is None else data.values[:, h_idx],
        judged=data.judged[:, h_idx],
        annotators=tuple(names[k] for k in h_idx),
    )
    models = ModelColumns(
        tuple(wanted),
        np.ascontiguousarray(data.codes[:, m_idx]),
        None if data.values is None else np.ascontiguousarray(data.values[:, m_idx]),
    )
    return humans, models


def pair_figure(
    data: ReliabilityData, a: NDArray[Any], b: NDArray[Any], partner: str, options: TableOptions
) -> PairFigure:
    """κ and α (at the study's level) of two code columns, computed as the study computes them."""
    codes = np.stack([a, b], axis=1).astype(np.int32)
    values = None
    if data.numeric:
        cats = data.categories.astype(float)
        values = np.where(codes >= 0, cats[np.clip(codes, 0, None)], np.nan)
    sub = replace(
        data,
        codes=codes,
        values=values,
        judged=codes >= 0,
        annotators=("model", partner),
    )
    try:
        overall = compute_overall(sub, options)
    except InsufficientDataError:
        nan = math.nan
        return PairFigure(partner, 0, nan, nan, nan, nan, nan, nan)
    k, al = overall["cohen_kappa_mean"], overall["krippendorff_alpha"]
    return PairFigure(
        partner, k.n_items, k.value, k.ci_low, k.ci_high, al.value, al.ci_low, al.ci_high
    )


def _alt_score(data: ReliabilityData, options: TableOptions) -> AltTestScore:
    if options.alt_test_score != "auto":
        return options.alt_test_score
    return "neg_rmse" if data.numeric and options.level != "nominal" else "accuracy"


def _as_labels(codes: NDArray[Any], data: ReliabilityData, score: AltTestScore) -> NDArray[Any]:
    """Codes as floats for the alt-test: the numbers themselves for RMSE, else the codes."""
    if score == "neg_rmse":
        if not data.numeric:
            raise OptionError("Alt-test score: negative RMSE needs numeric labels.")
        cats = data.categories.astype(float)
        return np.where(codes >= 0, cats[np.clip(codes, 0, None)], np.nan)
    return np.where(codes >= 0, codes.astype(float), np.nan)


def model_figures(
    humans: ReliabilityData,
    models: ModelColumns,
    pairwise: pd.DataFrame,
    options: TableOptions,
) -> list[ModelAnnotator]:
    """The alt-test and the agreement figures of every model annotator."""
    if not models.names:
        return []
    score = _alt_score(humans, options)
    h_labels = _as_labels(humans.codes, humans, score)
    majority = human_majority(humans.codes)
    kap = (
        pairwise["cohen_kappa"].to_numpy(dtype=float) if "cohen_kappa" in pairwise else np.array([])
    )
    kap = kap[np.isfinite(kap)]
    rng = (
        (float(kap.min()), float(np.median(kap)), float(kap.max())) if len(kap) else (math.nan,) * 3
    )
    out = []
    for m, name in enumerate(models.names):
        col = models.codes[:, m]
        pairs = [pair_figure(humans, col, majority, HUMAN_MAJORITY, options)]
        if len(humans.annotators) <= MAX_MODEL_PAIRS:
            pairs += [
                pair_figure(humans, col, humans.codes[:, j], h, options)
                for j, h in enumerate(humans.annotators)
            ]
        labels = _as_labels(col, humans, score)
        out.append(
            model_annotator(
                name, labels, h_labels, humans.annotators, score, options.epsilon, pairs, rng
            )
        )
    return out


def with_models(
    items: pd.DataFrame,
    humans: ReliabilityData,
    models: ModelColumns,
    hints: Sequence[str] = (),
) -> pd.DataFrame:
    """The items table with each model's label and ``model_disagrees``: how many models differ
    from the human majority on the item (the view lists those items first); with ``hints`` (one
    per item) a ``suggested`` column (the inferred label and its posterior)."""
    if hints:
        items = items.assign(suggested=list(hints))
    if not models.names:
        return items
    cats = humans.categories
    majority = human_majority(humans.codes)
    text = np.array(
        [str(int(c)) if humans.numeric and float(c).is_integer() else str(c) for c in cats],
        dtype=object,
    )
    extra: dict[str, Any] = {}
    disagree = np.zeros(len(items), dtype=np.int64)
    for m, name in enumerate(models.names):
        col = models.codes[:, m]
        lab = np.full(len(col), "", dtype=object)
        lab[col >= 0] = text[col[col >= 0]] if len(text) else ""
        extra[name] = lab
        disagree += ((col >= 0) & (majority >= 0) & (col != majority)).astype(np.int64)
    maj = np.full(len(majority), "", dtype=object)
    maj[majority >= 0] = text[majority[majority >= 0]] if len(text) else ""
    extra[HUMAN_MAJORITY] = maj
    extra["model_disagrees"] = disagree
    added = pd.DataFrame(extra, index=items.index)
    return pd.concat([items.drop(columns=[c for c in added if c in items]), added], axis=1)


@dataclass(frozen=True)
class AnnotatorFigures:
    """Everything the table kind adds about its annotators (empty parts are left out)."""

    models: tuple[ModelAnnotator, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    extra_tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    #: per item of the study (in the reliability data's order) the adjudication suggestion
    hints: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.models or self.extra)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.models:
            out["model_annotators"] = [m.to_json() for m in self.models]
        out.update(self.extra)
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        out: dict[str, pd.DataFrame] = {}
        if self.models:
            out["model_annotators"] = pd.DataFrame(
                [
                    {k: v for k, v in m.to_json().items() if not isinstance(v, list | dict)}
                    for m in self.models
                ]
            )
            out["alt_test"] = pd.DataFrame(
                [{"model": m.name, **h} for m in self.models for h in m.to_json()["per_human"]]
            )
            out["model_agreement"] = pd.DataFrame(
                [{"model": m.name, **p.to_json()} for m in self.models for p in m.agreement]
            )
        out.update(self.extra_tables)
        return out


def annotator_figures(
    judgments: Judgments,
    everyone: ReliabilityData,
    humans: ReliabilityData,
    models: ModelColumns,
    pairwise: pd.DataFrame,
    overall: Mapping[str, AgreementResult],
    options: TableOptions,
) -> AnnotatorFigures:
    """Every annotator figure the options ask for (nothing when they ask for none)."""
    extra: dict[str, Any] = {}
    tables: dict[str, pd.DataFrame] = {}
    hints: tuple[str, ...] = ()
    frame, item_cols = judgments.frame, judgments.item_columns
    if options.competence:
        from iaa_desktop.core.kinds.table.competence import competence_figures

        j, t, h = competence_figures(frame, item_cols, options, everyone, models.names)
        extra.update(j)
        tables.update(t)
        hints = tuple(h)
    time_figures(judgments, everyone, humans, models, overall, options, extra, tables)
    return AnnotatorFigures(
        tuple(model_figures(humans, models, pairwise, options)), extra, tables, hints
    )


def time_figures(
    judgments: Judgments,
    everyone: ReliabilityData,
    humans: ReliabilityData,
    models: ModelColumns,
    overall: Mapping[str, AgreementResult],
    options: TableOptions,
    extra: dict[str, Any],
    tables: dict[str, pd.DataFrame],
) -> None:
    """``per_batch[]``, ``retest[]`` and ``planning[]`` into ``extra`` and ``tables``."""
    from iaa_desktop.core.kinds.annotators.batches import batch_table, retest_table
    from iaa_desktop.core.kinds.table import annotator_time as at
    from iaa_desktop.core.kinds.table.responses import display_names

    frame, item_cols = judgments.frame, judgments.item_columns
    display = display_names(frame, options)
    cats = list(everyone.categories)
    if options.batch_column:
        rows = at.per_batch(frame, item_cols, options, cats, overall, models.names, display)
        extra["per_batch"] = rows
        tables["per_batch"] = batch_table(rows)
    if options.retest:
        rows = at.retest(frame, item_cols, options, cats, display)
        extra["retest"] = rows
        tables["retest"] = retest_table(rows)
    if options.planning:
        curve, needed = at.planning(humans, options)
        extra["planning"] = curve
        extra["planning_needed"] = needed
        tables["planning"] = pd.DataFrame(curve)
