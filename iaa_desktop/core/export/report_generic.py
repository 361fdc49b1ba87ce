"""Report sections of a kind without its own module: the headline and every result table."""

from __future__ import annotations

import math
from typing import Any

from iaa_desktop.core.export.html_blocks import table_html
from iaa_desktop.core.export.methods_text import annotators_of, methods_for
from iaa_desktop.core.export.report_parts import KindReport, ReportContext, Section
from iaa_desktop.core.export.summary import SummaryRow


def _value(text: str) -> float:
    try:
        return float(str(text).split()[0].rstrip("%").replace(",", ""))
    except (ValueError, IndexError):
        return math.nan


def build(result: Any, ctx: ReportContext) -> KindReport:
    paragraphs, refs = methods_for(result)
    kr = KindReport(methods=paragraphs, references=refs, annotators=annotators_of(result))
    for name, text in result.headline():
        v = _value(text)
        if math.isfinite(v):
            kr.summary.append(
                SummaryRow(name, v, digits=3 if abs(v) <= 1 else 2, note=f"as printed: {text}")
            )
    try:
        tables = result.tables()
    except NotImplementedError:
        tables = {}
    for name, df in tables.items():
        kr.sections.append(
            Section(
                name.replace("_", " ").capitalize(),
                table_html(df, max_rows=ctx.max_rows, cls="wide" if df.shape[1] > 8 else ""),
            )
        )
    return kr
