"""Coded items: any judgment table, agreement coefficients at every level of measurement."""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec.of_package(
    __name__,
    "table",
    title="Judgments of items",
    inputs="CSV/TSV/XLSX judgments: long, wide or one file per annotator",
)
