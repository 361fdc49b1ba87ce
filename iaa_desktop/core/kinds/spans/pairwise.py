r"""Span F1 per annotator pair and label, as bratiaa reports it, and the mean and SD over pairs.

For annotators :math:`i, j` and a label, on the documents both annotated:

* **exact F1** :math:`2|A_i \cap A_j| / (|A_i| + |A_j|)`, a span being its label and fragments
  (bratiaa's instance-based agreement; Hripcsak & Rothschild 2005);
* **overlap F1** the same with spans of one label sharing a character matched one to one;
* **token F1** bratiaa's token-based agreement (Kolditz et al. 2019, ``bratiaa.evaluation.
  exact_match_token_evaluation``): every span becomes one (label, token) per token it overlaps,
  tokens being runs of non-space characters (bratiaa's ``\S+``), and
  :math:`F1 = 2\,|T_i \cap T_j| / (|T_i| + |T_j|)` over these multisets, so a long span weighs
  as many tokens as it covers and boundary errors between adjacent spans of one label vanish;
* **lenient F1** overlap without the one-to-one matching: recall is the share of :math:`i`'s
  spans that share a character with a span of :math:`j` of the same label, precision the share of
  :math:`j`'s, :math:`F1 = 2PR / (P + R)` (the "partial" match of MUC-style scoring; Chinchor &
  Sundheim 1993).

Every pairwise figure is also summarised as bratiaa does: the arithmetic mean and the standard
deviation (population, ``numpy.std``) over the annotator pairs, of each pair's figure from its
counts summed over documents (and labels, for the overall figure).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from iaa_desktop.core.kinds.spans import measures as M
from iaa_desktop.core.kinds.spans.corpus import SpanCorpus
from iaa_desktop.core.metrics import spans as S

#: bratiaa's token: a run of non-space characters (``bratiaa.utils.TOKEN``)
BRATIAA_TOKEN = re.compile(r"\S+")

FIGURES = ("exact_f1", "overlap_f1", "token_f1", "lenient_f1")


@dataclass
class PairLabelCounts:
    """Per pair × label: the numerators and denominators of the four F1 figures."""

    n_a: np.ndarray  # spans of the pair's first annotator (documents both have)
    n_b: np.ndarray
    exact_tp: np.ndarray
    overlap_tp: np.ndarray
    token_tp: np.ndarray
    token_a: np.ndarray  # (label, token) pieces of the first annotator
    token_b: np.ndarray
    lenient_a: np.ndarray  # first annotator's spans that overlap one of the second's
    lenient_b: np.ndarray

    def f1(self, figure: str, axis: Any = None) -> np.ndarray:
        """The figure per pair × label (``axis=None``) or per pair (``axis=1``: labels summed)."""

        def s(x: np.ndarray) -> np.ndarray:
            return x if axis is None else x.sum(axis=axis)

        if figure == "exact_f1":
            return S.f1_from_counts(s(self.exact_tp), s(self.n_a), s(self.n_b))
        if figure == "overlap_f1":
            return S.f1_from_counts(s(self.overlap_tp), s(self.n_a), s(self.n_b))
        if figure == "token_f1":
            return S.f1_from_counts(s(self.token_tp), s(self.token_a), s(self.token_b))
        return lenient_f1(s(self.lenient_a), s(self.lenient_b), s(self.n_a), s(self.n_b))


def lenient_f1(
    hit_a: np.ndarray, hit_b: np.ndarray, n_a: np.ndarray, n_b: np.ndarray
) -> np.ndarray:
    r"""Lenient overlap F1, elementwise: :math:`R = h_a / n_a`, :math:`P = h_b / n_b`,
    :math:`2PR / (P + R)`; 0 when one side has spans and the other none, NaN when neither has.

    >>> lenient_f1(np.array([2, 0, 0]), np.array([1, 0, 0]), np.array([2, 3, 0]),
    ...            np.array([2, 0, 0])).round(4).tolist()
    [0.6667, 0.0, nan]
    """
    n_a, n_b = np.asarray(n_a, float), np.asarray(n_b, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(n_a > 0, hit_a / np.where(n_a > 0, n_a, 1), 0.0)
        p = np.where(n_b > 0, hit_b / np.where(n_b > 0, n_b, 1), 0.0)
        f = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)
    return np.where((n_a + n_b) > 0, f, np.nan)


def _token_pieces(corpus: SpanCorpus) -> tuple[np.ndarray, np.ndarray]:
    """Per (label, token) piece: its span and its token id (bratiaa's overlapping tokens of
    every fragment: a token counts when it shares a character with the fragment)."""
    starts, ends = [], []
    for text, off in zip(corpus.texts, corpus.offsets, strict=True):
        if text:
            pos = [m.span() for m in BRATIAA_TOKEN.finditer(text)]
            arr = np.array(pos, dtype=np.int64).reshape(-1, 2) + off
            starts.append(arr[:, 0])
            ends.append(arr[:, 1])
    if not starts:
        z = np.zeros(0, dtype=np.int64)
        return z, z
    ts, te = np.concatenate(starts), np.concatenate(ends)
    gs, ge = corpus.frag_global()
    first = np.searchsorted(te, gs, side="right")  # first token ending after the start
    stop = np.searchsorted(ts, ge, side="left")  # tokens starting before the end
    count = np.maximum(stop - first, 0)
    span = np.repeat(corpus.frag_span, count)
    base = np.repeat(first - np.cumsum(count) + count, count)
    token = base + np.arange(int(count.sum()), dtype=np.int64)
    return span, token


def pair_label_counts(
    corpus: SpanCorpus, counts: M.F1Counts, edges: tuple[np.ndarray, np.ndarray]
) -> PairLabelCounts:
    """The counts of every figure per annotator pair and label (module docstring)."""
    pairs = M.pairs_of(corpus)
    P, Q = len(pairs), len(corpus.labels)
    out = {k: np.zeros((P, Q)) for k in PairLabelCounts.__dataclass_fields__}
    piece_span, piece_token = _token_pieces(corpus)
    n_tokens = int(piece_token.max()) + 1 if len(piece_token) else 1
    piece_key = corpus.label[piece_span] * n_tokens + piece_token
    i, j = edges
    same = corpus.label[i] == corpus.label[j]
    for p, (x, y) in enumerate(pairs):
        both = corpus.has[x] & corpus.has[y]
        e, o, tot = counts.totals((x, y), p, corpus.has)
        out["exact_tp"][p], out["overlap_tp"][p] = e.sum(axis=0), o.sum(axis=0)
        in_x = (corpus.ann == x) & both[corpus.doc]
        in_y = (corpus.ann == y) & both[corpus.doc]
        out["n_a"][p] = np.bincount(corpus.label[in_x], minlength=Q)
        out["n_b"][p] = np.bincount(corpus.label[in_y], minlength=Q)
        sel = same & in_x[i] & in_y[j]
        out["lenient_a"][p] = np.bincount(corpus.label[np.unique(i[sel])], minlength=Q)
        out["lenient_b"][p] = np.bincount(corpus.label[np.unique(j[sel])], minlength=Q)
        kx, cx = np.unique(piece_key[in_x[piece_span]], return_counts=True)
        ky, cy = np.unique(piece_key[in_y[piece_span]], return_counts=True)
        common, ax, ay = np.intersect1d(kx, ky, assume_unique=True, return_indices=True)
        out["token_tp"][p] = np.bincount(
            common // n_tokens, weights=np.minimum(cx[ax], cy[ay]), minlength=Q
        )
        out["token_a"][p] = np.bincount(kx // n_tokens, weights=cx, minlength=Q)
        out["token_b"][p] = np.bincount(ky // n_tokens, weights=cy, minlength=Q)
    return PairLabelCounts(**out)


def mean_sd(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and population standard deviation over pairs (axis 0), pairs without a figure
    (NaN: neither annotator has a span) left out, as bratiaa's ``_mean_sd`` over its pairs."""
    values = np.asarray(values, dtype=float)
    ok = np.isfinite(values)
    n = ok.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(ok, values, 0.0).sum(axis=0) / np.where(n > 0, n, 1)
        var = np.where(ok, (values - mean) ** 2, 0.0).sum(axis=0) / np.where(n > 0, n, 1)
    return np.where(n > 0, mean, np.nan), np.where(n > 0, np.sqrt(var), np.nan)


def per_pair_label_frame(corpus: SpanCorpus, c: PairLabelCounts) -> pd.DataFrame:
    """One row per annotator pair and label: the pair's spans and its four F1 figures."""
    rows = []
    figs = {f: c.f1(f) for f in FIGURES}
    for p, (x, y) in enumerate(M.pairs_of(corpus)):
        for k, lab in enumerate(corpus.labels):
            row: dict[str, Any] = {
                "a": corpus.annotators[x],
                "b": corpus.annotators[y],
                "label": lab,
                "n_a": int(c.n_a[p, k]),
                "n_b": int(c.n_b[p, k]),
            }
            row.update({f: float(figs[f][p, k]) for f in FIGURES})
            rows.append(row)
    cols = ["a", "b", "label", "n_a", "n_b", *FIGURES]
    return pd.DataFrame(rows, columns=cols)


def label_mean_sd(c: PairLabelCounts) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Figure → (mean, SD) over pairs, per label."""
    return {f: mean_sd(c.f1(f)) for f in FIGURES}


def pair_totals(c: PairLabelCounts) -> dict[str, np.ndarray]:
    """Figure → each pair's figure from its counts summed over labels."""
    return {f: c.f1(f, axis=1) for f in FIGURES}


__all__ = [
    "FIGURES",
    "PairLabelCounts",
    "label_mean_sd",
    "lenient_f1",
    "mean_sd",
    "pair_label_counts",
    "pair_totals",
    "per_pair_label_frame",
]
