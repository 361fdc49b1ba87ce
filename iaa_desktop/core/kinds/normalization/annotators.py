"""Annotators, human and model, in a normalization study: each token an item, its normalization
(as the word-level figures compare it) the label, and the figures shared by every kind with such
a matrix (:mod:`iaa_desktop.core.kinds.annotators`): the model annotators' alternative annotator
test (accuracy) with κ and nominal α, the planning curve, and Dawid–Skene and MACE competence
with an inferred normalization per token (the normalizations as unordered categories)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.competence import matrix_competence
from iaa_desktop.core.kinds.annotators.matrix import (
    StudyAnnotators,
    matrix_figures,
)
from iaa_desktop.core.kinds.annotators.models import split_columns
from iaa_desktop.core.kinds.normalization.analysis import prepared_normalizations
from iaa_desktop.core.kinds.normalization.options import NormalizationOptions
from iaa_desktop.core.kinds.normalization.reader import NormalizationData

__all__ = ["TokenAnnotators", "split_models", "token_annotators"]


@dataclass(frozen=True)
class TokenAnnotators(StudyAnnotators):
    """The model annotators' figures and the planning curve of a normalization study."""


def split_models(
    data: NormalizationData, options: NormalizationOptions
) -> tuple[NormalizationData, NDArray[Any] | None]:
    """The humans' data and every annotator's prepared normalizations (None without models,
    planning or competence); a name that is no annotator, or fewer than two humans left, is
    refused."""
    wanted = options.model_names
    if not wanted:
        asked = options.planning or options.competence
        return data, prepared_normalizations(data, options) if asked else None
    h_idx, m_idx, unknown = split_columns(data.annotators, wanted)
    names = list(data.annotators)
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
    everyone = prepared_normalizations(data, options)
    humans = replace(
        data,
        annotators=tuple(names[k] for k in h_idx),
        norm=data.norm[:, h_idx],
        mod=data.mod[:, h_idx],
        mod_type=data.mod_type[:, h_idx],
        sources=tuple(data.sources[k] for k in h_idx) if data.sources else data.sources,
    )
    return humans, everyone


def token_annotators(
    annotators: tuple[str, ...],
    everyone: NDArray[Any],
    options: NormalizationOptions,
    keys: Sequence[str] = (),
) -> TokenAnnotators:
    """The figures the options ask for, from every annotator's prepared normalizations
    (``keys`` naming the tokens, for competence's inferred normalizations; by default their
    positions)."""
    h_idx, m_idx, _ = split_columns(annotators, options.model_names)
    cats, flat = np.unique(everyone.astype(str), return_inverse=True)
    codes = flat.reshape(everyone.shape).astype(np.int32)
    figures = matrix_figures(
        codes[:, h_idx],
        tuple(annotators[k] for k in h_idx),
        codes[:, m_idx] if m_idx else None,
        tuple(annotators[k] for k in m_idx),
        np.arange(len(cats), dtype=float),
        "nominal",
        epsilon=options.epsilon,
        planning=options.planning,
    )
    competence = None
    if options.competence:
        competence = matrix_competence(
            codes,
            annotators,
            [str(c) for c in cats],
            list(keys) if keys else [str(i + 1) for i in range(len(codes))],
            tuple(annotators[k] for k in m_idx),
        )
    return TokenAnnotators(figures, options.planning, competence=competence)
