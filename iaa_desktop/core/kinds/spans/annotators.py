"""Annotators, human and model, in a span study, per token: each token of the texts an item, the
label of the span covering it (or none) the category, and the figures shared by every kind with
such a matrix (:mod:`iaa_desktop.core.kinds.annotators`): the model annotators' alternative
annotator test (accuracy) with κ and nominal α, the planning curve, and Dawid–Skene and MACE
competence with an inferred label per token. Tokens covered by two labels of one annotator are
left out, as in the token-level coefficients."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
from iaa_desktop.core.kinds.spans.corpus import SpanCorpus
from iaa_desktop.core.kinds.spans.measures import unit_code_matrix
from iaa_desktop.core.kinds.spans.options import SpansOptions
from iaa_desktop.core.metrics import spans as S

__all__ = ["NO_LABEL", "TokenAnnotators", "human_documents", "token_annotators", "token_keys"]

#: the category of a token no span covers, in competence's labels
NO_LABEL = "(none)"


@dataclass(frozen=True)
class TokenAnnotators(StudyAnnotators):
    """The model annotators' figures and the planning curve of a span study, per token."""


def human_documents(
    annotators: tuple[str, ...], docs: Mapping[str, Mapping[str, Any]], options: SpansOptions
) -> tuple[tuple[str, ...], dict[str, dict[str, Any]]]:
    """The human annotators and their documents (the models' taken out); a name that is no
    annotator, or fewer than two humans left, is an :class:`OptionError`."""
    h_idx, _m, unknown = split_columns(annotators, options.model_names)
    if unknown:
        names = list(annotators)
        raise OptionError(
            f"Model annotators: {', '.join(repr(u) for u in unknown)} is not an annotator of the "
            f"study (annotators: {', '.join(names[:20])}{' …' if len(names) > 20 else ''})."
        )
    if len(h_idx) < 2:
        raise OptionError(
            "Model annotators: with these models, fewer than two human annotators are left; "
            "the humans' agreement and the alternative annotator test need at least two."
        )
    humans = tuple(annotators[k] for k in h_idx)
    kept = {d: {a: x for a, x in by.items() if a in humans} for d, by in docs.items()}
    return humans, {d: by for d, by in kept.items() if by}


def token_annotators(everyone: SpanCorpus, options: SpansOptions) -> TokenAnnotators:
    """The figures the options ask for, from the token codes of every annotator."""
    codes, _w, _d = unit_code_matrix(everyone, "token")
    kept = ~(codes == S.CONFLICT).any(axis=1)
    codes = codes[kept].astype(np.int32)
    h_idx, m_idx, _ = split_columns(everyone.annotators, options.model_names)
    names = everyone.annotators
    figures = matrix_figures(
        codes[:, h_idx],
        tuple(names[k] for k in h_idx),
        codes[:, m_idx] if m_idx else None,
        tuple(names[k] for k in m_idx),
        np.arange(len(everyone.labels) + 1, dtype=float),
        "nominal",
        epsilon=options.epsilon,
        planning=options.planning,
        n_resamples=options.n_resamples,
        seed=options.seed,
    )
    competence = None
    if options.competence:
        competence = matrix_competence(
            codes,
            names,
            [*everyone.labels, NO_LABEL],
            token_keys(everyone, kept),
            tuple(names[k] for k in m_idx),
            options.seed,
        )
    return TokenAnnotators(figures, options.planning, competence=competence)


def token_keys(corpus: SpanCorpus, kept: NDArray[Any]) -> list[str]:
    """The tokens (those ``kept``) named as ``document | start–end | text`` (offsets in the
    document, end exclusive)."""
    us, ue, udoc = corpus.tokens()
    out = []
    for s, e, d in zip(us[kept].tolist(), ue[kept].tolist(), udoc[kept].tolist(), strict=True):
        off = int(corpus.offsets[d])
        text = (corpus.texts[d] or "")[s - off : e - off]
        out.append(f"{corpus.names[d]} | {s - off}–{e - off} | {text}")
    return out
