"""Report sections of the ``multilabel`` kind (per-label κ and the whether/which decomposition)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pandas as pd

from iaa_desktop.core.export.html_blocks import (
    figure_html,
    legend_outside,
    matrix_html,
    table_html,
)
from iaa_desktop.core.export.methods_text import (
    annotators_of,
    esc,
)
from iaa_desktop.core.export.report import KindReport, ReportContext, Section, SummaryRow
from iaa_desktop.core.kinds.annotators.report import (
    PLANNING_METHODS,
    batch_methods,
    competence_methods,
    competence_section,
    label_batch_section,
    models_methods,
    models_section,
    planning_section,
    retest_methods,
    retest_section,
)
from iaa_desktop.core.kinds.multilabel.options import MultiLabelOptions

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.multilabel.result import MultiLabelResult


def _float(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def summary(result: MultiLabelResult) -> tuple[list[SummaryRow], str]:
    """The headline coefficients (rows of the summary table) and their caption."""
    rows: list[SummaryRow] = []
    tables = result.tables()
    pairs = tables.get("pairs", pd.DataFrame())
    avg = pairs[pairs["pair"] == "average"] if "pair" in pairs.columns else pd.DataFrame()
    a = avg.iloc[0] if len(avg) else None
    n_items = int(result.data.codes.shape[0]) if result.data is not None else None
    if a is not None:
        for lab in result.labels:
            rows.append(
                SummaryRow(
                    f"Cohen's κ, {lab} (mean over pairs)", _float(a.get(f"κ {lab}")), scale="kappa"
                )
            )
        for lab in result.labels:
            rows.append(
                SummaryRow(
                    f"Percent agreement, {lab} (mean over pairs)",
                    _float(a.get(f"PA {lab}")),
                    digits=3,
                    percent=True,
                )
            )
        rows.append(
            SummaryRow(
                "Exact set agreement (mean over pairs)",
                _float(a.get("exact_set_agreement")),
                percent=True,
                digits=3,
            )
        )
    dec = tables.get("decomposition", pd.DataFrame())
    d_avg = dec[dec["pair"] == "average"] if "pair" in dec.columns else pd.DataFrame()
    if len(d_avg):
        d = d_avg.iloc[0]
        rows.append(
            SummaryRow(
                f"First level κ (S1 = {d['s1']})",
                _float(d["first_level"]),
                n=int(d["n_items"]) if "n_items" in d else None,
                scale="kappa",
            )
        )
        rows.append(
            SummaryRow(
                "Second level κ, average over labels",
                _float(d["second_average"]),
                n=int(d["n_agree_first_level"]) if "n_agree_first_level" in d else None,
                scale="kappa",
            )
        )
    caption = (
        f"{n_items:,} items, {len(annotators_of(result))} annotators, labels {', '.join(result.labels)}; no intervals for this kind"
        if n_items
        else ""
    )
    return rows, caption


def build(result: MultiLabelResult, ctx: ReportContext) -> KindReport:
    """The report section of a multi-label result: labels and pairs, the decomposition, the
    label combinations."""
    paragraphs, refs = methods(result)
    kr = KindReport(methods=paragraphs, references=refs, annotators=annotators_of(result))
    kr.summary, kr.summary_caption = summary(result)
    tables = result.tables()
    kr.sections.append(
        Section("Labels and annotator pairs", _labels_body(result, tables, ctx), anchor="labels")
    )
    kr.sections.append(
        Section(
            "Decomposition (whether / which)",
            _decomposition_body(result, tables, ctx, kr),
            anchor="decomposition",
        )
    )
    combos = tables.get("combinations", pd.DataFrame())
    if len(combos):
        kr.sections.append(
            Section(
                "Label combinations",
                _combinations_body(result, combos, ctx),
                anchor="combinations",
            )
        )
    _annotator_sections(result, ctx, kr)
    return kr


def _annotator_sections(result: MultiLabelResult, ctx: ReportContext, kr: KindReport) -> None:
    """Per label the model annotators' and the planning sections (when asked for)."""
    j = result.annotator_figures.to_json()
    for n, lab in enumerate(result.labels):
        if "model_annotators" in j:
            mine = [m for m in j["model_annotators"] if m["label"] == lab]
            kr.sections.append(
                models_section(
                    {"model_annotators": mine}, ctx, f"Model annotators: {lab}", f"models-{n}"
                )
            )
    for n, lab in enumerate(result.labels):
        if "planning" in j:
            part = {
                key: [c for c in j[key] if c["label"] == lab]
                for key in ("planning", "planning_needed")
            }
            kr.sections.append(planning_section(part, ctx, f"Planning: {lab}", f"planning-{n}"))
    if "competence" in j:
        kr.sections.append(competence_section(j, ctx, "Annotator competence per label"))
    if "per_batch" in j:
        kr.sections.append(label_batch_section(j, "krippendorff_alpha", ctx))
    if "retest" in j:
        kr.sections.append(retest_section(j, ctx))


def _labels_body(
    result: MultiLabelResult, tables: dict[str, pd.DataFrame], ctx: ReportContext
) -> str:
    """Per label and pair (lowest κ first), per pair, and their charts."""
    from iaa_desktop.core.kinds.multilabel import charts as cm

    pairs = tables.get("pairs", pd.DataFrame())
    body = []
    pl = tables.get("per_label", pd.DataFrame())
    if len(pl):
        worst = pl.sort_values("kappa", na_position="first").reset_index(drop=True)
        body.append(
            table_html(
                worst,
                digits={"n_items": 0},
                percent=["percent_agreement"],
                caption="Per label and annotator pair, lowest κ first",
                max_rows=ctx.max_rows,
            )
        )
    if len(pairs):
        body.append(
            table_html(
                pairs,
                digits={"n_items": 0},
                cls="wide",
                caption="Per annotator pair",
                percent=[
                    c for c in pairs.columns if c.startswith("PA ") or c == "exact_set_agreement"
                ],
            )
        )
    if ctx.charts:
        body.append(
            figure_html(
                legend_outside(cm.per_label_kappa_figure(result)),
                "Cohen's κ per label and annotator pair.",
                max_width_in=5.8,
            )
        )
        try:
            m = result.pair_matrix("kappa")
            if "annotator" in m.columns:
                m = m.set_index("annotator")
            body.append(
                matrix_html(
                    m,
                    "Pairwise κ (mean over labels)",
                    "Mean per-label κ per annotator pair (–: the pair shares no items).",
                )
            )
        except (KeyError, ValueError, AttributeError):
            pass
    return "\n".join(body)


def _decomposition_body(
    result: MultiLabelResult, tables: dict[str, pd.DataFrame], ctx: ReportContext, kr: KindReport
) -> str:
    """The chosen decomposition per pair, the scatter of every partition, the extremes."""
    from iaa_desktop.core.kinds.multilabel import charts as cm

    dec = tables.get("decomposition", pd.DataFrame())
    body = []
    if len(dec):
        body.append(
            table_html(
                dec,
                digits={"n_items": 0, "n_agree_first_level": 0},
                cls="wide",
                caption="The chosen decomposition per pair",
            )
        )
    if ctx.charts:
        body.append(
            figure_html(
                cm.decomposition_scatter_figure(result),
                "Every partition: first-level against second-level agreement (the chosen one marked).",
                max_width_in=5.5,
            )
        )
    ex = tables.get("exploration", pd.DataFrame())
    if len(ex):
        body.extend(_exploration_extremes(ex, kr))
    return "\n".join(body)


_EXPLORATION_HEADS = {
    "s1": "S1",
    "s1_names": "S1 labels",
    "size": "|S1|",
    "first_level": "first level",
    "second_average": "second level",
    "rank_first_level": "rank 1st",
    "rank_second_level": "rank 2nd",
}


def _exploration_extremes(ex: pd.DataFrame, kr: KindReport) -> list[str]:
    """The ten lowest first-level and ten highest second-level partitions (also as tables)."""
    cols = [c for c in _EXPLORATION_HEADS if c in ex.columns]
    low = ex.sort_values("first_level", na_position="last", kind="stable").head(10)
    high = ex.sort_values(
        "second_average", ascending=False, na_position="last", kind="stable"
    ).head(10)
    kr.tables["exploration_lowest_first_level"] = low
    kr.tables["exploration_highest_second_level"] = high
    dig = {"size": 0, "rank_first_level": 0, "rank_second_level": 0}
    return [
        table_html(
            low,
            cols,
            dict(_EXPLORATION_HEADS),
            digits=dig,
            caption="The ten lowest first-level decompositions (where annotators disagree most on “whether”)",
        ),
        table_html(
            high,
            cols,
            dict(_EXPLORATION_HEADS),
            digits=dig,
            caption="The ten highest second-level decompositions (best agreement on “which”)",
        ),
    ]


def _combinations_body(result: MultiLabelResult, combos: pd.DataFrame, ctx: ReportContext) -> str:
    from iaa_desktop.core.kinds.multilabel import charts as cm

    body = [
        table_html(
            combos,
            percent=["share"],
            digits={c: 0 for c in combos.columns if c not in ("share",)},
            caption="Label combinations per annotator",
        )
    ]
    if ctx.charts:
        body.append(
            figure_html(cm.combinations_figure(result), "Label combinations.", max_width_in=5.0)
        )
    return "\n".join(body)


def methods(result: MultiLabelResult) -> tuple[list[str], list[str]]:
    labels = list(getattr(result, "labels", ()))
    o: MultiLabelOptions = result.chosen
    s1 = o.s1 or "000 (no label: “is there any label at all?”)"
    p1 = (
        f"Each of {len(annotators_of(result))} annotators gave each item a set of the {len(labels)} labels "
        + ", ".join(esc(lab) for lab in labels)
        + " (an item's combination is a bit code, first label = leftmost bit). Per annotator pair and label, "
        "percent agreement and Cohen's κ (Cohen 1960) on “has the label” are reported, with the exact set "
        "agreement."
    )
    p2 = (
        "Disagreement is decomposed as in Levi &amp; Shenhav (2022): a partition of the codes into S1 and S2 "
        "defines a binary label; the first level is Cohen's κ on that label per pair, the second level the "
        "per-label κ on the items where the pair agrees on the first level, averaged over labels; both are then "
        f"averaged over pairs (unrounded). The theory-driven partition is S1 = {esc(s1)}; every partition was "
        "explored and ranked by first level (ascending) and second level (descending). κ undefined for a pair "
        "(expected agreement 1) makes its average undefined. κ bands follow Landis &amp; Koch (1977), a "
        "convention, not a verdict."
    )
    out, refs = [p1, p2], ["levi2022", "cohen1960", "landis1977", "artstein2008"]
    j = result.annotator_figures.to_json()
    if "model_annotators" in j:
        out.append(
            "For the model annotators, each label was treated as a table of its own (1: the "
            "label is in the annotator's set, 0: it is not), with nominal α. " + models_methods(j)
        )
        refs += ["calderon2025", "benjamini2001"]
    if "competence" in j:
        out.append(
            competence_methods(
                j,
                "Each label was treated as a task of its own: an annotator's response per item "
                "is whether the label is in their set (present or absent).",
            )
        )
        refs += ["dawid1979", "hovy2013"]
    if "per_batch" in j or "retest" in j:
        out.append(
            "For agreement per batch and test–retest agreement, each label was treated as a "
            "table of its own: an annotation is 1 when the label is in the set, 0 when it is "
            "not (nominal categories)."
        )
    if "per_batch" in j:
        out.append(
            batch_methods(o.batch_column, o.batch_size, "the human annotations")
            + " An annotator's repeated annotations of an item inside a batch count once, the "
            "first in the files, as in the whole study. The chart shows Krippendorff's α per "
            "batch with a line per label; every coefficient is in the CSV table per_batch."
        )
    if "retest" in j:
        out.append(
            retest_methods(o.occasion_column, "each one's first annotation of an item in the files")
            + " It is computed per label."
        )
    if "planning" in j:
        out.append(
            "Per label (present or absent), as for the model annotators: " + PLANNING_METHODS
        )
    return out, refs
