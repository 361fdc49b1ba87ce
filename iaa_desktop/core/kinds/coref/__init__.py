"""Coreference: classes matched one to one between annotators, class tables and coreference scores."""

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
    from iaa_desktop.core.kinds.coref.compare import KIND

    return KIND


def _report(result: Any, ctx: Any) -> Any:
    from iaa_desktop.core.kinds.coref.report import build

    return build(result, ctx)


def _methods(result: Any) -> tuple[list[str], list[str]]:
    from iaa_desktop.core.kinds.coref.report import methods

    return methods(result)


def _summary(result: Any) -> tuple[list[Any], str]:
    from iaa_desktop.core.kinds.coref.report import summary

    return summary(result)


def _units(result: Any) -> Any:
    from iaa_desktop.core.kinds.coref.adjudication import units_for_coref

    return units_for_coref(result)


def _survey(inputs: list[Path], options: dict[str, Any]) -> Survey:
    from iaa_desktop.core.kinds.coref.survey import survey

    return survey(inputs, options)


def _arrange(paths: list[Path]) -> Arrangement:
    from iaa_desktop.core.kinds.coref.survey import arrange

    return arrange(paths)


SPEC = KindSpec(
    name="coref",
    title="Coreference",
    inputs="one folder or file per annotator: brat standoff, CoNLL-2012 or mention tables",
    comparison=_comparison,
    report=_report,
    methods=_methods,
    summary=_summary,
    adjudication=_units,
    survey=_survey,
    arrange=_arrange,
    example=Example(
        "coref",
        "Coreference",
        "Two annotators' brat files of two short texts, one in Hebrew script: "
        "matched classes side by side, MUC, B³, CEAF, BLANC, LEA.",
        place=1,
    ),
    placeholder="keep / drop, or click mentions in the text to edit a chain",
    view=".coref",
)
