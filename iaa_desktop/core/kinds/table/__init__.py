"""Coded items: any judgment table, agreement coefficients at every level of measurement."""

from __future__ import annotations

from iaa_desktop.core.kinds.spec import Example, KindParts, KindSpec, ViewRef


def _parts() -> KindParts:
    """The kind's code, its modules imported when first needed (the registry stays light)."""
    from iaa_desktop.core.kinds.table import adjudication, compare, report, survey

    return KindParts(
        compare.KIND,
        report=report.build,
        methods=report.methods,
        summary=report.summary,
        adjudication=adjudication.units_for_table,
        survey=survey.survey,
    )


SPEC = KindSpec(
    name="table",
    title="Judgments of items",
    inputs="CSV/TSV/XLSX judgments: long, wide or one file per annotator",
    parts=_parts,
    example=Example(
        "judgments",
        "Judgment table",
        "Product review ratings in one table: every coefficient, "
        "pairwise heatmap, per-topic agreement.",
        place=7,
    ),
    view=ViewRef("iaa_desktop.gui.kinds.table"),
)
