"""γ (Mathet, Widlöcher & Métivier 2015) of a span corpus, computed by the core's metric.

Documents every annotator has are laid end to end (as for αU) in one continuum, every span
fragment a unit with its label; γ uses the combined dissimilarity with α = β = Δ∅ = 1 (the
paper's and pygamma-agreement's defaults), the exact best alignment, and an expected disorder
sampled as pygamma-agreement samples it (its statistical sampler) from the study's seed, with as
many samples as a precision level of 2% asks for.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from iaa_desktop.core.metrics.gamma import GammaResult, gamma, make_continuum

PRECISION_LEVEL = 0.02


def continuum_units(corpus: Any) -> list[tuple[str, int, int, str]]:
    """(annotator, start, end, label) of every fragment of the documents every annotator has,
    on the axis of those documents laid end to end in input order."""
    full = np.flatnonzero(corpus.has.all(axis=0))
    off = np.zeros(len(corpus.names), dtype=np.int64)
    off[full] = np.concatenate([[0], np.cumsum(corpus.lengths[full])[:-1]]).astype(np.int64)
    keep = np.isin(corpus.doc[corpus.frag_span], full)
    fs = corpus.frag_span[keep]
    d = corpus.doc[fs]
    return [
        (corpus.annotators[a], int(s + off[dd]), int(e + off[dd]), corpus.labels[lab])
        for a, s, e, dd, lab in zip(
            corpus.ann[fs].tolist(),
            corpus.frag_start[keep].tolist(),
            corpus.frag_end[keep].tolist(),
            d.tolist(),
            corpus.label[fs].tolist(),
        )
        if e > s
    ]


def corpus_gamma(corpus: Any, seed: int = 0) -> tuple[GammaResult | None, str]:
    """γ of the corpus, or ``None`` and a sentence saying why not."""
    if len(corpus.annotators) < 2:
        return None, "γ not computed: it needs two annotators."
    units = continuum_units(corpus)
    if not units:
        return None, "γ not computed: no spans in the documents every annotator has."
    result = gamma(
        make_continuum(units, annotators=corpus.annotators),
        seed=seed,
        precision_level=PRECISION_LEVEL,
    )
    if not math.isfinite(result.gamma):
        return None, "γ not computed: the sampled continua have no disorder."
    return result, (
        f"γ: exact best alignment, expected disorder from {result.n_samples} sampled continua "
        f"(seed {seed}), interval for a {PRECISION_LEVEL:.0%} precision level."
    )
