"""What the passage-pair kinds (graded use pairs, candidate text-reuse pairs) share: one pair of
passages as the pair view and the report show it (tokens, lexical overlap, the local alignment of
Smith & Waterman 1981), and their results' JSON-safe values."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.align.tokens import (
    Alignment,
    Tokens,
    smith_waterman,
    tokenize,
    weighted_jaccard,
)


@dataclass(frozen=True)
class PairDetail:
    """Everything the pair view needs for one pair of passages."""

    title: str
    text_a: str
    text_b: str
    tokens_a: Tokens
    tokens_b: Tokens
    shared: frozenset[str]
    alignment: Alignment
    overlap: float
    span_a: tuple[int, int] | None = None
    span_b: tuple[int, int] | None = None
    span_warnings: tuple[str, ...] = ()
    #: (annotator, value as text, comment)
    judgments: tuple[tuple[str, str, str], ...] = ()
    summary: tuple[tuple[str, str], ...] = ()
    label_a: str = "A"
    label_b: str = "B"


#: token pairs (passage A length × passage B length) aligned at most: 32 MB per matrix
MAX_ALIGNED_CELLS = 4_000_000


def make_detail(
    title: str,
    text_a: str,
    text_b: str,
    lemmas_a: str | None = None,
    lemmas_b: str | None = None,
    **kw: Any,
) -> PairDetail:
    """Tokenise, overlap and align two passages (the alignment only up to
    :data:`MAX_ALIGNED_CELLS` token pairs: its matrices grow with the product of the lengths)."""
    ta, tb = tokenize(text_a, lemmas_a), tokenize(text_b, lemmas_b)
    n_cells = len(ta.keys) * len(tb.keys)
    if n_cells <= MAX_ALIGNED_CELLS:
        al = smith_waterman(ta.keys, tb.keys)
    else:
        al = Alignment((), 0.0)
        note = (
            "alignment",
            f"not computed: {len(ta.keys):,} × {len(tb.keys):,} tokens, more than "
            f"{MAX_ALIGNED_CELLS:,} token pairs",
        )
        kw["summary"] = (*kw.get("summary", ()), note)
    return PairDetail(
        title,
        text_a,
        text_b,
        ta,
        tb,
        frozenset(ta.keys) & frozenset(tb.keys),
        al,
        weighted_jaccard(ta.keys, tb.keys),
        **kw,
    )


class PassageTokens:
    """The tokens of each distinct passage, tokenised once (a passage recurs in many pairs: a
    DURel use is paired with several others, a candidate source with several targets)."""

    def __init__(self) -> None:
        self._counts: dict[tuple[str, str | None], Counter[str]] = {}

    def counts(self, text: str, lemmas: str | None = None) -> Counter[str]:
        """Count of each token key of ``text`` (keys as :func:`tokenize` makes them)."""
        key = (text, lemmas)
        c = self._counts.get(key)
        if c is None:
            c = self._counts[key] = Counter(tokenize(text, lemmas).keys)
        return c


def overlap_of_counts(ca: Counter[str], cb: Counter[str]) -> float:
    """Weighted Jaccard overlap of two passages from their key counts: the same number as
    :func:`~iaa_desktop.core.align.tokens.weighted_jaccard` on their keys (integer sums, one
    division)."""
    if len(cb) < len(ca):
        ca, cb = cb, ca
    num = sum(min(n, cb[w]) for w, n in ca.items() if w in cb)
    den = ca.total() + cb.total() - num
    return num / den if den else 0.0


def pair_overlaps(
    texts_a: Iterable[str],
    texts_b: Iterable[str],
    lemmas_a: Iterable[str | None] | None = None,
    lemmas_b: Iterable[str | None] | None = None,
) -> NDArray[np.float64]:
    """Weighted Jaccard overlap of every pair of passages ``(texts_a[k], texts_b[k])``, each
    distinct passage tokenised once; the alignment is left to :func:`make_detail`, when a pair
    is shown."""
    cache = PassageTokens()
    ta, tb = list(texts_a), list(texts_b)
    la = list(lemmas_a) if lemmas_a is not None else [None] * len(ta)
    lb = list(lemmas_b) if lemmas_b is not None else [None] * len(tb)
    out = np.empty(len(ta))
    for k, (a, b, xa, xb) in enumerate(zip(ta, tb, la, lb)):
        out[k] = overlap_of_counts(cache.counts(a, xa), cache.counts(b, xb))
    return out


def json_safe(obj: Any) -> Any:
    """JSON-safe copy: NaN → None, numpy scalars → Python."""
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [json_safe(v) for v in obj]
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


#: with more rows than this a chart repeats its value axis at the top (a long chart is read
#: from the top of a scrolling pane)
AXIS_TOP_ROWS = 12


def value_axis(ax: Any, n_rows: int) -> None:
    """The value axis of a dot chart: up to 1.0 and a little beyond (a dot at 1.0 is whole),
    repeated at the top of a long chart."""
    lo, hi = ax.get_xlim()
    if hi < 1.05:
        ax.set_xlim(lo, 1.05)
    if n_rows > AXIS_TOP_ROWS:
        ax.tick_params(axis="x", top=True, labeltop=True)
