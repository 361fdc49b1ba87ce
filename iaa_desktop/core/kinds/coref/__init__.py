"""Coreference: classes matched one to one between annotators, class tables and coreference scores."""

from __future__ import annotations

from iaa_desktop.core.kinds.spec import Example, KindParts, KindSpec, ViewRef


def _parts() -> KindParts:
    """The kind's code, its modules imported when first needed (the registry stays light)."""
    from iaa_desktop.core.kinds.coref import adjudication, compare, report, survey

    return KindParts(
        compare.KIND,
        report=report.build,
        methods=report.methods,
        summary=report.summary,
        adjudication=adjudication.units_for_coref,
        survey=survey.survey,
        arrange=survey.arrange,
    )


SPEC = KindSpec(
    name="coref",
    title="Coreference",
    inputs="one folder or file per annotator: brat standoff, CoNLL-2012 or mention tables",
    parts=_parts,
    example=Example(
        "coref",
        "Coreference",
        "Two annotators' brat files of two short texts, one in Hebrew script: "
        "matched classes side by side, MUC, B³, CEAF, BLANC, LEA.",
        place=1,
    ),
    placeholder="keep / drop, or click mentions in the text to edit a chain",
    view=ViewRef("iaa_desktop.gui.kinds.coref"),
)
