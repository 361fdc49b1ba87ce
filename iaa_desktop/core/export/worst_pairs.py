"""Shared by the passage-pair kinds: the texts of the most disagreeing pairs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from iaa_desktop.core.export.report import Section, esc, text_dir


def _use_html(label: str, text: str, span: tuple[int, int] | None) -> str:
    d = text_dir(text)
    if span is not None and 0 <= span[0] < span[1] <= len(text):
        a, b = span
        body = f'{esc(text[:a])}<span class="target">{esc(text[a:b])}</span>{esc(text[b:])}'
    else:
        body = esc(text)
    return f'<div class="use" dir="{d}"><b>{esc(label)}:</b> <bdi>{body}</bdi></div>'


def pair_html(detail: Any) -> str:
    """One pair as a box: title, both texts (target span highlighted), judgments, summary."""
    judg = "; ".join(
        f"{esc(a)}: {esc(v)}" + (f" ({esc(c)})" if c else "") for a, v, c in detail.judgments
    )
    summ = "; ".join(f"{esc(k)} {esc(v)}" for k, v in detail.summary)
    warn = "".join(f'<div class="note">{esc(w)}</div>' for w in detail.span_warnings)
    return (
        f'<div class="pair"><div class="head" dir="{text_dir(detail.title)}">{esc(detail.title)}</div>'
        + _use_html(detail.label_a, detail.text_a, detail.span_a)
        + _use_html(detail.label_b, detail.text_b, detail.span_b)
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
    pair, in the order of ``result.pair_detail``); None without that column or rows."""
    if not len(rows) or "disagreement" not in rows.columns:
        return None
    order = np.argsort(-rows["disagreement"].fillna(-1).to_numpy(), kind="stable")
    return Section(title, worst_pairs_html(result, order, n), anchor="worst-pairs")
