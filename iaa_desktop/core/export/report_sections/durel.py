"""Report sections of the ``durel`` kind (TRoTR graded use pairs)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from .. import charts
from ..methods_text import methods_for
from ..report import KindReport, ReportContext, Section, SummaryRow, figure_html, table_html
from ._pairs import worst_pairs_html

TARGET_HEADERS = {
    "target": "Target",
    "n_items_all": "n",
    "krippendorff_alpha_all": "α",
    "spearman_weighted_all": "ρ",
    "n_items_filtered": "n filt.",
    "krippendorff_alpha_filtered": "α filt.",
    "spearman_weighted_filtered": "ρ filt.",
    "n_label0_filtered": "label 0",
    "n_label1_filtered": "label 1",
}


def build(result: Any, ctx: ReportContext) -> KindReport:
    paragraphs, refs = methods_for(result)
    kr = KindReport(methods=paragraphs, references=refs, annotators=list(result.annotators))
    for part, name in (("all", "all pairs"), ("filtered", "filtered pairs")):
        d = result.overall.get(part, {})
        n = d.get("n_items")
        kr.summary.append(
            SummaryRow(
                f"Krippendorff's α ({result.level}), {name}",
                d.get("krippendorff_alpha", math.nan),
                n=n,
                scale="alpha",
            )
        )
        kr.summary.append(
            SummaryRow(
                f"Spearman ρ (weighted mean of pairs), {name}",
                d.get("spearman_weighted", math.nan),
                n=n,
            )
        )
    f = result.overall.get("filtered", {})
    kr.summary_caption = (
        f"{result.overall.get('all', {}).get('n_items', 0):,} pairs, {len(result.targets)} targets; "
        f"filtered: {f.get('n_items', 0):,} pairs (label 0: {f.get('n_label0', 0) or 0:.0f}, label 1: {f.get('n_label1', 0) or 0:.0f})"
    )

    # per target, worst first
    tt = result.targets_table()
    if len(tt):
        tt = tt.sort_values("krippendorff_alpha_all", na_position="first").reset_index(drop=True)
        kr.tables["targets_worst_first"] = tt
        cols = [c for c in TARGET_HEADERS if c in tt.columns]
        body = [
            table_html(
                tt,
                cols,
                TARGET_HEADERS,
                digits={c: 0 for c in cols if c.startswith("n_")},
                caption="Per target, lowest α first (all pairs, then the filtered pairs)",
                max_rows=ctx.max_rows,
            )
        ]
        if ctx.charts:
            body.append(
                figure_html(
                    charts.interval_dots(
                        tt["target"],
                        tt["krippendorff_alpha_all"],
                        extra=tt["krippendorff_alpha_filtered"],
                        value_label="α, all pairs",
                        extra_label="α, filtered",
                        xlabel="Krippendorff's α",
                        reference=result.overall.get("all", {}).get("krippendorff_alpha"),
                    ),
                    "Krippendorff's α per target, worst first (filled: all pairs; hollow: filtered); dashed: pooled α of all pairs. "
                    "No intervals are computed for this kind.",
                )
            )
        kr.sections.append(Section("Per target", "\n".join(body), anchor="targets"))

    # annotator pairs
    pw = result.pairwise
    if len(pw):
        body = [
            table_html(
                pw.sort_values("spearman", na_position="first"),
                digits={"n_items": 0, "n_items_filtered": 0},
                caption="Spearman ρ per annotator pair, lowest first",
                max_rows=ctx.max_rows,
            )
        ]
        if ctx.charts:
            names = list(result.annotators)
            m = pd.DataFrame(np.nan, index=names, columns=names)
            for r in pw.itertuples(index=False):
                m.loc[r.a, r.b] = m.loc[r.b, r.a] = r.spearman
            for a in names:
                m.loc[a, a] = 1.0
            kr.tables["pair_matrix_spearman"] = m.rename_axis("annotator").reset_index()
            body.append(
                figure_html(
                    charts.pairwise_heatmap(m, "Pairwise Spearman ρ"),
                    "Spearman ρ per annotator pair (all pairs they both judged).",
                )
            )
        if len(result.annotator_table):
            body.append(
                table_html(
                    result.annotator_table,
                    digits={"n_judgments": 0, "n_cant_decide": 0},
                    caption="Each annotator against the mean of the others",
                )
            )
        kr.sections.append(Section("Annotators", "\n".join(body), anchor="annotators"))

    if len(result.topic_ranking):
        kr.sections.append(
            Section(
                "Topic variation ranking (TRaC)",
                table_html(
                    result.topic_ranking,
                    digits={"rank": 0},
                    caption="Targets by mean judgment (lower = more topic variation)",
                ),
                anchor="trac",
            )
        )

    items = result.items
    if len(items) and "disagreement" in items.columns:
        order = np.argsort(-items["disagreement"].fillna(-1).to_numpy(), kind="stable")
        kr.sections.append(
            Section(
                "The ten most disagreeing pairs",
                worst_pairs_html(result, order, 10),
                anchor="worst-pairs",
            )
        )
    return kr
