"""Candidate text-reuse pairs: lexical overlap, multi-κ by factor level with Bayesian intervals."""

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
    from iaa_desktop.core.kinds.candidates.compare import KIND

    return KIND


def _report(result: Any, ctx: Any) -> Any:
    from iaa_desktop.core.kinds.candidates.report import build

    return build(result, ctx)


def _methods(result: Any) -> tuple[list[str], list[str]]:
    from iaa_desktop.core.kinds.candidates.report import methods

    return methods(result)


def _summary(result: Any) -> tuple[list[Any], str]:
    from iaa_desktop.core.kinds.candidates.report import summary

    return summary(result)


def _units(result: Any) -> Any:
    from iaa_desktop.core.kinds.candidates.adjudication import units_for_candidates

    return units_for_candidates(result)


def _survey(inputs: list[Path], options: dict[str, Any]) -> Survey:
    from iaa_desktop.core.kinds.candidates.survey import survey

    return survey(inputs, options)


def _arrange(paths: list[Path]) -> Arrangement:
    from iaa_desktop.core.kinds.candidates.survey import arrange

    return arrange(paths)


SPEC = KindSpec(
    name="candidates",
    title="Candidate text-reuse pairs",
    inputs="a pairs table (passages, factors) and accept/reject labels, long or wide",
    comparison=_comparison,
    report=_report,
    methods=_methods,
    summary=_summary,
    adjudication=_units,
    survey=_survey,
    arrange=_arrange,
    example=Example(
        "candidates",
        "Candidate pairs",
        "Latin passages and their possible biblical sources, accepted "
        "or rejected: multi-κ with Bayesian intervals per factor.",
        place=4,
    ),
    view=".pairs",
)
