"""Coded items: any judgment table, agreement coefficients at every level of measurement."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from iaa_desktop.core.kinds.spec import Example, KindSpec

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.spec import TaskKind
    from iaa_desktop.core.kinds.survey import Survey


# the parts of the kind, each importing its module when first used (the registry stays light)


def _comparison() -> TaskKind:
    from iaa_desktop.core.kinds.table.compare import KIND

    return KIND


def _report(result: Any, ctx: Any) -> Any:
    from iaa_desktop.core.kinds.table.report import build

    return build(result, ctx)


def _methods(result: Any) -> tuple[list[str], list[str]]:
    from iaa_desktop.core.kinds.table.report import methods

    return methods(result)


def _summary(result: Any) -> tuple[list[Any], str]:
    from iaa_desktop.core.kinds.table.report import summary

    return summary(result)


def _units(result: Any) -> Any:
    from iaa_desktop.core.kinds.table.adjudication import units_for_table

    return units_for_table(result)


def _survey(inputs: list[Path], options: dict[str, Any]) -> Survey:
    from iaa_desktop.core.kinds.table.survey import survey

    return survey(inputs, options)


SPEC = KindSpec(
    name="table",
    title="Judgments of items",
    inputs="CSV/TSV/XLSX judgments: long, wide or one file per annotator",
    comparison=_comparison,
    report=_report,
    methods=_methods,
    summary=_summary,
    adjudication=_units,
    survey=_survey,
    example=Example(
        "judgments",
        "Judgment table",
        "Product review ratings in one table: every coefficient, "
        "pairwise heatmap, per-topic agreement.",
        place=7,
    ),
    view=".table",
)
