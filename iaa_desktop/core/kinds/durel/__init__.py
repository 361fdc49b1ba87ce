"""Graded use pairs (DURel, TRoTR): ordinal α, weighted Spearman, filters and per-target figures."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from iaa_desktop.core.kinds.spec import Example, KindSpec

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.arrange import Arrangement
    from iaa_desktop.core.kinds.spec import TaskKind
    from iaa_desktop.core.kinds.survey import Survey


# the parts of the kind, each importing its module when first used (the registry stays light)


def _comparison() -> TaskKind:
    from iaa_desktop.core.kinds.durel.compare import KIND

    return KIND


def _report(result: Any, ctx: Any) -> Any:
    from iaa_desktop.core.kinds.durel.report import build

    return build(result, ctx)


def _methods(result: Any) -> tuple[list[str], list[str]]:
    from iaa_desktop.core.kinds.durel.report import methods

    return methods(result)


def _summary(result: Any) -> tuple[list[Any], str]:
    from iaa_desktop.core.kinds.durel.report import summary

    return summary(result)


def _units(result: Any) -> Any:
    from iaa_desktop.core.kinds.durel.adjudication import units_for_durel

    return units_for_durel(result)


def _survey(inputs: list[Path], options: dict[str, Any]) -> Survey:
    from iaa_desktop.core.kinds.durel.survey import survey

    return survey(inputs, options)


def _arrange(paths: list[Path]) -> Arrangement:
    from iaa_desktop.core.kinds.durel.survey import arrange

    return arrange(paths)


SPEC = KindSpec(
    name="durel",
    title="Graded use pairs (DURel)",
    inputs="a DURel/PhiTag export: judgments and uses of one or more targets",
    comparison=_comparison,
    report=_report,
    methods=_methods,
    summary=_summary,
    adjudication=_units,
    survey=_survey,
    arrange=_arrange,
    example=Example(
        "durel",
        "Graded pairs",
        "Reused verses in social-media posts judged 1–4 for topic relatedness: "
        "ordinal α, weighted Spearman, per target.",
        place=3,
    ),
    placeholder="a judgment, e.g. 3",
    view=".pairs",
)
