"""Candidate text-reuse pairs: lexical overlap, multi-κ by factor level with Bayesian intervals."""

from __future__ import annotations

from iaa_desktop.core.kinds.spec import Example, KindParts, KindSpec, ViewRef


def _parts() -> KindParts:
    """The kind's code, its modules imported when first needed (the registry stays light)."""
    from iaa_desktop.core.kinds.candidates import adjudication, compare, report, survey

    return KindParts(
        compare.KIND,
        report=report.build,
        methods=report.methods,
        summary=report.summary,
        adjudication=adjudication.units_for_candidates,
        survey=survey.survey,
        arrange=survey.arrange,
    )


SPEC = KindSpec(
    name="candidates",
    title="Candidate text-reuse pairs",
    inputs="a pairs table (passages, factors) and accept/reject labels, long or wide",
    parts=_parts,
    example=Example(
        "candidates",
        "Candidate pairs",
        "Latin passages and their possible biblical sources, accepted "
        "or rejected: multi-κ with Bayesian intervals per factor.",
        place=4,
    ),
    view=ViewRef("iaa_desktop.gui.kinds.pairs"),
)
