"""Report sections and methods paragraphs of the annotator figures of a table study: model
annotators (the alternative annotator test), competence, batches, test–retest and planning."""

from __future__ import annotations

from typing import Any

from iaa_desktop.core.export.report import KindReport, ReportContext
from iaa_desktop.core.kinds.annotators.report import (
    PLANNING_METHODS,
    batch_figure,
    batch_methods,
    batch_section,
    competence_methods,
    competence_section,
    models_methods,
    models_section,
    planning_figure,
    planning_section,
    retest_methods,
    retest_section,
)

__all__ = ["add_sections", "batch_figure", "methods", "planning_figure"]


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
        kr.sections.append(batch_section(j, key, ctx))
    if "retest" in j:
        kr.sections.append(retest_section(j, ctx))
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
        out.append(batch_methods(result.chosen.batch_column, result.chosen.batch_size))
    if "retest" in j:
        out.append(retest_methods(result.chosen.occasion_column))
    if "planning" in j:
        out.append(PLANNING_METHODS)
    return out, refs
