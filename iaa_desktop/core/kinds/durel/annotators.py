"""Annotators, human and model, in a graded-use-pairs study.

Graded judgments reduce to item × annotator × label: the judgment matrix's valid values become
ordered category codes, and the figures shared by every such kind
(:mod:`iaa_desktop.core.kinds.annotators`) are computed on them: for each model annotator the
alternative annotator test (Calderon, Reichart & Dror 2025; negative RMSE per item, accuracy at
the nominal level) and its κ and α with each human and with the human majority; the planning
curve of the humans' coefficients. Models are taken out of every human coefficient.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.models import (
    HUMAN_MAJORITY,
    MAX_MODEL_PAIRS,
    ModelAnnotator,
    coded_pair_figure,
    human_kappa_range,
    human_majority,
    model_annotator,
    split_columns,
)
from iaa_desktop.core.kinds.annotators.planning import planning_curve
from iaa_desktop.core.kinds.durel.figures import Matrix
from iaa_desktop.core.kinds.durel.options import DurelOptions
from iaa_desktop.core.kinds.options import N_RESAMPLES, SEED
from iaa_desktop.core.metrics import tally
from iaa_desktop.core.metrics.alt_test import AltTestScore
from iaa_desktop.core.metrics.suite import CodedOptions

__all__ = ["DurelAnnotators", "durel_annotators", "split_models"]


def split_models(matrix: Matrix, options: DurelOptions) -> tuple[Matrix, Matrix | None]:
    """The humans' matrix and the models' (None when no model is named).

    A name that is no annotator, or fewer than two humans left, is an :class:`OptionError`.
    """
    wanted = options.model_names
    if not wanted:
        return matrix, None
    h_idx, m_idx, unknown = split_columns(matrix.annotators, wanted)
    if unknown:
        names = list(matrix.annotators)
        raise OptionError(
            f"Model annotators: {', '.join(repr(u) for u in unknown)} is not an annotator of the "
            f"study (annotators: {', '.join(names[:20])}{' …' if len(names) > 20 else ''})."
        )
    if len(h_idx) < 2:
        raise OptionError(
            "Model annotators: with these models, fewer than two human annotators are left; "
            "the humans' agreement and the alternative annotator test need at least two."
        )

    def cols(idx: list[int]) -> Matrix:
        return replace(
            matrix,
            annotators=tuple(matrix.annotators[k] for k in idx),
            values=np.ascontiguousarray(matrix.values[:, idx]),
            judged=np.ascontiguousarray(matrix.judged[:, idx]),
        )

    return cols(h_idx), cols(m_idx)


@dataclass(frozen=True)
class DurelAnnotators:
    """The annotator figures of a DURel study (empty when the options ask for none)."""

    models: tuple[ModelAnnotator, ...] = ()
    planning: tuple[dict[str, Any], ...] = ()
    planning_needed: tuple[dict[str, Any], ...] = ()
    asked_planning: bool = False
    model_labels: dict[str, NDArray[Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.models:
            out["model_annotators"] = [m.to_json() for m in self.models]
        if self.asked_planning:
            out["planning"] = list(self.planning)
            out["planning_needed"] = list(self.planning_needed)
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        out: dict[str, pd.DataFrame] = {}
        if self.models:
            js = [m.to_json() for m in self.models]
            out["model_annotators"] = pd.DataFrame(
                [{k: v for k, v in j.items() if not isinstance(v, list | dict)} for j in js]
            )
            out["alt_test"] = pd.DataFrame(
                [{"model": j["name"], **h} for j in js for h in j["per_human"]]
            )
            out["model_agreement"] = pd.DataFrame(
                [{"model": j["name"], **p} for j in js for p in j["agreement"]]
            )
        if self.asked_planning:
            out["planning"] = pd.DataFrame(list(self.planning))
        return out


def _codes(values: NDArray[Any], cats: NDArray[Any]) -> NDArray[Any]:
    ok = np.isfinite(values)
    codes = np.full(values.shape, -1, dtype=np.int32)
    codes[ok] = np.searchsorted(cats, values[ok]).astype(np.int32)
    return codes


def durel_annotators(
    humans: Matrix, models: Matrix | None, options: DurelOptions
) -> DurelAnnotators:
    """The model annotators' figures and the planning curve the options ask for."""
    if models is None and not options.planning:
        return DurelAnnotators()
    every = humans.values if models is None else np.hstack([humans.values, models.values])
    cats = np.unique(every[np.isfinite(every)])
    q = len(cats)
    coded = CodedOptions(
        level=options.level, values=cats.astype(float), spearman=options.level != "nominal"
    )
    h_codes = _codes(humans.values, cats)
    judged = (
        humans.judged if coded.spearman and bool((humans.judged & (h_codes < 0)).any()) else None
    )
    out: list[ModelAnnotator] = []
    labels: dict[str, NDArray[Any]] = {}
    if models is not None and q:
        score: AltTestScore = "accuracy" if options.level == "nominal" else "neg_rmse"
        m_codes = _codes(models.values, cats)
        if score == "neg_rmse":
            h_lab, m_lab = humans.values, models.values
        else:
            h_lab = np.where(h_codes >= 0, h_codes.astype(float), np.nan)
            m_lab = np.where(m_codes >= 0, m_codes.astype(float), np.nan)
        majority = human_majority(h_codes)
        rng = human_kappa_range(h_codes, q, coded, judged)
        for m, name in enumerate(models.annotators):
            col = m_codes[:, m]
            labels[name] = models.values[:, m]

            def pair(b: NDArray[Any], partner: str, col: NDArray[Any] = col) -> Any:
                return coded_pair_figure(col, b, q, coded, partner, N_RESAMPLES, SEED)

            pairs = [pair(majority, HUMAN_MAJORITY)]
            if len(humans.annotators) <= MAX_MODEL_PAIRS:
                pairs += [pair(h_codes[:, j], h) for j, h in enumerate(humans.annotators)]
            out.append(
                model_annotator(
                    name,
                    m_lab[:, m],
                    h_lab,
                    humans.annotators,
                    score,
                    options.epsilon,
                    pairs,
                    rng,
                )
            )
        labels[HUMAN_MAJORITY] = np.where(majority >= 0, cats[np.clip(majority, 0, None)], np.nan)
    curve: list[dict[str, Any]] = []
    needed: list[dict[str, Any]] = []
    if options.planning and q:
        pairable = (h_codes >= 0).sum(axis=1) >= 2
        n = int(pairable.sum())
        if n >= 2:
            sub, sub_judged = h_codes[pairable], humans.judged[pairable]
            keep = coded.spearman and bool((sub_judged & (sub < 0)).any())
            t = tally(sub, q, judged=sub_judged if keep else None)
            curve, needed = planning_curve(t, coded, n, N_RESAMPLES, SEED)
    return DurelAnnotators(tuple(out), tuple(curve), tuple(needed), options.planning, labels)
