"""Labelled spans (named entities and any span annotation): span F1, κ/α, unitizing α, γ.

Modules: ``readers`` (brat standoff, span tables), ``tools`` (annotation tools' exports),
``loading`` (inputs, pairing of documents), ``corpus`` (flat arrays), ``measures`` (the figures),
``compare`` (the kind and its result), ``tables``, ``report`` (report section and methods
paragraph), ``adjudication`` (units), ``writers`` and ``tool_writers`` (gold in the inputs'
format), ``gamma`` (Mathet et al.'s γ, γ-cat and γ-k; on by default).
"""

from __future__ import annotations

from iaa_desktop.core.kinds.spec import Example, KindParts, KindSpec, ViewRef


def _parts() -> KindParts:
    """The kind's code, its modules imported when first needed (the registry stays light)."""
    from iaa_desktop.core.kinds.spans import compare, relation_adjudication, report, survey

    return KindParts(
        compare.KIND,
        report=report.build,
        methods=report.methods,
        adjudication=relation_adjudication.units,
        survey=survey.survey,
        arrange=survey.arrange,
    )


SPEC = KindSpec(
    name="spans",
    title="Labelled spans",
    inputs=(
        "one folder or file per annotator: brat standoff, WebAnno/INCEpTION TSV 3.x, doccano "
        "JSONL or span tables (document, start, end, label); or one Label Studio JSON, Prodigy "
        "JSONL or INCEpTION project export holding every annotator; or ELAN (.eaf) and Praat "
        "(.TextGrid) files whose tiers are compared in time"
    ),
    parts=_parts,
    example=Example(
        "spans",
        "Labelled spans",
        "Three annotators' named entities in English, Hebrew and Arabic news (brat): "
        "span F1, κ/α per character, unitizing α, disagreements side by side.",
        place=6,
    ),
    placeholder="LABEL START END, several joined by ;  (empty = no span)",
    view=ViewRef("iaa_desktop.gui.kinds.spans"),
)
