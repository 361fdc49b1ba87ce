"""Multi-label annotation: per-label κ and the two-level decomposition of label sets."""

from __future__ import annotations

from iaa_desktop.core.kinds.spec import Example, KindParts, KindSpec, ViewRef


def _parts() -> KindParts:
    """The kind's code, its modules imported when first needed (the registry stays light)."""
    from iaa_desktop.core.kinds.multilabel import adjudication, compare, report, survey

    return KindParts(
        compare.KIND,
        report=report.build,
        methods=report.methods,
        summary=report.summary,
        adjudication=adjudication.units_for_multilabel,
        survey=survey.survey,
    )


SPEC = KindSpec(
    name="multilabel",
    title="Multi-label annotation",
    inputs="label sets per item: a long table (labels joined) or a wide 0/1 table",
    parts=_parts,
    example=Example(
        "multilabel",
        "Multi-label",
        "Sentences of a news story labelled complication / resolution / "
        "success: per-label κ and the two-level decomposition.",
        place=5,
    ),
    placeholder="labels separated by ; (empty = no label)",
    view=ViewRef("iaa_desktop.gui.kinds.multilabel"),
)
