"""Annotators, human and model, in a candidate-pairs study.

Accept/reject judgments reduce to item × annotator × label: each candidate pair is an item and
each annotator's label a nominal category, as Hubert's multi-κ counts them. The figures shared
by every such kind (:mod:`iaa_desktop.core.kinds.annotators`) are computed on those codes: for
each model annotator the alternative annotator test (Calderon, Reichart & Dror 2025; accuracy
per item) and its Cohen's κ and nominal Krippendorff's α with each human and with the human
majority; the planning curve of the humans' coefficients. Models are taken out of every human
coefficient.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.matrix import StudyAnnotators, matrix_figures
from iaa_desktop.core.kinds.annotators.models import HUMAN_MAJORITY, split_columns
from iaa_desktop.core.kinds.candidates.options import CandidatesOptions
from iaa_desktop.core.kinds.candidates.reader import CandidateData, encode_labels

__all__ = ["CandidatesAnnotators", "candidates_annotators", "split_models"]


def split_models(data: CandidateData, options: CandidatesOptions) -> pd.DataFrame | None:
    """The models' labels (pairs × models, "" = no label; None when no model is named), taken
    out of ``data`` in place: its annotators and labels are the humans' afterwards.

    A name that is no annotator, or fewer than two humans left, is an :class:`OptionError`.
    """
    wanted = options.model_names
    if not wanted:
        return None
    names = list(data.annotators)
    h_idx, m_idx, unknown = split_columns(names, wanted)
    if unknown:
        raise OptionError(
            f"Model annotators: {', '.join(repr(u) for u in unknown)} is not an annotator of the "
            f"study (annotators: {', '.join(names[:20])}{' …' if len(names) > 20 else ''})."
        )
    if len(h_idx) < 2:
        raise OptionError(
            "Model annotators: with these models, fewer than two human annotators are left; "
            "the humans' agreement and the alternative annotator test need at least two."
        )
    models = data.labels[[names[k] for k in m_idx]].copy()
    data.annotators = tuple(names[k] for k in h_idx)
    data.labels = data.labels[list(data.annotators)]
    return models


@dataclass(frozen=True)
class CandidatesAnnotators(StudyAnnotators):
    """The annotator figures of a candidate-pairs study (empty when the options ask for none),
    with each model's labels and the human majority ("" = none) for the pair list."""

    model_labels: dict[str, NDArray[Any]] = field(default_factory=dict)


def candidates_annotators(
    humans: pd.DataFrame, models: pd.DataFrame | None, options: CandidatesOptions
) -> CandidatesAnnotators:
    """The model annotators' figures and the planning curve the options ask for.

    ``humans`` and ``models``: pairs × annotators labels ("" = no label). The labels of humans
    and models are coded together (the categories any of them used), nominal.
    """
    if models is None and not options.planning:
        return CandidatesAnnotators()
    every = (
        humans
        if models is None
        else pd.DataFrame(np.hstack([humans.to_numpy(dtype=object), models.to_numpy(dtype=object)]))
    )
    codes, cats = encode_labels(every)
    n_h = humans.shape[1]
    figures = matrix_figures(
        np.ascontiguousarray(codes[:, :n_h]),
        tuple(str(a) for a in humans.columns),
        None if models is None else np.ascontiguousarray(codes[:, n_h:]),
        () if models is None else tuple(str(m) for m in models.columns),
        np.arange(len(cats), dtype=float),
        "nominal",
        epsilon=options.epsilon,
        planning=options.planning,
        seed=options.seed,
    )
    labels: dict[str, NDArray[Any]] = {}
    if models is not None and figures.majority is not None:
        for m in models.columns:
            labels[str(m)] = models[m].fillna("").astype(str).to_numpy(dtype=object)
        names = np.array([*cats, ""], dtype=object)
        labels[HUMAN_MAJORITY] = names[figures.majority]  # −1 (none) picks the final ""
    return CandidatesAnnotators(figures, options.planning, labels)
