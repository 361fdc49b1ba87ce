"""Coded items: any judgment table, agreement coefficients at every level of measurement.

Modules: ``reader`` (input formats), ``compare`` (the comparison and its result), ``report`` (report
section and methods paragraph), ``adjudication`` (units and gold writers).
"""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec(
    name="table",
    title="Judgments of items",
    inputs="CSV/TSV/XLSX judgments: long, wide or one file per annotator",
    compare="iaa_desktop.core.kinds.table.compare:KIND",
    report="iaa_desktop.core.kinds.table.report:build",
    methods="iaa_desktop.core.kinds.table.report:methods",
    adjudication="iaa_desktop.core.kinds.table.adjudication:units_for_table",
)
