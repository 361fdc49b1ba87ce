"""Historical spelling normalization: word- and character-based agreement, modernization types."""

from __future__ import annotations

from iaa_desktop.core.kinds.spec import Example, KindParts, KindSpec, ViewRef


def _parts() -> KindParts:
    """The kind's code, its modules imported when first needed (the registry stays light)."""
    from iaa_desktop.core.kinds.normalization import adjudication, compare, report, survey

    return KindParts(
        compare.KIND,
        report=report.build,
        methods=report.methods,
        summary=report.summary,
        adjudication=adjudication.units_for_normalization,
        gold_units=adjudication.gold_units,
        survey=survey.survey,
        arrange=survey.arrange,
    )


SPEC = KindSpec(
    name="normalization",
    title="Historical spelling normalization",
    inputs="one token table per annotator (text, token, historical form, normalization, modernization)",
    parts=_parts,
    example=Example(
        "normalization",
        "Spelling normalization",
        "Three annotators normalize a historical German "
        "passage: word- and character-based π* and α.",
        place=2,
    ),
    placeholder="norm   or   norm | modernized | INFL/SEM/EXT",
    view=ViewRef("iaa_desktop.gui.kinds.normalization"),
)
