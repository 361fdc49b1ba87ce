"""γ (Mathet, Widlöcher & Métivier 2015) through the optional ``pygamma-agreement`` library.

pygamma-agreement brings cvxpy, numba and pyannote, so it is an optional extra
(``pip install 'iaa-desktop[gamma]'``); without it the study says how to enable γ. Documents every
annotator has are laid end to end (as for αU) in one continuum; γ's expected disagreement is
sampled, so the seed is set on NumPy's global generator, which pygamma-agreement's samplers use.
"""

from __future__ import annotations

import logging
import math
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

HOW_TO_ENABLE = "γ needs the optional package pygamma-agreement: pip install 'iaa-desktop[gamma]'."


def gamma_available() -> bool:
    try:
        import pygamma_agreement  # noqa: F401
    except ImportError:
        return False
    return True


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
    ]


def gamma_of_units(
    units: list[tuple[str, int, int, str]], seed: int = 0, precision_level: float = 0.02
) -> float:
    """γ of (annotator, start, end, label) units with pygamma-agreement's combined categorical
    dissimilarity (α = β = 1, its defaults)."""
    import pygamma_agreement as pa
    from pyannote.core import Segment

    continuum = pa.Continuum()
    for who, s, e, label in units:
        continuum.add(who, Segment(s, e), label)
    np.random.seed(seed)  # noqa: NPY002  (pygamma-agreement samples from the global generator)
    dissim = pa.CombinedCategoricalDissimilarity()
    with quiet_solvers():
        return float(continuum.compute_gamma(dissim, precision_level=precision_level).gamma)


class _DropCbcWarning(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("CBC solver not installed")


@contextmanager
def quiet_solvers() -> Iterator[None]:
    """Silence the solvers while γ is computed.

    pygamma-agreement logs a warning on the root logger for every alignment it solves without the
    CBC solver, and GLPK (through cvxpy and cvxopt) can print its progress from C straight to the
    process's standard output, which would corrupt a JSON report written there. The warning is
    dropped and file descriptor 1 points to the null device meanwhile.
    """
    root = logging.getLogger()
    drop = _DropCbcWarning()
    root.addFilter(drop)
    saved = None
    try:
        sys.stdout.flush()
        saved = os.dup(1)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except (OSError, ValueError, AttributeError):  # no standard output (a windowed app)
        saved = None
    try:
        yield
    finally:
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)
        root.removeFilter(drop)


def corpus_gamma(corpus: Any, seed: int = 0) -> tuple[float | None, str]:
    """γ of the corpus, or ``None`` and a sentence saying why not."""
    if not gamma_available():
        return None, HOW_TO_ENABLE
    units = continuum_units(corpus)
    if not units:
        return None, "γ not computed: no spans in the documents every annotator has."
    value = gamma_of_units(units, seed)
    return (value if math.isfinite(value) else None), f"γ by pygamma-agreement, seed {seed}."
