"""The summary table of the report (and of the GUI's agreement tabs) with its interpretation column.

Every kind's ``report`` module provides ``summary(result) -> (rows, caption)``: the headline
coefficients as :class:`SummaryRow` values. The report prints them with a 95% interval, ``n`` and
the band of a published convention; the GUI shows the same rows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from iaa_desktop.core.export.html_blocks import esc, finite, fmt, interval_text


@dataclass
class SummaryRow:
    """One line of the summary table.

    ``scale`` picks the interpretation convention: ``"kappa"`` (Landis & Koch 1977),
    ``"alpha"`` (Krippendorff 2004: 0.667 / 0.800) or ``None`` (no convention, e.g. percent
    agreement or a correlation).
    """

    measure: str
    value: float
    ci_low: float = math.nan
    ci_high: float = math.nan
    n: int | None = None
    scale: str | None = None
    digits: int = 3
    percent: bool = False
    note: str = ""


# ---------------------------------------------------------------------------------------------
# interpretation conventions


LANDIS_KOCH = (
    (0.0, "poor"),
    (0.20, "slight"),
    (0.40, "fair"),
    (0.60, "moderate"),
    (0.80, "substantial"),
    (1.0, "almost perfect"),
)


def interpretation(value: float, scale: str | None) -> str:
    """The band a value falls in under a published convention (not a verdict on the data).

    κ-type coefficients: Landis & Koch (1977); α: Krippendorff (2004), 0.667 and 0.800.

    >>> interpretation(0.447, "alpha")
    '< .667: unreliable (K)'
    >>> interpretation(0.46, "kappa")
    'moderate (L&K)'
    """
    if scale is None or not finite(value):
        return "–"
    v = float(value)
    if scale == "kappa":
        if v < 0:
            return "poor (L&K)"
        for bound, name in LANDIS_KOCH[1:]:
            if v <= bound + 1e-12:
                return f"{name} (L&K)"
        return "almost perfect (L&K)"
    if scale == "alpha":
        if v >= 0.800:
            return "≥ .800: reliable (K)"
        if v >= 0.667:
            return ".667–.800: tentative (K)"
        return "< .667: unreliable (K)"
    return "–"


INTERPRETATION_NOTE = (
    "Interpretation is a convention, not a verdict: κ-type coefficients use the bands of Landis & Koch "
    "(1977) (L&K: < 0 poor, 0–.20 slight, .21–.40 fair, .41–.60 moderate, .61–.80 substantial, "
    ".81–1 almost perfect); Krippendorff's α uses Krippendorff's (2004) guideline (K: rely on data "
    "with α ≥ .800, draw tentative conclusions from .667 ≤ α < .800). Percent agreement, "
    "correlations and other scores (e.g. coreference F1 and δ) have no such convention. Intervals are 95% unless stated otherwise."
)


NO_CONVENTION_NOTE = (
    "These measures have no published interpretation bands (coreference scores, δ, percent "
    "agreement and correlations); read them against the same measures of comparable studies."
)


def summary_frame(rows: Sequence[SummaryRow]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "measure": r.measure,
                "value": r.value,
                "ci_low": r.ci_low,
                "ci_high": r.ci_high,
                "n": r.n,
                "interpretation": interpretation(r.value, r.scale),
                "note": r.note,
            }
            for r in rows
        ]
    )


def summary_table_html(rows: Sequence[SummaryRow], caption: str = "") -> str:
    """The summary table; a column empty for every row (no interval, no n, no convention) is
    left out rather than printed as a column of dashes."""
    has_interval = any(finite(r.ci_low) and finite(r.ci_high) for r in rows)
    has_n = any(r.n is not None for r in rows)
    has_interp = any(r.scale is not None and finite(r.value) for r in rows)
    out = ['<div class="tbl small">']
    if caption:
        out.append(f'<p class="caption">{esc(caption)}</p>')
    out.append('<table class="data summary">')
    head = ["<th>Measure</th>", "<th>Value</th>"]
    if has_interval:
        head.append("<th>95% interval</th>")
    if has_n:
        head.append("<th>n</th>")
    if has_interp:
        head.append("<th>Interpretation</th>")
    out.append(f"<thead><tr>{''.join(head)}</tr></thead><tbody>")
    for r in rows:
        note = f'<div class="note">{esc(r.note)}</div>' if r.note else ""
        cells = [
            f"<td>{esc(r.measure)}{note}</td>",
            f'<td class="n value">{fmt(r.value, r.digits, r.percent)}</td>',
        ]
        if has_interval:
            cells.append(
                f'<td class="n">{interval_text(r.ci_low, r.ci_high, r.digits, r.percent)}</td>'
            )
        if has_n:
            cells.append(f'<td class="n">{fmt(r.n, 0) if r.n is not None else "–"}</td>')
        if has_interp:
            cells.append(f"<td>{esc(interpretation(r.value, r.scale))}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    note = INTERPRETATION_NOTE if has_interp else NO_CONVENTION_NOTE
    out.append(f'<p class="note">{esc(note)}</p>')
    return "\n".join(out)
