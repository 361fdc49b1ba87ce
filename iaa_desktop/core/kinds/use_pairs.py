"""What the passage-pair kinds (graded use pairs, candidate text-reuse pairs) share: one pair of
passages as the pair view and the report show it (tokens, lexical overlap, the local alignment of
Smith & Waterman 1981), and their results' JSON-safe values."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

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
