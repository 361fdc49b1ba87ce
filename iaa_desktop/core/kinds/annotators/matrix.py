"""The model annotators' figures and the planning curve of one items × annotators code matrix.

Any kind whose units reduce to item × annotator × label hands its humans' and its models'
category codes here (−1: missing); the coefficients come from the metrics' tally
(:mod:`iaa_desktop.core.metrics.tally`) as a judgment table of those labels would report them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.kinds.annotators.batches import batch_table, retest_table
from iaa_desktop.core.kinds.annotators.competence import CompetenceFigures
from iaa_desktop.core.kinds.annotators.models import (
    HUMAN_MAJORITY,
    MAX_MODEL_PAIRS,
    ModelAnnotator,
    coded_pair_figure,
    human_kappa_range,
    human_majority,
    model_annotator,
)
from iaa_desktop.core.kinds.annotators.planning import planning_curve
from iaa_desktop.core.kinds.options import N_RESAMPLES, SEED
from iaa_desktop.core.metrics import tally
from iaa_desktop.core.metrics.alt_test import AltTestScore
from iaa_desktop.core.metrics.suite import CodedOptions

__all__ = ["MatrixFigures", "StudyAnnotators", "matrix_figures"]


@dataclass(frozen=True)
class MatrixFigures:
    """Model annotators and the planning curve of one code matrix."""

    models: tuple[ModelAnnotator, ...] = ()
    planning: tuple[dict[str, Any], ...] = ()
    planning_needed: tuple[dict[str, Any], ...] = ()
    #: the human majority per item (−1: none or a tie)
    majority: NDArray[Any] | None = None

    def models_json(self, **extra: Any) -> list[dict[str, Any]]:
        return [{**extra, **m.to_json()} for m in self.models]

    def models_tables(self, **extra: Any) -> dict[str, pd.DataFrame]:
        js = self.models_json(**extra)
        keys = list(extra)
        return {
            "model_annotators": pd.DataFrame(
                [{k: v for k, v in j.items() if not isinstance(v, list | dict)} for j in js]
            ),
            "alt_test": pd.DataFrame(
                [
                    {**{k: j[k] for k in keys}, "model": j["name"], **h}
                    for j in js
                    for h in j["per_human"]
                ]
            ),
            "model_agreement": pd.DataFrame(
                [
                    {**{k: j[k] for k in keys}, "model": j["name"], **p}
                    for j in js
                    for p in j["agreement"]
                ]
            ),
        }


def matrix_figures(
    h_codes: NDArray[Any],
    humans: Sequence[str],
    m_codes: NDArray[Any] | None,
    models: Sequence[str],
    values: NDArray[Any],
    level: str,
    *,
    epsilon: float,
    planning: bool,
    h_judged: NDArray[Any] | None = None,
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
) -> MatrixFigures:
    """Each model's alt-test and agreement, and the humans' planning curve.

    ``values``: the number of each category (ordered); the alt-test scores negative RMSE on them
    unless ``level`` is nominal (then accuracy on the codes). ``h_judged``: cells judged without
    a valid label (can't decide), which count in the weights of the pairs' Spearman ρ.
    """
    q = len(values)
    if not q:
        return MatrixFigures()
    coded = CodedOptions(
        level=level, values=np.asarray(values, dtype=float), spearman=level != "nominal"
    )

    def judged_if_needed(codes: NDArray[Any], judged: NDArray[Any] | None) -> Any:
        if judged is None or not coded.spearman or not bool((judged & (codes < 0)).any()):
            return None
        return judged

    out: list[ModelAnnotator] = []
    majority = None
    if m_codes is not None and len(models):
        score: AltTestScore = "accuracy" if level == "nominal" else "neg_rmse"
        lab = coded.values if score == "neg_rmse" else np.arange(q, dtype=float)
        assert lab is not None

        def labels(c: NDArray[Any]) -> NDArray[Any]:
            return np.where(c >= 0, lab[np.clip(c, 0, None)], np.nan)

        h_lab = labels(h_codes)
        majority = human_majority(h_codes)
        rng = human_kappa_range(h_codes, q, coded, judged_if_needed(h_codes, h_judged))
        for m, name in enumerate(models):
            col = m_codes[:, m]
            pairs = [coded_pair_figure(col, majority, q, coded, HUMAN_MAJORITY, n_resamples, seed)]
            if len(humans) <= MAX_MODEL_PAIRS:
                pairs += [
                    coded_pair_figure(col, h_codes[:, j], q, coded, h, n_resamples, seed)
                    for j, h in enumerate(humans)
                ]
            out.append(
                model_annotator(name, labels(col), h_lab, humans, score, epsilon, pairs, rng)
            )
    curve: list[dict[str, Any]] = []
    needed: list[dict[str, Any]] = []
    if planning:
        pairable = (h_codes >= 0).sum(axis=1) >= 2
        n = int(pairable.sum())
        if n >= 2:
            sub = h_codes[pairable]
            judged = judged_if_needed(sub, None if h_judged is None else h_judged[pairable])
            t = tally(sub, q, judged=judged)
            curve, needed = planning_curve(t, coded, n, n_resamples, seed)
    return MatrixFigures(tuple(out), tuple(curve), tuple(needed), majority)


@dataclass(frozen=True)
class StudyAnnotators:
    """The model annotators' figures, the planning curve, annotator competence, agreement per
    batch and test–retest agreement a study asked for, as the kinds whose judgments form one
    item × annotator matrix report them (empty when none was asked)."""

    figures: MatrixFigures = field(default_factory=MatrixFigures)
    asked_planning: bool = False
    #: Dawid–Skene and MACE (None unless asked for; keyword-only, after the subclasses' fields)
    competence: CompetenceFigures | None = field(default=None, kw_only=True)
    #: ``per_batch[]`` (:func:`~iaa_desktop.core.kinds.annotators.batches.per_batch`; None
    #: unless asked for) and the whole study's figures its batches are compared with
    per_batch: tuple[dict[str, Any], ...] | None = field(default=None, kw_only=True)
    per_batch_study: dict[str, Any] = field(default_factory=dict, kw_only=True)
    #: ``retest[]`` (:func:`~iaa_desktop.core.kinds.annotators.batches.retest`; None unless
    #: asked for)
    retest: tuple[dict[str, Any], ...] | None = field(default=None, kw_only=True)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.figures.models:
            out["model_annotators"] = self.figures.models_json()
        if self.competence is not None:
            out.update(self.competence.to_json())
        if self.per_batch is not None:
            out["per_batch"] = list(self.per_batch)
            out["per_batch_study"] = self.per_batch_study
        if self.retest is not None:
            out["retest"] = list(self.retest)
        if self.asked_planning:
            out["planning"] = list(self.figures.planning)
            out["planning_needed"] = list(self.figures.planning_needed)
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        out: dict[str, pd.DataFrame] = {}
        if self.figures.models:
            out.update(self.figures.models_tables())
        if self.competence is not None:
            out.update(self.competence.tables())
            out["confusion"] = self.competence.confusion_table()
        if self.per_batch is not None:
            out["per_batch"] = batch_table(self.per_batch)
            out["per_batch_study"] = pd.DataFrame(
                [{"metric": k, **v} for k, v in self.per_batch_study.items()]
            )
        if self.retest is not None:
            out["retest"] = retest_table(self.retest)
        if self.asked_planning:
            out["planning"] = pd.DataFrame(list(self.figures.planning))
        return out
