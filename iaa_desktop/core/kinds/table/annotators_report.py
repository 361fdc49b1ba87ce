"""Report sections and methods paragraphs of the annotator figures of a table study: model
annotators (the alternative annotator test), competence, batches, test–retest and planning."""

from __future__ import annotations

from typing import Any

import pandas as pd

from iaa_desktop.core.export import charts
from iaa_desktop.core.export.html_blocks import figure_html, fmt, table_html
from iaa_desktop.core.export.methods_text import esc
from iaa_desktop.core.export.report import KindReport, ReportContext, Section
from iaa_desktop.core.kinds.annotators.report import (
    PLANNING_METHODS,
    competence_methods,
    competence_section,
    models_methods,
    models_section,
    planning_figure,
    planning_section,
)

__all__ = ["add_sections", "batch_figure", "methods", "planning_figure"]


def batch_figure(j: dict[str, Any], key: str) -> Any:
    """Per batch the coefficient ``key`` with its interval, the study's value as a line."""
    from iaa_desktop.core.metrics.catalogue import title

    rows = [r for r in j["per_batch"] if r["overall"].get(key)]
    return charts.interval_dots(
        [r["batch"] for r in rows],
        [r["overall"][key]["value"] for r in rows],
        [r["overall"][key]["ci_low"] for r in rows],
        [r["overall"][key]["ci_high"] for r in rows],
        xlabel=title(key),
        reference=(j["overall"].get(key) or {}).get("value"),
    )


def _batch_section(j: dict[str, Any], key: str, ctx: ReportContext) -> Section:
    rows = [r for r in j["per_batch"] if r["overall"].get(key)]
    body = []
    if rows and ctx.charts:
        body.append(
            figure_html(
                batch_figure(j, key),
                "Agreement per batch with 95% intervals; the line is the whole study.",
            )
        )
    table = pd.DataFrame(
        [
            {
                "batch": r["batch"],
                "n_judgments": r["n_judgments"],
                "n_items": r["n_items"],
                "value": (r["overall"].get(key) or {}).get("value"),
                "ci_low": (r["overall"].get(key) or {}).get("ci_low"),
                "ci_high": (r["overall"].get(key) or {}).get("ci_high"),
                "below": "below the study" if key in r["below_study"] else "",
            }
            for r in j["per_batch"]
        ]
    )
    body.append(
        table_html(
            table,
            list(table.columns),
            {
                "batch": "Batch",
                "n_judgments": "judgments",
                "n_items": "pairable items",
                "value": "α",
                "ci_low": "low",
                "ci_high": "high",
                "below": "",
            },
            digits={"n_judgments": 0, "n_items": 0},
            caption="Agreement per batch (every coefficient in the CSV table per_batch)",
            max_rows=ctx.max_rows,
        )
    )
    return Section("Agreement over batches", "\n".join(body), anchor="batches")


def _retest_section(j: dict[str, Any], ctx: ReportContext) -> Section:
    rows = []
    for r in j["retest"]:
        row: dict[str, Any] = {
            "annotator": r["annotator"],
            "n_occasions": r["n_occasions"],
            "n_items": r["n_items"],
        }
        for k in ("krippendorff_alpha", "cohen_kappa_mean", "fleiss_kappa", "percent_agreement"):
            f = r.get(k) or {}
            row[k] = f.get("value")
            row[k + "_ci"] = f"[{fmt(f.get('ci_low'))}, {fmt(f.get('ci_high'))}]" if f else ""
        rows.append(row)
    if not rows:
        return Section(
            "Test–retest agreement",
            "<p>No annotator judged an item more than once.</p>",
            anchor="retest",
        )
    t = pd.DataFrame(rows)
    html = table_html(
        t,
        list(t.columns),
        {
            "annotator": "Annotator",
            "n_occasions": "occasions",
            "n_items": "items repeated",
            "krippendorff_alpha": "α",
            "krippendorff_alpha_ci": "95%",
            "cohen_kappa_mean": "mean Cohen κ",
            "cohen_kappa_mean_ci": "95%",
            "fleiss_kappa": "Fleiss κ",
            "fleiss_kappa_ci": "95%",
            "percent_agreement": "% agr.",
            "percent_agreement_ci": "95%",
        },
        digits={"n_occasions": 0, "n_items": 0},
        caption="Each annotator's agreement with themself over occasions",
        max_rows=ctx.max_rows,
    )
    return Section("Test–retest agreement", html, anchor="retest")


def add_sections(result: Any, ctx: ReportContext, kr: KindReport) -> None:
    """The sections of the annotator figures the result holds."""
    j = result.annotator_figures.to_json()
    if not j:
        return
    j["overall"] = {k: v.to_json() for k, v in result.overall.items()}
    if "model_annotators" in j:
        kr.sections.append(models_section(j, ctx))
    if "competence" in j:
        kr.sections.append(competence_section(j, ctx))
    if "per_batch" in j:
        key = (
            "krippendorff_alpha" if "krippendorff_alpha" in result.overall else "percent_agreement"
        )
        kr.sections.append(_batch_section(j, key, ctx))
    if "retest" in j:
        kr.sections.append(_retest_section(j, ctx))
    if "planning" in j:
        kr.sections.append(planning_section(j, ctx))


def methods(result: Any) -> tuple[list[str], list[str]]:
    """Methods paragraphs of the annotator figures (none when there are none)."""
    j = result.annotator_figures.to_json()
    out: list[str] = []
    refs: list[str] = []
    if "model_annotators" in j:
        out.append(models_methods(j))
        refs += ["calderon2025", "benjamini2001"]
    if "competence" in j:
        out.append(competence_methods(j))
        refs += ["dawid1979", "hovy2013"]
    if "per_batch" in j:
        out.append(
            "For agreement over batches, the judgments carrying each value of the column "
            f"‘{esc(result.chosen.batch_column)}’"
            + (f" (binned: {esc(result.chosen.batch_size)})" if result.chosen.batch_size else "")
            + " form a study of their own (one item may fall in several batches), for which "
            "every coefficient and its bootstrap interval were computed as for the whole study; "
            "a batch is flagged when its interval lies wholly below the study's."
        )
    if "retest" in j:
        out.append(
            "Test–retest (intra-annotator) agreement treats each annotator's occasions "
            + (
                f"(the column ‘{esc(result.chosen.occasion_column)}’)"
                if result.chosen.occasion_column
                else "(the order of their repeated judgments in the files)"
            )
            + " as if they were annotators (the agreement between annotators uses each one's "
            "first occasion): Krippendorff's α, the mean Cohen's κ over pairs of "
            "occasions, Fleiss' κ over occasions and percent agreement, on the items the "
            "annotator judged more than once, with bootstrap intervals (Krippendorff 2004, "
            "stability)."
        )
    if "planning" in j:
        out.append(PLANNING_METHODS)
    return out, refs
