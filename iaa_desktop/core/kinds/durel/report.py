"""Report sections of the ``durel`` kind (TRoTR graded use pairs)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pandas as pd

from iaa_desktop.core.export import charts
from iaa_desktop.core.export.html_blocks import figure_html, pair_heatmap_html, table_html
from iaa_desktop.core.export.methods_text import (
    esc,
    fmt_num,
    values_of,
)
from iaa_desktop.core.export.report import KindReport, ReportContext, Section, SummaryRow
from iaa_desktop.core.export.worst_pairs import worst_pairs_section
from iaa_desktop.core.kinds.annotators.report import (
    PLANNING_METHODS,
    annotator_sections,
    batch_methods,
    competence_methods,
    models_methods,
    retest_methods,
)
from iaa_desktop.core.kinds.durel.options import DurelOptions

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.durel.compare import DurelResult

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


def summary(result: DurelResult) -> tuple[list[SummaryRow], str]:
    """The headline coefficients (rows of the summary table) and their caption."""
    rows: list[SummaryRow] = []
    for part, name in (("all", "all pairs"), ("filtered", "filtered pairs")):
        d = result.overall.get(part, {})
        n = d.get("n_items")
        rows.append(
            SummaryRow(
                f"Krippendorff's α ({result.level}), {name}",
                d.get("krippendorff_alpha", math.nan),
                n=n,
                scale="alpha",
            )
        )
        rows.append(
            SummaryRow(
                f"Spearman ρ (weighted mean of pairs), {name}",
                d.get("spearman_weighted", math.nan),
                n=n,
            )
        )
    f = result.overall.get("filtered", {})
    caption = (
        f"{result.overall.get('all', {}).get('n_items', 0):,} pairs, {len(result.targets)} targets; "
        f"filtered: {f.get('n_items', 0):,} pairs (label 0: {f.get('n_label0', 0) or 0:.0f}, label 1: {f.get('n_label1', 0) or 0:.0f})"
    )
    return rows, caption


def build(result: DurelResult, ctx: ReportContext) -> KindReport:
    """The kind's report: per target, annotators, the TRaC ranking, the most disagreeing pairs."""
    paragraphs, refs = methods(result)
    kr = KindReport(methods=paragraphs, references=refs, annotators=list(result.annotators))
    kr.summary, kr.summary_caption = summary(result)
    sections = (
        _targets_section(result, ctx, kr.tables),
        _annotators_section(result, ctx, kr.tables),
        _trac_section(result),
        worst_pairs_section(result, result.items, "The ten most disagreeing pairs"),
    )
    kr.sections.extend(s for s in sections if s is not None)
    j = result.annotator_figures.to_json()
    kr.sections.extend(annotator_sections(j, ctx))
    return kr


def _targets_section(
    result: DurelResult, ctx: ReportContext, tables: dict[str, pd.DataFrame]
) -> Section | None:
    """Per target, worst first: the table and the chart of α."""
    tt = result.targets_table()
    if not len(tt):
        return None
    tt = tt.sort_values("krippendorff_alpha_all", na_position="first").reset_index(drop=True)
    tables["targets_worst_first"] = tt
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
    return Section("Per target", "\n".join(body), anchor="targets")


def _annotators_section(
    result: DurelResult, ctx: ReportContext, tables: dict[str, pd.DataFrame]
) -> Section | None:
    """Spearman ρ per annotator pair (table and heatmap), each annotator against the others."""
    pw = result.pairwise
    if not len(pw):
        return None
    body = [
        table_html(
            pw.sort_values("spearman", na_position="first"),
            digits={"n_items": 0, "n_items_filtered": 0},
            caption="Spearman ρ per annotator pair, lowest first",
            max_rows=ctx.max_rows,
        )
    ]
    if ctx.charts:
        body.append(
            pair_heatmap_html(
                tables,
                "pair_matrix_spearman",
                list(result.annotators),
                pw,
                "spearman",
                "Pairwise Spearman ρ",
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
    return Section("Annotators", "\n".join(body), anchor="annotators")


def _trac_section(result: DurelResult) -> Section | None:
    """The targets ranked by mean judgment (TRaC)."""
    if not len(result.topic_ranking):
        return None
    return Section(
        "Topic variation ranking (TRaC)",
        table_html(
            result.topic_ranking,
            digits={"rank": 0},
            caption="Targets by mean judgment (lower = more topic variation)",
        ),
        anchor="trac",
    )


def methods(result: DurelResult) -> tuple[list[str], list[str]]:
    o: DurelOptions = result.chosen
    cd = values_of(o.cant_decide)
    p1 = (
        f"Graded judgments of use pairs on a scale from {fmt_num(o.scale_low)} to {fmt_num(o.scale_high)} "
        f"({len(result.annotators)} annotators, {result.overall.get('all', {}).get('n_items', 0):,} pairs, "
        f"{len(result.targets)} targets) were compared as in TRoTR (Periti et al. 2024): Krippendorff's α "
        f"(Krippendorff 2011) with the {esc(result.level)} distance, and Spearman's ρ per annotator pair averaged "
        + (
            "with weights equal to the number of pairs both annotators judged with a valid value, "
            "as the WUGs pipeline's data2agr.py weights them (Schlechtweg et al. 2021). "
            "Can't-decide judgments ("
            + ", ".join(f"‘{esc(v)}’" for v in cd)
            + ") are missing values for α and ρ and do not count in the weights."
            if o.spearman_weights == "valid"
            else "with weights equal to the number of pairs both annotators judged. "
            "Can't-decide judgments ("
            + ", ".join(f"‘{esc(v)}’" for v in cd)
            + ") are missing values for α and ρ but count in the weights."
        )
    )
    p2 = (
        f"Filter (the TRiC gold set): a pair is kept when the range (max − min) of its valid judgments is below "
        f"{fmt_num(o.filter_range)} and then dropped when its mean lies strictly between "
        f"{fmt_num(o.filter_mean_low)} and {fmt_num(o.filter_mean_high)}; kept pairs get the binary "
        f"label 1 when their mean is at least {fmt_num(o.label_threshold)}. All figures are given for all "
        "pairs and for the filtered pairs, pooled over targets (not averaged) and per target. Per target, the mean "
        f"judgment ranks topic variation (TRaC: lower mean = more variation; targets with ρ below "
        f"{fmt_num(o.trac_min_spearman)} are marked). No intervals are computed for this kind. "
        "α is interpreted with Krippendorff's (2004) guideline, a convention rather than a verdict."
    )
    refs = ["periti2024", "krippendorff2011", "krippendorff2004", "artstein2008"]
    if o.spearman_weights == "valid":
        refs.insert(1, "schlechtweg2021")
    out = [p1, p2]
    j = result.annotator_figures.to_json()
    if "model_annotators" in j:
        out.append(
            "The judgments' valid values were treated as ordered categories for the model "
            "annotators' figures and the planning curve (can't-decide is missing). "
            + models_methods(j)
        )
        refs += ["calderon2025", "benjamini2001"]
    if "competence" in j:
        out.append(
            competence_methods(
                j,
                "Every judgment of a use pair is a response, an annotator's repeated judgments "
                "of a pair included (can't-decide is no response); the valid values are treated "
                "as unordered categories.",
            )
        )
        refs += ["dawid1979", "hovy2013"]
    if "per_batch" in j or "retest" in j:
        ordered = (
            "For agreement per batch and test–retest agreement, the valid judgments were "
            f"treated as categories at the {esc(o.level)} level (can't-decide is missing)."
        )
        out.append(ordered)
    if "per_batch" in j:
        out.append(
            batch_methods(o.batch_column, o.batch_size, "the human judgments")
            + " An annotator's repeated judgments of a pair inside a batch are combined by "
            "their median, as in the whole study."
        )
    if "retest" in j:
        out.append(
            retest_methods(o.occasion_column, "every judgment, repeats combined by the median")
        )
    if "planning" in j:
        out.append(PLANNING_METHODS)
    return out, refs
