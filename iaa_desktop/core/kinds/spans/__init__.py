"""Labelled spans (named entities and any span annotation): span F1, κ/α, unitizing α, γ.

Modules: ``readers`` (brat standoff, span tables), ``tools`` (annotation tools' exports),
``loading`` (inputs, pairing of documents), ``corpus`` (flat arrays), ``measures`` (the figures),
``compare`` (the kind and its result), ``tables``, ``report`` (report section and methods
paragraph), ``adjudication`` (units), ``writers`` and ``tool_writers`` (gold in the inputs'
format), ``gamma`` (Mathet et al.'s γ, γ-cat and γ-k; on by default).
"""

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
    from iaa_desktop.core.kinds.spans.compare import KIND

    return KIND


def _report(result: Any, ctx: Any) -> Any:
    from iaa_desktop.core.kinds.spans.report import build

    return build(result, ctx)


def _methods(result: Any) -> tuple[list[str], list[str]]:
    from iaa_desktop.core.kinds.spans.report import methods

    return methods(result)


def _units(result: Any) -> Any:
    from iaa_desktop.core.kinds.spans.adjudication import units_for_spans

    return units_for_spans(result)


def _survey(inputs: list[Path], options: dict[str, Any]) -> Survey:
    from iaa_desktop.core.kinds.spans.survey import survey

    return survey(inputs, options)


def _arrange(paths: list[Path]) -> Arrangement:
    from iaa_desktop.core.kinds.spans.survey import arrange

    return arrange(paths)


SPEC = KindSpec(
    name="spans",
    title="Labelled spans",
    inputs=(
        "one folder or file per annotator: brat standoff, WebAnno/INCEpTION TSV 3.x, doccano "
        "JSONL or span tables (document, start, end, label); or one Label Studio JSON, Prodigy "
        "JSONL or INCEpTION project export holding every annotator; or ELAN (.eaf) and Praat "
        "(.TextGrid) files whose tiers are compared in time"
    ),
    comparison=_comparison,
    report=_report,
    methods=_methods,
    adjudication=_units,
    survey=_survey,
    arrange=_arrange,
    example=Example(
        "spans",
        "Labelled spans",
        "Three annotators' named entities in English, Hebrew and Arabic news (brat): "
        "span F1, κ/α per character, unitizing α, disagreements side by side.",
        place=6,
    ),
    placeholder="LABEL START END, several joined by ;  (empty = no span)",
    view=".spans",
)
