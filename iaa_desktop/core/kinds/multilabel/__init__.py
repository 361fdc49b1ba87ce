"""Multi-label annotation: per-label κ and the two-level decomposition of label sets.

Modules: ``reader`` (input formats), ``compare`` (the comparison and its result), ``report`` (report
section and methods paragraph), ``adjudication`` (units and gold writers).
"""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec(
    name="multilabel",
    title="Multi-label annotation",
    inputs="label sets per item: a long table (labels joined) or a wide 0/1 table",
    compare="iaa_desktop.core.kinds.multilabel.compare:KIND",
    report="iaa_desktop.core.kinds.multilabel.report:build",
    methods="iaa_desktop.core.kinds.multilabel.report:methods",
    adjudication="iaa_desktop.core.kinds.multilabel.adjudication:units_for_multilabel",
)
