"""Candidate text-reuse pairs: lexical overlap, multi-κ by factor level with Bayesian intervals.

Modules: ``reader`` (input formats), ``compare`` (the comparison and its result), ``report`` (report
section and methods paragraph), ``adjudication`` (units and gold writers).
"""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec(
    name="candidates",
    title="Candidate text-reuse pairs",
    inputs="a pairs table (passages, factors) and accept/reject labels, long or wide",
    compare="iaa_desktop.core.kinds.candidates.compare:KIND",
    report="iaa_desktop.core.kinds.candidates.report:build",
    methods="iaa_desktop.core.kinds.candidates.report:methods",
    adjudication="iaa_desktop.core.kinds.candidates.adjudication:units_for_candidates",
)
