"""Annotators, human and model, in a graded-use-pairs study.

Graded judgments reduce to item × annotator × label: the judgment matrix's valid values become
ordered category codes, and the figures shared by every such kind
(:mod:`iaa_desktop.core.kinds.annotators`) are computed on them: for each model annotator the
alternative annotator test (Calderon, Reichart & Dror 2025; negative RMSE per item, accuracy at
the nominal level) and its κ and α with each human and with the human majority; the planning
curve of the humans' coefficients; Dawid–Skene and MACE competence with an inferred label per
pair (:mod:`iaa_desktop.core.kinds.annotators.competence`). Models are taken out of every human
coefficient.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.competence import label_text, matrix_competence
from iaa_desktop.core.kinds.annotators.matrix import (
    StudyAnnotators,
    matrix_figures,
)
from iaa_desktop.core.kinds.annotators.models import HUMAN_MAJORITY, split_columns
from iaa_desktop.core.kinds.durel.figures import Matrix
from iaa_desktop.core.kinds.durel.options import DurelOptions

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
class DurelAnnotators(StudyAnnotators):
    """The annotator figures of a DURel study (empty when the options ask for none), with each
    model's labels."""

    model_labels: dict[str, NDArray[Any]] = field(default_factory=dict)


def _codes(values: NDArray[Any], cats: NDArray[Any]) -> NDArray[Any]:
    ok = np.isfinite(values)
    codes = np.full(values.shape, -1, dtype=np.int32)
    codes[ok] = np.searchsorted(cats, values[ok]).astype(np.int32)
    return codes


def durel_annotators(
    humans: Matrix, models: Matrix | None, options: DurelOptions
) -> DurelAnnotators:
    """The model annotators' figures, the planning curve and annotator competence the options
    ask for: the valid judgments as ordered categories (can't-decide judged but missing; for
    competence unordered, an annotator's repeated judgments of a pair combined as the study
    combines them)."""
    if models is None and not options.planning and not options.competence:
        return DurelAnnotators()
    every = humans.values if models is None else np.hstack([humans.values, models.values])
    cats = np.unique(every[np.isfinite(every)])
    figures = matrix_figures(
        _codes(humans.values, cats),
        humans.annotators,
        None if models is None else _codes(models.values, cats),
        () if models is None else models.annotators,
        cats,
        options.level,
        epsilon=options.epsilon,
        planning=options.planning,
        h_judged=humans.judged,
    )
    labels: dict[str, NDArray[Any]] = {}
    if models is not None and figures.majority is not None:
        for m, name in enumerate(models.annotators):
            labels[name] = models.values[:, m]
        maj = figures.majority
        labels[HUMAN_MAJORITY] = np.where(maj >= 0, cats[np.clip(maj, 0, None)], np.nan)
    competence = None
    if options.competence:
        names = humans.annotators + (() if models is None else models.annotators)
        items = humans.items
        keys = (items["target"] + " | " + items["id1"] + " | " + items["id2"]).astype(str)
        competence = matrix_competence(
            _codes(every, cats),
            names,
            label_text(cats, True),
            keys.tolist(),
            () if models is None else models.annotators,
        )
    return DurelAnnotators(figures, options.planning, model_labels=labels, competence=competence)
