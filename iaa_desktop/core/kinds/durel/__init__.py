"""Graded use pairs (DURel, TRoTR): ordinal α, weighted Spearman, filters and per-target figures.

Modules: ``reader`` (input formats), ``compare`` (the comparison and its result), ``report`` (report
section and methods paragraph), ``adjudication`` (units and gold writers).
"""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec(
    name="durel",
    title="Graded use pairs (DURel)",
    inputs="a DURel/PhiTag export: judgments and uses of one or more targets",
    compare="iaa_desktop.core.kinds.durel.compare:KIND",
    report="iaa_desktop.core.kinds.durel.report:build",
    methods="iaa_desktop.core.kinds.durel.report:methods",
    adjudication="iaa_desktop.core.kinds.durel.adjudication:units_for_durel",
)
