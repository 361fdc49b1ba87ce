"""Every figure of a spans study from a :class:`~.corpus.SpanCorpus`, vectorised over the corpus.

* span F1 (exact and overlap) per annotator pair, label and document, from counts;
* groups of overlapping spans (any annotator, any label) and what kind of disagreement each is;
* label confusion of overlapping spans; boundary and label disagreements counted apart;
* character- and token-level Cohen's κ, Fleiss' κ and Krippendorff's α ("no label" a category);
* Krippendorff's unitizing α per document, per label, per pair and for the corpus.

Intervals: percentile bootstrap over documents (the documents are resampled with replacement and
every count summed again), the same resamples for every figure; αU's resamples come exactly from
its sums per document (:func:`~iaa_desktop.core.metrics.unitizing.pooled_disagreements`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.kinds.spans.corpus import SpanCorpus
from iaa_desktop.core.metrics import spans as S
from iaa_desktop.core.metrics.unitizing import (
    alpha_from_disagreements,
    grouped_disagreements,
    pooled_alpha,
    pooled_disagreements,
)

#: kinds of a group of overlapping spans, most severe first
KINDS = ("only some", "boundary and label", "label", "boundary", "agree")


def pairs_of(corpus: SpanCorpus) -> list[tuple[int, int]]:
    return list(combinations(range(len(corpus.annotators)), 2))


def span_edges(corpus: SpanCorpus) -> tuple[NDArray[Any], NDArray[Any]]:
    """Every pair (i, j), i ≠ j, of spans of one document that share a character (any label)."""
    gs, ge = corpus.frag_global()
    i, j = S.overlap_edges(gs, ge, gs, ge)
    i, j = corpus.frag_span[i], corpus.frag_span[j]
    keep = i != j
    code = np.unique(i[keep] * max(corpus.n_spans, 1) + j[keep])
    return code // max(corpus.n_spans, 1), code % max(corpus.n_spans, 1)


def point_edges(corpus: SpanCorpus) -> tuple[NDArray[Any], NDArray[Any]]:
    """Every pair (i, j), i ≠ j, of units of one recording where one is a point (a unit of
    length zero) lying in the other (``start ≤ t < end``) or at the same time as it.

    A point shares no stretch of time with anything, so :func:`span_edges` links it to
    nothing; for grouping (the disagreements and the units to adjudicate) a point counts as
    the millisecond ``[t, t + 1)``. The F1 figures keep their own rules (overlap F1 asks for a
    positive-length overlap)."""
    gs, ge = corpus.frag_global()
    ge1 = np.where(ge == gs, ge + 1, ge)
    pts = np.flatnonzero(ge == gs)
    if not len(pts):
        z = np.zeros(0, dtype=np.int64)
        return z, z
    a, b = S.overlap_edges(gs[pts], ge1[pts], gs, ge1)
    i, j = corpus.frag_span[pts[a]], corpus.frag_span[b]
    keep = (i != j) & (corpus.doc[i] == corpus.doc[j])
    i, j = i[keep], j[keep]
    return np.concatenate([i, j]), np.concatenate([j, i])


@dataclass
class F1Counts:
    """tp_exact / tp_overlap (pairs × documents × labels); n (annotators × documents × labels)."""

    tp_exact: NDArray[Any]
    tp_overlap: NDArray[Any]
    n: NDArray[Any]

    def totals(self, pair: tuple[int, int], p: int, has: NDArray[Any]) -> tuple[NDArray[Any], ...]:
        x, y = pair
        both = (has[x] & has[y])[:, None]
        return self.tp_exact[p] * both, self.tp_overlap[p] * both, (self.n[x] + self.n[y]) * both


def f1_counts(corpus: SpanCorpus, edges: tuple[NDArray[Any], NDArray[Any]]) -> F1Counts:
    A, D, Q = len(corpus.annotators), len(corpus.names), len(corpus.labels)
    pairs = pairs_of(corpus)
    n = np.zeros((A, D, Q))
    np.add.at(n, (corpus.ann, corpus.doc, corpus.label), 1.0)
    tp_e = np.zeros((len(pairs), D, Q))
    tp_o = np.zeros((len(pairs), D, Q))
    i, j = edges
    same_label = corpus.label[i] == corpus.label[j]
    for p, (x, y) in enumerate(pairs):
        ix = np.flatnonzero(corpus.ann == x)
        iy = np.flatnonzero(corpus.ann == y)
        common = np.intersect1d(corpus.key[ix], corpus.key[iy])
        hit = ix[np.isin(corpus.key[ix], common)]
        np.add.at(tp_e[p], (corpus.doc[hit], corpus.label[hit]), 1.0)
        sel = same_label & (corpus.ann[i] == x) & (corpus.ann[j] == y)
        pos_x = np.full(corpus.n_spans, -1, dtype=np.int64)
        pos_x[ix] = np.arange(len(ix))
        pos_y = np.full(corpus.n_spans, -1, dtype=np.int64)
        pos_y[iy] = np.arange(len(iy))
        ma, _mb = S.max_overlap_matching(len(ix), len(iy), pos_x[i[sel]], pos_y[j[sel]])
        hit = ix[ma]
        np.add.at(tp_o[p], (corpus.doc[hit], corpus.label[hit]), 1.0)
    return F1Counts(tp_e, tp_o, n)


def doc_draws(n_docs: int, n_resamples: int, seed: int) -> NDArray[Any]:
    """Bootstrap weights (resamples × documents): how often each document is drawn."""
    if n_resamples <= 0 or n_docs < 2:
        return np.zeros((0, n_docs))
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_docs, np.full(n_docs, 1.0 / n_docs), size=n_resamples).astype(float)


# ------------------------------------------------------------------------------------ groups


@dataclass
class Groups:
    """Groups of overlapping spans: per span its group; per group document, kind and score."""

    of_span: NDArray[Any]
    doc: NDArray[Any]
    kind: NDArray[Any]  # index into KINDS
    score: NDArray[Any]  # 1 − share of the annotators who agree with the most common version
    start: NDArray[Any]
    end: NDArray[Any]
    labels: NDArray[Any]  # bit set of the labels in the group (labels < 63) for filtering
    annotators: NDArray[Any]  # bit set of the annotators with a span in the group


def _row_keys(cols: list[NDArray[Any]]) -> NDArray[Any] | None:
    """One int64 per row of non-negative-offset columns (mixed radix), or None when the radix
    product would not fit: sorting one key is many times faster than ``np.unique(axis=0)``."""
    key = np.zeros(len(cols[0]), dtype=np.int64)
    span = 1
    for c in cols:
        lo, hi = (int(c.min()), int(c.max())) if len(c) else (0, 0)
        base = hi - lo + 1
        if span * base >= 2**62:
            return None
        key = key * base + (c.astype(np.int64) - lo)
        span *= base
    return key


def unique_rows(cols: list[NDArray[Any]]) -> tuple[NDArray[Any], NDArray[Any]]:
    """The distinct rows of the columns (stacked) and each row's index among them, as
    ``np.unique(axis=0, return_inverse=True)`` gives them (rows in lexicographic order)."""
    stacked = np.stack(cols, axis=1)
    if not len(stacked):
        return stacked, np.zeros(0, dtype=np.int64)
    key = _row_keys(cols)
    if key is None:
        rows, inverse = np.unique(stacked, axis=0, return_inverse=True)
        return rows, inverse.ravel()
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    return stacked[first], inverse.ravel()


def _distinct(group: NDArray[Any], *cols: NDArray[Any], n: int) -> NDArray[Any]:
    """Per group, the number of distinct tuples (cols) among its rows."""
    uniq, _ = unique_rows([group, *cols])
    return np.bincount(uniq[:, 0], minlength=n) if len(uniq) else np.zeros(n, dtype=np.int64)


def span_groups(corpus: SpanCorpus, edges: tuple[NDArray[Any], NDArray[Any]]) -> Groups:
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    N = corpus.n_spans
    i, j = edges
    graph = csr_matrix((np.ones(len(i), dtype=np.int8), (i, j)), shape=(N, N))
    n, of_span = connected_components(graph, directed=False)
    g = of_span.astype(np.int64)
    doc = np.zeros(n, dtype=np.int64)
    doc[g] = corpus.doc
    n_exp = corpus.has[:, doc].sum(axis=0)
    present = _distinct(g, corpus.ann, n=n)
    n_spans = np.bincount(g, minlength=n)
    n_keys = _distinct(g, corpus.key, n=n)
    n_where = _distinct(g, corpus.where, n=n)
    n_labels = _distinct(g, corpus.label, n=n)
    ann_where = _distinct(g, corpus.ann, corpus.where, n=n)
    ann_labels = _distinct(g, corpus.ann, corpus.label, n=n)
    # a version: the set of an annotator's spans in the group, hashed (order-free sum)
    rng = np.random.default_rng(12345)
    rnd = rng.integers(1, 2**62, size=max(int(corpus.key.max(initial=-1)) + 1, 1), dtype=np.int64)
    A = len(corpus.annotators)
    ver = np.zeros((n, A), dtype=np.int64)
    with np.errstate(over="ignore"):
        np.add.at(ver, (g, corpus.ann), rnd[corpus.key])
    ver_ok = corpus.has[:, doc].T
    best = np.zeros(n)
    for x in range(A):
        same = ((ver == ver[:, [x]]) & ver_ok).sum(axis=1)
        best = np.maximum(best, np.where(ver_ok[:, x], same, 0))
    score = 1.0 - best / np.maximum(n_exp, 1)
    kind = np.full(n, KINDS.index("boundary and label"))
    agree = (present == n_exp) & (n_spans == n_keys * n_exp)
    same_where = ann_where == n_where * n_exp
    same_labels = ann_labels == n_labels * n_exp
    kind[same_labels] = KINDS.index("boundary")
    kind[same_where & ~same_labels] = KINDS.index("label")
    kind[present < n_exp] = KINDS.index("only some")
    kind[agree] = KINDS.index("agree")
    off = corpus.offsets
    start = np.full(n, np.iinfo(np.int64).max)
    end = np.zeros(n, dtype=np.int64)
    fs = corpus.frag_span
    np.minimum.at(start, g[fs], corpus.frag_start)
    np.maximum.at(end, g[fs], corpus.frag_end)
    del off
    bits_l = np.zeros(n, dtype=np.int64)
    np.bitwise_or.at(bits_l, g, np.left_shift(1, np.minimum(corpus.label, 62)))
    bits_a = np.zeros(n, dtype=np.int64)
    np.bitwise_or.at(bits_a, g, np.left_shift(1, np.minimum(corpus.ann, 62)))
    return Groups(g, doc, kind, score, start, end, bits_l, bits_a)


def pair_disagreements(
    corpus: SpanCorpus, edges: tuple[NDArray[Any], NDArray[Any]]
) -> tuple[NDArray[Any], list[dict[str, Any]]]:
    """Label confusion (labels × labels, first annotator of each pair in rows) and, per pair,
    the spans of the first annotator by kind of match with the second's: exact, boundary only
    (same label, other fragments), label only (same fragments), boundary and label, alone."""
    Q = len(corpus.labels)
    conf = np.zeros((Q, Q), dtype=np.int64)
    i, j = edges
    rows: list[dict[str, Any]] = []
    for x, y in pairs_of(corpus):
        sel = (corpus.ann[i] == x) & (corpus.ann[j] == y)
        a, b = i[sel], j[sel]
        same_l = corpus.label[a] == corpus.label[b]
        same_w = corpus.where[a] == corpus.where[b]
        np.add.at(conf, (corpus.label[a[~same_l]], corpus.label[b[~same_l]]), 1)
        ix = np.flatnonzero(
            (corpus.ann == x) & corpus.has[y, corpus.doc]
        )  # spans of x where y has the document
        exact = np.isin(ix, a[same_l & same_w])
        lab = np.isin(ix, a[same_w & ~same_l]) & ~exact
        bnd = np.isin(ix, a[same_l & ~same_w]) & ~exact & ~lab
        any_edge = np.isin(ix, a)
        both = any_edge & ~exact & ~lab & ~bnd
        rows.append(
            {
                "a": corpus.annotators[x],
                "b": corpus.annotators[y],
                "exact": int(exact.sum()),
                "boundary only": int(bnd.sum()),
                "label only": int(lab.sum()),
                "boundary and label": int(both.sum()),
                "alone": int((~any_edge).sum()),
            }
        )
    return conf, rows


# ----------------------------------------------------------------------- character and token units


@dataclass
class UnitTable:
    """Distinct rows of unit values (U × annotators), and their weight per document (D × U)."""

    rows: NDArray[Any]
    per_doc: NDArray[Any]
    n_categories: int
    left_out: int  # units covered by two labels of one annotator


def unit_code_matrix(
    corpus: SpanCorpus, level: str
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """Each unit's label code per annotator (units × annotators; the number of labels: none;
    −1: the annotator lacks the document; :data:`~iaa_desktop.core.metrics.spans.CONFLICT`: two
    labels of one annotator), each unit's weight and document. Units are characters (as runs
    between span boundaries, weighted by length) or tokens."""
    A, Q = len(corpus.annotators), len(corpus.labels)
    gs, ge = corpus.frag_global()
    off = corpus.offsets
    if level == "token":
        us, ue, udoc = corpus.tokens()
        weight = np.ones(len(us))
    else:
        total = int(corpus.lengths.sum())
        cuts = np.unique(np.concatenate([gs, ge, off, [total]]))
        us, ue = cuts[:-1], cuts[1:]
        udoc = np.searchsorted(off, us, side="right") - 1
        weight = (ue - us).astype(float)
    codes = np.full((len(us), A), -1, dtype=np.int64)
    frag_ann = corpus.ann[corpus.frag_span]
    frag_label = corpus.label[corpus.frag_span]
    for x in range(A):
        sel = frag_ann == x
        c = S.unit_codes(us, ue, gs[sel], ge[sel], frag_label[sel], Q)
        codes[:, x] = np.where(corpus.has[x, udoc] if len(udoc) else [], c, -1)
    return codes, weight, udoc


def unit_table(corpus: SpanCorpus, level: str) -> UnitTable:
    """Characters (as runs between span boundaries, weighted by length) or tokens."""
    D, Q = len(corpus.names), len(corpus.labels)
    codes, weight, udoc = unit_code_matrix(corpus, level)
    conflict = (codes == S.CONFLICT).any(axis=1)
    codes, weight, udoc = codes[~conflict], weight[~conflict], udoc[~conflict]
    rows, inverse = unique_rows(list(codes.T)) if codes.shape[1] else (codes, np.zeros(0, int))
    per_doc = np.zeros((D, len(rows)))
    np.add.at(per_doc, (udoc, inverse.ravel()), weight)
    return UnitTable(rows, per_doc, Q + 1, int(conflict.sum()))


def unit_coefficients(ut: UnitTable, weights: NDArray[Any] | None) -> dict[str, NDArray[Any]]:
    """Fleiss' κ, Krippendorff's α and every pair's Cohen's κ for each weighting of the distinct rows (rows of ``weights``; None: each document)."""
    w = ut.per_doc if weights is None else weights
    out = {
        "fleiss_kappa": S.fleiss_kappa_batch(ut.rows, ut.n_categories, w),
        "krippendorff_alpha": S.alpha_nominal_batch(ut.rows, ut.n_categories, w),
    }
    for x, y in combinations(range(ut.rows.shape[1]), 2):
        out[f"cohen_kappa:{x}:{y}"] = S.cohen_kappa_batch(ut.rows[:, [x, y]], ut.n_categories, w)
    return out


# --------------------------------------------------------------------------------- unitizing α


def unitizing_units(corpus: SpanCorpus, docs: NDArray[Any]) -> tuple[NDArray[Any], ...]:
    """Fragments of the given documents as units: begin, end (document-relative), annotator,
    document, label; one annotator's overlapping units of one label merged (DKPro's precondition)."""
    # a point (a unit of length zero, Praat's point tiers) has no extent on the continuum
    keep = np.isin(corpus.doc[corpus.frag_span], docs) & (corpus.frag_end > corpus.frag_start)
    fs = corpus.frag_span[keep]
    b, e = corpus.frag_start[keep], corpus.frag_end[keep]
    a, d, lab = corpus.ann[fs], corpus.doc[fs], corpus.label[fs]
    stride = int(corpus.lengths.max(initial=0)) + 1
    key = (a * len(corpus.names) + d) * max(len(corpus.labels), 1) + lab
    order = np.lexsort((b, key))
    b, e, a, d, lab, key = b[order], e[order], a[order], d[order], lab[order], key[order]
    pos_b, pos_e = key * stride + b, key * stride + e
    run_end = np.maximum.accumulate(pos_e) if len(pos_e) else pos_e
    new = np.ones(len(b), dtype=bool)
    new[1:] = pos_b[1:] >= run_end[:-1]
    start_ix = np.flatnonzero(new)
    ends = np.maximum.reduceat(pos_e, start_ix) - key[start_ix] * stride if len(b) else e
    return b[start_ix], ends, a[start_ix], d[start_ix], lab[start_ix]


def unitizing_figures(
    corpus: SpanCorpus,
    raters: tuple[int, ...] | None = None,
    draws: NDArray[Any] | None = None,
    units: tuple[NDArray[Any], ...] | None = None,
) -> dict[str, Any]:
    """αU per document (over its labels), per label and overall for the corpus (the documents
    every annotator has, concatenated in input order into one continuum, as DKPro Statistics
    computes αU of one continuum), for the given annotators (default: all).

    With ``draws`` (resamples × documents, :func:`doc_draws`), the intervals of the corpus and
    per-label figures: each resample is computed exactly from the per-document sums
    (:func:`~iaa_desktop.core.metrics.unitizing.pooled_disagreements`, where a gap ends at its
    document's end, so that a resample needs no order of its documents); the percentile interval
    of these resamples is moved by the difference between the concatenated figure and the pooled
    one on the data itself (they differ only by the gaps that run across document boundaries in
    the concatenation). ``units``: :func:`unitizing_units` of every document, when the caller has
    them already."""
    A = len(corpus.annotators)
    raters = tuple(range(A)) if raters is None else raters
    Q, D = max(len(corpus.labels), 1), len(corpus.names)
    full = np.flatnonzero(corpus.has[list(raters)].all(axis=0))
    b, e, a, d, lab = units if units is not None else unitizing_units(corpus, full)
    sel = np.isin(a, raters) & np.isin(d, full)
    b, e, a, d, lab = b[sel], e[sel], a[sel], d[sel], lab[sel]
    rix = np.searchsorted(np.array(raters), a)
    R = len(raters)
    # per (document, label)
    d_o, d_e = grouped_disagreements(b, e, rix, d * Q + lab, np.repeat(corpus.lengths, Q), R)
    present = np.zeros(D * Q, dtype=bool)
    present[d * Q + lab] = True
    per_doc = np.full(D, np.nan)
    do2, de2, pr2 = d_o.reshape(D, Q), d_e.reshape(D, Q), present.reshape(D, Q)
    for k in full:
        if pr2[k].any():
            per_doc[k] = alpha_from_disagreements(do2[k][pr2[k]].mean(), de2[k][pr2[k]].mean())
    # corpus: the documents pooled; row 0 the corpus itself, the others its resamples
    draws = np.zeros((0, D)) if draws is None else draws
    weights = np.vstack([np.ones((1, len(full))), draws[:, full]])
    seg = np.searchsorted(full, d)
    c_o, c_e, n = pooled_disagreements(b, e, rix, seg, lab, corpus.lengths[full], Q, R, weights)
    overall, per_label = pooled_alpha(c_o, c_e, n)
    alpha, label_alpha = _concatenated_alpha(corpus, full, (b, e, rix, d, lab), Q, R)
    boot = len(weights) > 1

    def interval(
        resampled: NDArray[Any], pooled: float, concatenated: float
    ) -> tuple[float, float]:
        if not boot or not np.isfinite(concatenated):
            return (np.nan, np.nan)
        lo, hi = S.percentile_interval(resampled)
        shift = concatenated - pooled
        return (min(lo + shift, 1.0), min(hi + shift, 1.0))

    return {
        "alpha": alpha,
        "per_label": label_alpha,
        "per_document": per_doc,
        "documents": full,
        "alpha_pooled": float(overall[0]),
        "alpha_ci": interval(overall[1:], overall[0], alpha),
        "per_label_pooled": per_label[0],
        "per_label_ci": [
            interval(per_label[1:, k], per_label[0, k], label_alpha[k]) for k in range(Q)
        ],
    }


def _concatenated_alpha(
    corpus: SpanCorpus, full: NDArray[Any], units: tuple[NDArray[Any], ...], Q: int, R: int
) -> tuple[float, NDArray[Any]]:
    """αU overall and per label of the documents ``full`` laid end to end in input order (files, or records of an export)."""
    b, e, rix, d, lab = units
    pos = np.zeros(len(corpus.names), dtype=np.int64)
    pos[full] = np.concatenate([[0], np.cumsum(corpus.lengths[full])[:-1]]).astype(np.int64)
    total = int(corpus.lengths[full].sum())
    c_o, c_e = grouped_disagreements(b + pos[d], e + pos[d], rix, lab, np.full(Q, total), R)
    present = np.zeros(Q, dtype=bool)
    present[lab] = True
    with np.errstate(invalid="ignore", divide="ignore"):
        per_label = np.where(present, np.where(c_o == c_e, 0.0, 1.0 - c_o / c_e), np.nan)
    if not present.any():
        return np.nan, per_label
    overall = alpha_from_disagreements(
        float(c_o[present].mean()), float(c_e[present].mean()), bool(len(b))
    )
    return float(overall), per_label
