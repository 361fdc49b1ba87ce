"""Historical spelling normalization: word- and character-based agreement, modernization types."""

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
    from iaa_desktop.core.kinds.normalization.compare import KIND

    return KIND


def _report(result: Any, ctx: Any) -> Any:
    from iaa_desktop.core.kinds.normalization.report import build

    return build(result, ctx)


def _methods(result: Any) -> tuple[list[str], list[str]]:
    from iaa_desktop.core.kinds.normalization.report import methods

    return methods(result)


def _summary(result: Any) -> tuple[list[Any], str]:
    from iaa_desktop.core.kinds.normalization.report import summary

    return summary(result)


def _units(result: Any) -> Any:
    from iaa_desktop.core.kinds.normalization.adjudication import units_for_normalization

    return units_for_normalization(result)


def _gold_units(inputs: list[Path], options: dict[str, Any]) -> tuple[Any, list[Any]]:
    from iaa_desktop.core.kinds.normalization.adjudication import gold_units

    return gold_units(inputs, options)


def _survey(inputs: list[Path], options: dict[str, Any]) -> Survey:
    from iaa_desktop.core.kinds.normalization.survey import survey

    return survey(inputs, options)


def _arrange(paths: list[Path]) -> Arrangement:
    from iaa_desktop.core.kinds.normalization.survey import arrange

    return arrange(paths)


SPEC = KindSpec(
    name="normalization",
    title="Historical spelling normalization",
    inputs="one token table per annotator (text, token, historical form, normalization, modernization)",
    comparison=_comparison,
    report=_report,
    methods=_methods,
    summary=_summary,
    adjudication=_units,
    gold_units=_gold_units,
    survey=_survey,
    arrange=_arrange,
    example=Example(
        "normalization",
        "Spelling normalization",
        "Three annotators normalize a historical German "
        "passage: word- and character-based π* and α.",
        place=2,
    ),
    placeholder="norm   or   norm | modernized | INFL/SEM/EXT",
    view=".normalization",
)
