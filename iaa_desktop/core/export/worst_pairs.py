"""Shared by the passage-pair kinds: the texts of the most disagreeing pairs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from iaa_desktop.core.export.html_blocks import esc, text_dir
from iaa_desktop.core.export.report import Section


def _boxed(text: str, a: int, b: int, shared: dict[int, int]) -> str:
    """``text[a:b]`` escaped, each shared token lying wholly inside it boxed."""
    out, at = [], a
    for s in sorted(k for k in shared if a <= k < b):
        e = shared[s]
        if e <= s or e > b or s < at:
            continue
        out.append(esc(text[at:s]))
        out.append(f'<span class="shared">{esc(text[s:e])}</span>')
        at = e
    out.append(esc(text[at:b]))
    return "".join(out)


def _use_html(
    label: str, text: str, span: tuple[int, int] | None, shared: dict[int, int] | None = None
) -> str:
    """One passage: the reused span highlighted, the words it shares with the other passage
    boxed (``shared``: start → end of each such token), as the window shows them.

    The span is one element and each boxed word one inside it (not an element per word and per
    space between): the PDF engine lays out a box per element."""
    d = text_dir(text)
    shared = shared or {}
    if span is not None and 0 <= span[0] < span[1] <= len(text):
        s0, s1 = span
        body = (
            _boxed(text, 0, s0, shared)
            + f'<span class="target">{_boxed(text, s0, s1, shared)}</span>'
            + _boxed(text, s1, len(text), shared)
        )
    else:
        body = _boxed(text, 0, len(text), shared)
    return f'<div class="use" dir="{d}"><b>{esc(label)}:</b> <bdi>{body}</bdi></div>'


def _shared_at(tokens: Any, shared: Any) -> dict[int, int]:
    """Start → end of the tokens whose key is among the words both passages share."""
    if tokens is None or not shared:
        return {}
    return {
        int(s): int(e) for s, e, k in zip(tokens.starts, tokens.ends, tokens.keys) if k in shared
    }


def pair_html(detail: Any) -> str:
    """One pair as a box: title, both texts (target span highlighted), judgments, summary."""
    judg = "; ".join(
        f"{esc(a)}: {esc(v)}" + (f" ({esc(c)})" if c else "") for a, v, c in detail.judgments
    )
    summ = "; ".join(f"{esc(k)} {esc(v)}" for k, v in detail.summary)
    warn = "".join(f'<div class="note">{esc(w)}</div>' for w in detail.span_warnings)
    return (
        f'<div class="pair"><div class="head" dir="{text_dir(detail.title)}">{esc(detail.title)}</div>'
        + _use_html(
            detail.label_a,
            detail.text_a,
            detail.span_a,
            _shared_at(getattr(detail, "tokens_a", None), getattr(detail, "shared", None)),
        )
        + _use_html(
            detail.label_b,
            detail.text_b,
            detail.span_b,
            _shared_at(getattr(detail, "tokens_b", None), getattr(detail, "shared", None)),
        )
        + f'<div class="note">Judgments — {judg}. {summ}; lexical overlap {detail.overlap:.3f}.</div>{warn}</div>'
    )


def worst_pairs_html(result: Any, order: Any, n: int = 10) -> str:
    """Boxes for the first ``n`` rows of ``order`` (row positions, most disagreeing first)."""
    out = []
    for i in list(order)[:n]:
        try:
            out.append(pair_html(result.pair_detail(int(i))))
        except (KeyError, IndexError, ValueError):
            continue
    return "\n".join(out)


def worst_pairs_section(result: Any, rows: pd.DataFrame, title: str, n: int = 10) -> Section | None:
    """The section of the ``n`` pairs with the highest ``disagreement`` of ``rows`` (one row per
    pair, in the order of ``result.pair_detail``); among equally disagreeing pairs (few
    annotators give few distinct values) those with the highest lexical overlap, where a
    disagreement is least expected. None without that column or rows."""
    if not len(rows) or "disagreement" not in rows.columns:
        return None
    dis = rows["disagreement"].fillna(-1).to_numpy(dtype=float)
    if "overlap" in rows.columns:
        over = pd.to_numeric(rows["overlap"], errors="coerce").fillna(-1).to_numpy(dtype=float)
        order = np.lexsort((-over, -dis))
        how = "most disagreeing first; among equal disagreement, highest lexical overlap first"
    else:
        order = np.argsort(-dis, kind="stable")
        how = "most disagreeing first"
    note = (
        f'<p class="note">{esc(how.capitalize())}; shared words boxed, the reused passage '
        "highlighted.</p>"
    )
    return Section(title, note + worst_pairs_html(result, order, n), anchor="worst-pairs")
