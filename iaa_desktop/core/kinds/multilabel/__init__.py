"""Multi-label annotation: per-label κ and the two-level decomposition of label sets."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from iaa_desktop.core.kinds.spec import Example, KindSpec

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.spec import TaskKind
    from iaa_desktop.core.kinds.survey import Survey


# the parts of the kind, each importing its module when first used (the registry stays light)


def _comparison() -> TaskKind:
    from iaa_desktop.core.kinds.multilabel.compare import KIND

    return KIND


def _report(result: Any, ctx: Any) -> Any:
    from iaa_desktop.core.kinds.multilabel.report import build

    return build(result, ctx)


def _methods(result: Any) -> tuple[list[str], list[str]]:
    from iaa_desktop.core.kinds.multilabel.report import methods

    return methods(result)


def _summary(result: Any) -> tuple[list[Any], str]:
    from iaa_desktop.core.kinds.multilabel.report import summary

    return summary(result)


def _units(result: Any) -> Any:
    from iaa_desktop.core.kinds.multilabel.adjudication import units_for_multilabel

    return units_for_multilabel(result)


def _survey(inputs: list[Path], options: dict[str, Any]) -> Survey:
    from iaa_desktop.core.kinds.multilabel.survey import survey

    return survey(inputs, options)


SPEC = KindSpec(
    name="multilabel",
    title="Multi-label annotation",
    inputs="label sets per item: a long table (labels joined) or a wide 0/1 table",
    comparison=_comparison,
    report=_report,
    methods=_methods,
    summary=_summary,
    adjudication=_units,
    survey=_survey,
    example=Example(
        "multilabel",
        "Multi-label",
        "Sentences of a news story labelled complication / resolution / "
        "success: per-label κ and the two-level decomposition.",
        place=5,
    ),
    placeholder="labels separated by ; (empty = no label)",
    view=".multilabel",
)
