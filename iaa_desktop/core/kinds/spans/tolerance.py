"""Figures of units in time (ELAN, Praat): F1 within a boundary tolerance, the time unit.

Tolerance F1: a unit of one annotator and a unit of the other match when they are in the same
recording, have the same label and both their starts and their ends differ by at most the
tolerance; the matching is one to one and maximum (Hopcroft–Karp, as for the overlap F1), and
F1 = 2·matched / (n_A + n_B), per pair, label and recording, micro and macro, with the same
bootstrap over recordings as every other F1 (:func:`~.compare.f1_tables`). With a tolerance of 0
it is the exact-match F1.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.spans import measures as M
from iaa_desktop.core.kinds.spans.corpus import SpanCorpus
from iaa_desktop.core.metrics import spans as S


def unit_bounds(corpus: SpanCorpus) -> tuple[NDArray[Any], NDArray[Any]]:
    """Start and end of every span (first fragment's start, last fragment's end)."""
    first = np.searchsorted(corpus.frag_span, np.arange(corpus.n_spans), side="left")
    last = np.searchsorted(corpus.frag_span, np.arange(corpus.n_spans), side="right") - 1
    return corpus.frag_start[first], corpus.frag_end[last]


def tolerance_edges(
    corpus: SpanCorpus, x: int, y: int, tolerance: int
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any], NDArray[Any]]:
    """Spans of ``x`` and of ``y`` (indices into the corpus) and the candidate pairs between
    them (positions into those two lists): same document and label, |Δstart| and |Δend| ≤
    ``tolerance``."""
    start, end = unit_bounds(corpus)
    ix = np.flatnonzero(corpus.ann == x)
    iy = np.flatnonzero(corpus.ann == y)
    Q = max(len(corpus.labels), 1)
    stride = int(corpus.lengths.max(initial=0)) + 2 * tolerance + 2
    group_x = corpus.doc[ix] * Q + corpus.label[ix]
    group_y = corpus.doc[iy] * Q + corpus.label[iy]
    kx = group_x * stride + start[ix] + tolerance
    ky = group_y * stride + start[iy] + tolerance
    order = np.argsort(ky, kind="stable")
    sorted_y = ky[order]
    lo = np.searchsorted(sorted_y, kx - tolerance, side="left")
    hi = np.searchsorted(sorted_y, kx + tolerance, side="right")
    counts = hi - lo
    a = np.repeat(np.arange(len(ix)), counts)
    # positions lo[a] .. hi[a]-1 of the sorted y keys, enumerated without a Python loop
    step = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    b = order[np.repeat(lo, counts) + step]
    keep = np.abs(end[ix[a]] - end[iy[b]]) <= tolerance
    return ix, iy, a[keep], b[keep]


def tolerance_counts(corpus: SpanCorpus, tolerance: int) -> M.F1Counts:
    """Matched units (pairs × documents × labels) within the tolerance, and units per annotator
    (as :func:`~.measures.f1_counts` gives them), in an :class:`~.measures.F1Counts` whose exact
    and overlap counts are both the tolerance matches."""
    if tolerance < 0:
        raise OptionError(f"Boundary tolerance: {tolerance} ms is negative.")
    A, D, Q = len(corpus.annotators), len(corpus.names), len(corpus.labels)
    n = np.zeros((A, D, Q))
    np.add.at(n, (corpus.ann, corpus.doc, corpus.label), 1.0)
    pairs = M.pairs_of(corpus)
    tp = np.zeros((len(pairs), D, Q))
    for p, (x, y) in enumerate(pairs):
        ix, iy, a, b = tolerance_edges(corpus, x, y, tolerance)
        ma, _mb = S.max_overlap_matching(len(ix), len(iy), a, b)
        hit = ix[ma]
        np.add.at(tp[p], (corpus.doc[hit], corpus.label[hit]), 1.0)
    return M.F1Counts(tp, tp, n)


def add_time_figures(
    result: Any,
    corpus: SpanCorpus,
    tolerance: int,
    draws: NDArray[Any],
    f1_tables: Callable[[SpanCorpus, M.F1Counts, NDArray[Any]], dict[str, Any]],
) -> None:
    """The tolerance F1 into a result of units in time: overall (micro and macro, with their
    intervals), per pair, per label and per recording, beside the exact and overlap F1;
    ``f1_tables`` makes the F1 tables of counts (:func:`~.compare.f1_tables`)."""
    f1 = f1_tables(corpus, tolerance_counts(corpus, tolerance), draws)
    overall = {}
    for key, value in result.overall.items():
        overall[key] = value
        if key == "overlap_f1_macro":
            overall["tolerance_f1"] = f1["overall"]["exact_f1"]
            overall["tolerance_f1_macro"] = f1["overall"]["exact_f1_macro"]
    result.overall = overall
    frames = result.frames
    pairs = frames.get("pairs")
    if pairs is not None and len(pairs):
        after = _last_of(pairs, "overlap_f1_macro")
        for col in ("", "_ci_low", "_ci_high", "_macro", "_macro_ci_low", "_macro_ci_high"):
            values = [r[f"exact_f1{col}"] for r in f1["pairs"]]
            _insert_after(pairs, after, f"tolerance_f1{col}", values)
            after = f"tolerance_f1{col}"
    labels = frames.get("labels")
    if labels is not None and len(labels):
        order = [corpus.labels.index(lab) for lab in labels["label"]]
        vals = f1["label_exact"]
        cis = f1["label_exact_ci"]
        _insert_after(
            labels,
            _last_of(labels, "overlap_f1"),
            "tolerance_f1",
            [float(vals[k]) if vals is not None else math.nan for k in order],
        )
        _insert_after(labels, "tolerance_f1", "tolerance_f1_ci_low", [cis[k][0] for k in order])
        _insert_after(
            labels, "tolerance_f1_ci_low", "tolerance_f1_ci_high", [cis[k][1] for k in order]
        )
    docs = frames.get("documents")
    if docs is not None and len(docs):
        vals = f1["doc_exact"]
        _insert_after(
            docs,
            "overlap_f1",
            "tolerance_f1",
            [float(v) for v in vals] if vals is not None else [math.nan] * len(docs),
        )


def _last_of(df: Any, fig: str) -> str:
    """The last column of ``fig`` (its SD or interval after it when there)."""
    for suffix in ("_sd", "_ci_high", ""):
        if f"{fig}{suffix}" in df.columns:
            return f"{fig}{suffix}"
    return str(df.columns[-1])


def _insert_after(df: Any, after: str, name: str, values: list[Any]) -> None:
    at = list(df.columns).index(after) + 1 if after in df.columns else len(df.columns)
    df.insert(at, name, values)


def methods_paragraph(result: Any) -> str:
    """The methods paragraph of a study of units in time (before the spans kind's own)."""
    tol = result.chosen.tolerance
    return (
        "The annotations are time-aligned tiers (ELAN annotation documents; Praat TextGrids, "
        "long or short text format): every non-empty annotation or interval is a unit labelled "
        "with its text, from its start to its end in whole milliseconds (Praat's seconds × 1,000, "
        "rounded); a point of a point tier is a unit of length zero, which only the exact and the "
        "tolerance F1 compare. ELAN annotations of symbolic associations take their parent's "
        "time, those of symbolic subdivisions divide it evenly, and unaligned time slots are "
        "divided evenly between the aligned ones around them, as ELAN displays them; an "
        "annotation whose time cannot be found is reported and not compared. Each recording "
        "(file) is a document whose continuum runs from 0 to the largest time value of the ELAN "
        "file, or from the TextGrid's xmin to its xmax; the measures below treat milliseconds as "
        "they treat characters. The tolerance F1 matches units of the same label whose starts "
        f"and ends both differ by at most {tol:,} ms, one to one (maximum matching)."
    )
