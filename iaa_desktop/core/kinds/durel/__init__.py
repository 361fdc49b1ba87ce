"""Graded use pairs (DURel, TRoTR): ordinal α, weighted Spearman, filters and per-target figures."""

from __future__ import annotations

from iaa_desktop.core.kinds.spec import Example, KindParts, KindSpec, ViewRef


def _parts() -> KindParts:
    """The kind's code, its modules imported when first needed (the registry stays light)."""
    from iaa_desktop.core.kinds.durel import adjudication, compare, report, survey

    return KindParts(
        compare.KIND,
        report=report.build,
        methods=report.methods,
        summary=report.summary,
        adjudication=adjudication.units_for_durel,
        survey=survey.survey,
        arrange=survey.arrange,
    )


SPEC = KindSpec(
    name="durel",
    title="Graded use pairs (DURel)",
    inputs="a DURel/PhiTag export: judgments and uses of one or more targets",
    parts=_parts,
    example=Example(
        "durel",
        "Graded pairs",
        "Reused verses in social-media posts judged 1–4 for topic relatedness: "
        "ordinal α, weighted Spearman, per target.",
        place=3,
    ),
    placeholder="a judgment, e.g. 3",
    view=ViewRef("iaa_desktop.gui.kinds.pairs"),
)
